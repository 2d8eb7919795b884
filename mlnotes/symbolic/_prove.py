"""Deciding claims: symbolic proof first, exact or high-precision evaluation where sympy cannot decide.

The three deciders return a :class:`Verdict` and never raise on a false claim (the recording layer in
:mod:`mlnotes.symbolic._record` does):

- :func:`equal`  ``lhs == rhs`` for scalar expressions, explicit matrices and matrix expressions
  (``MatrixSymbol``), with ``simplify(lhs - rhs) == 0`` / ``ZeroMatrix`` as proof;
- :func:`holds`  a relation ``lhs op rhs`` (``">="``, ``">"``, ``"!="``, ...), proved from sympy's
  assumptions or supported by evaluation at random points;
- :func:`agree`  a derived formula evaluated numerically against the output of ``mlnotes`` code.

A claim that sympy cannot prove is evaluated at random points (and at any ``witnesses`` given); a
disagreement at any point is a counterexample and the claim fails. Agreement at every point is
reported as ``numeric`` (evidence, not proof), so a reader sees which claims are proved.
"""

from __future__ import annotations

import signal
import threading
import time
from contextlib import contextmanager
from dataclasses import dataclass

import numpy as np
import sympy as sp
from sympy.matrices.expressions.matexpr import MatrixExpr

__all__ = ["Verdict", "equal", "holds", "agree", "explicit_matrix"]


#: The honest proof kinds a statement is labelled with (what actually happened).
PROVED = "proved"                      # sympy on symbolic expressions
EXACT = "exact computation"            # exact arithmetic on exact inputs without symbols
NUMERIC = "numeric evidence"           # high-precision evaluation at random points (simplify undecided)
COUNTEREXAMPLE = "counterexample"      # a refutation at a point
IMPLEMENTATION = "implementation agrees"   # a derived formula against the mlnotes code
MEASURED = "measured"                  # floating-point results of running code, however wrapped
TRIVIAL = "trivial"                    # the two sides were identical when the check was built
UNDECIDED = "undecided"                # neither a proof nor a counterexample: a failed claim
KINDS = (PROVED, EXACT, NUMERIC, COUNTEREXAMPLE, IMPLEMENTATION, MEASURED, TRIVIAL, UNDECIDED)
#: The kinds that count as a proof (or as a check of the implementation) in the summaries.
PROOF_KINDS = (PROVED, EXACT, COUNTEREXAMPLE, IMPLEMENTATION)


@dataclass
class Verdict:
    """The outcome of deciding one statement.

    Attributes
    ----------
    latex : str
        The statement as displayed: the typed ``latex=`` display if one was given, else the checked
        statement rendered by sympy's printer.
    holds : bool
        Whether the statement was proved or supported at every evaluated point.
    method : str
        How it was decided, as a short code: ``"symbolic"`` (simplification or sympy's
        assumptions), ``"exact"`` (exact arithmetic on explicit matrices), ``"numeric"``
        (high-precision evaluation at random points), ``"implementation"`` (derived formula vs
        code), ``"counterexample"``, ``"measured"`` (numbers from running code against a bound) or
        ``"undecided"``.
    detail : str
        How it was decided, in words.
    counterexample : dict or None
        For a failed statement, the point (symbol -> value as LaTeX) where it fails.
    seconds : float
        Time taken to decide.
    kind : str
        The honest proof kind (one of :data:`KINDS`): ``"proved"``, ``"exact computation"``,
        ``"numeric evidence"``, ``"counterexample"``, ``"implementation agrees"``,
        ``"measured"``, ``"trivial"`` or ``"undecided"``. Derived from ``method`` and the inputs
        when not given.
    checked : str
        The statement that was checked, rendered from the checked objects by sympy's printer
        (for numerical checks: the numbers compared).
    display : str or None
        The typed display (``latex=``), if any.
    display_check : str
        How the typed display relates to the checked objects: ``"rendered"`` (no typed display:
        the checked form is shown), ``"compared"`` (parsed back and found equal), ``"not compared"``
        (could not be parsed or matched: the checked form is shown next to it), ``"disagrees"``
        (the statement fails) or ``"description"`` (a numerical check: the display describes the
        quantities, the numbers are shown).
    names : str
        For a display compared through ``names=``: what each of its names stands for in the checked
        symbols (LaTeX, one ``name = expression`` a line), shown with the verdict; else empty.
    checked_text : str
        For a checked form whose LaTeX is longer than :data:`TYPESET_CHECKED_CHARS`: the checked
        statement as sympy's text (``str`` of the checked objects), which the details show instead of
        typesetting it; else empty.
    trivial : bool
        The two sides were structurally identical when the check was built: it cannot fail and is
        no proof.
    """

    latex: str
    holds: bool
    method: str
    detail: str
    counterexample: dict | None = None
    seconds: float = 0.0
    kind: str = ""
    checked: str = ""
    display: str | None = None
    display_check: str = ""
    trivial: bool = False
    names: str = ""
    checked_text: str = ""

    def __post_init__(self):
        if not self.kind:
            self.kind = _default_kind(self.method, self.holds, self.counterexample)
        if self.kind not in KINDS:
            raise ValueError(f"kind must be one of {KINDS}, got {self.kind!r}")
        if not self.checked:
            self.checked = self.latex
        if not self.display_check:
            self.display_check = "rendered" if self.display is None else "not compared"


def _default_kind(method, holds_, counterexample):
    """The proof kind of a verdict from its method alone (the deciders refine it from their inputs)."""
    if method == "undecided":
        return UNDECIDED
    if method == "measured":
        return MEASURED
    if method == "implementation":
        return IMPLEMENTATION
    if not holds_ and counterexample:
        return COUNTEREXAMPLE
    return {"symbolic": PROVED, "exact": PROVED, "numeric": NUMERIC,
            "counterexample": COUNTEREXAMPLE}.get(method, UNDECIDED)


def _has_float(*objects):
    """True if a floating-point number is among ``objects`` (a number that came out of running
    code, whatever it is wrapped in)."""
    for obj in objects:
        if isinstance(obj, (float, np.floating)):
            return True
        if isinstance(obj, np.ndarray) and obj.dtype.kind in "fc":
            return True
        if isinstance(obj, (sp.Basic, sp.MatrixBase)) and obj.has(sp.Float):
            return True
    return False


def _has_symbols(*objects):
    return any(isinstance(o, (sp.Basic, sp.MatrixBase)) and (o.free_symbols or o.has(sp.MatrixSymbol))
               for o in objects)


def _kind_of(method, holds_, counterexample, inputs):
    """The honest kind of a decided statement on the sympy objects ``inputs``: *measured* when a
    float is among them, *exact computation* when none has a symbol, else by the method."""
    if method == "undecided":
        return UNDECIDED
    if _has_float(*inputs):
        return MEASURED
    if not _has_symbols(*inputs):
        # without symbols: exact arithmetic, unless the value itself was only evaluated numerically
        # (e.g. an infinite product summed by mpmath's series acceleration)
        return NUMERIC if method == "numeric" and holds_ else EXACT
    return _default_kind(method, holds_, counterexample)


class _Timeout(Exception):
    pass


#: Seconds after which a timeout that fell in a garbage-collection callback or a finalizer (where
#: it cannot be raised) is tried again.
RETRY_SECONDS = 0.005

#: Deadlines (``time.process_time()``) of the active time limits, innermost last; the alarm is set
#: for the earliest. Time limits count the process's CPU time (``ITIMER_PROF``/``SIGPROF``), not
#: wall-clock time: on a loaded machine a wall-clock limit ran out after less work, and a claim that
#: a quiet machine proves came out as numeric evidence - the verdict depended on the load.
_deadlines: list = []
_collecting = [False]      # a garbage collection is running (set by a gc callback)


def _gc_callback(phase, info):
    _collecting[0] = phase == "start"


def _in_finaliser(frame) -> bool:
    """True if ``frame`` runs inside a garbage collection, a ``__del__`` or a weakref callback,
    where an exception cannot propagate (Python prints "Exception ignored in ...")."""
    if _collecting[0]:
        return True
    depth = 0
    while frame is not None and depth < 50:
        code = frame.f_code
        if code.co_name == "__del__" or code.co_filename.endswith(("weakref.py", "_weakrefset.py")):
            return True
        frame, depth = frame.f_back, depth + 1
    return False


def _arm(seconds):
    signal.setitimer(signal.ITIMER_PROF, max(seconds, 1e-4))


def _alarm(signum, frame):
    """The SIGPROF handler: raise :class:`_Timeout` only inside the checker's own code path, when
    a deadline has passed; in a garbage-collection callback or a finalizer, try again shortly."""
    if not _deadlines:
        return                                    # a stale alarm: no time limit is active
    remaining = min(_deadlines) - time.process_time()
    if remaining > 0:
        _arm(remaining)
        return
    _arm(RETRY_SECONDS)      # if the timeout is swallowed on the way (an ``except Exception``), again
    if _in_finaliser(frame) or _in_bookkeeping(frame):
        return
    raise _Timeout()


def _in_bookkeeping(frame) -> bool:
    """True if ``frame`` runs inside :func:`_time_limit`'s own setup or clean-up (its generator, or
    ``contextlib``'s ``__enter__``/``__exit__`` driving it): a timeout raised there would skip the
    clean-up and leave the handler, a deadline and a re-arming alarm behind, so that a later, unrelated
    line (e.g. in pytest's own code) raises :class:`_Timeout`, or the process is killed by SIGPROF
    once the previous handler is back. The body of a time limit never runs in these frames."""
    depth = 0
    while frame is not None and depth < 50:
        code = frame.f_code
        if code is _TIME_LIMIT_CODE:
            return True
        if code.co_name in ("__exit__", "__enter__") and code.co_filename.endswith("contextlib.py"):
            gen = getattr(frame.f_locals.get("self"), "gen", None)
            if getattr(gen, "gi_code", None) is _TIME_LIMIT_CODE:
                return True
        frame, depth = frame.f_back, depth + 1
    return False


def _unraisable(previous):
    """An unraisable-exception hook that swallows a :class:`_Timeout` raised where it could not
    propagate (and tries again shortly) and passes anything else on."""
    def hook(unraisable):
        if unraisable.exc_type is _Timeout:
            if _deadlines:
                _arm(RETRY_SECONDS)
            return
        previous(unraisable)
    hook.mlnotes_timeout = True
    return hook


@contextmanager
def _time_limit(seconds):
    """Abort the body with :class:`_Timeout` after ``seconds`` of CPU time (only in the main thread, where
    signals work). Time limits nest (the earliest deadline wins); the timeout is raised only in the
    checker's code path, never inside a garbage-collection callback or a finalizer (it is tried
    again there a few milliseconds later), and no alarm is left pending when the last limit exits."""
    use_alarm = (seconds and hasattr(signal, "SIGPROF")
                 and threading.current_thread() is threading.main_thread())
    if not use_alarm:
        yield
        return
    import gc
    import sys

    outermost = not _deadlines
    if outermost:
        try:
            previous = signal.signal(signal.SIGPROF, _alarm)
        except (ValueError, OSError):     # signals unavailable here (e.g. not the main interpreter): no limit
            yield
            return
        previous_hook = sys.unraisablehook
        sys.unraisablehook = _unraisable(previous_hook)
        if _gc_callback not in gc.callbacks:
            gc.callbacks.append(_gc_callback)
    deadline = time.process_time() + seconds
    _deadlines.append(deadline)
    _arm(min(_deadlines) - time.process_time())
    try:
        yield
    finally:
        try:
            _deadlines.remove(deadline)
        except _Timeout:       # the alarm fired as the body ended: the body is done, no need to abort it
            if deadline in _deadlines:
                _deadlines.remove(deadline)
        if _deadlines:
            _arm(min(_deadlines) - time.process_time())    # the enclosing limit goes on
        else:
            signal.setitimer(signal.ITIMER_PROF, 0)
            _collecting[0] = False
            if outermost:
                signal.signal(signal.SIGPROF, signal.SIG_DFL if previous is None else previous)
                if getattr(sys.unraisablehook, "mlnotes_timeout", False):
                    sys.unraisablehook = previous_hook
                if _gc_callback in gc.callbacks:
                    gc.callbacks.remove(_gc_callback)


#: The code of :func:`_time_limit`'s generator (see :func:`_in_bookkeeping`).
_TIME_LIMIT_CODE = _time_limit.__wrapped__.__code__


def _simplify_is_zero(expr, timeout):
    """True if ``expr`` simplifies to 0 within ``timeout`` seconds, False if not or if it ran out.

    Exact routes from the cheapest: the arithmetic of rational functions (:func:`_rational_zero`,
    which decides a rational function of independent symbols either way, and proves other
    expressions zero when they vanish with their non-rational parts taken as unknowns), then
    ``cancel``, then ``simplify``."""
    if expr == 0:
        return True
    if _infinite_nodes(expr):
        timeout = min(timeout, INFINITE_SIMPLIFY_SECONDS)   # sympy found no closed form: simplify rarely does
    try:
        with _time_limit(timeout):
            # cancel() decides polynomials and rational functions quickly; simplify() the rest
            return _exact_zero(expr, lambda e: sp.cancel(e) == 0 or sp.simplify(e) == 0)
    except _Timeout:
        return False


def _exact_zero(expr, otherwise) -> bool:
    """``expr == 0`` by rational-function arithmetic (:func:`_rational_zero`) where that decides within
    :data:`RATIONAL_SECONDS`, else by ``otherwise(expr)``: the one order of the exact routes that
    :func:`_simplify_is_zero`, :func:`_quickly_zero` and :func:`_nonzero` share."""
    if expr == 0:
        return True
    decided = _within(RATIONAL_SECONDS, _rational_zero, expr)
    return decided if decided is not None else otherwise(expr)


def _nonzero(expr, expand=False) -> bool:
    """``simplify(expr) != 0`` (``simplify(expand(expr)) != 0`` with ``expand``) for an entry of an
    evaluated matrix (a number, or an expression in the claim's scalar symbols), decided by
    rational-function arithmetic (:func:`_rational_zero`) where that decides."""
    return not _exact_zero(expr, lambda e: sp.simplify(sp.expand(e) if expand else e) == 0)


#: Seconds allowed for the rational-function route of one zero test (its gcds can grow with many
#: symbols, where ``cancel`` may be quicker), and for evaluating one matrix claim with DomainMatrix;
#: past them the old routes decide, as before.
RATIONAL_SECONDS = 1.0
DOMAIN_SECONDS = 2.0


#: Seconds allowed, per claim, for the exact routes tried before the random points (see :func:`_quickly_zero`).
QUICK_SECONDS = 1.0


def _quickly_zero(lhs, rhs) -> bool:
    """True if every entry of ``lhs - rhs`` (scalars, or explicit matrices of one shape) is zero by the
    exact routes that :func:`_simplify_is_zero` tries first - rational-function arithmetic
    (:func:`_rational_zero`), then ``cancel`` - within :data:`QUICK_SECONDS` in all; False if one is
    not, when the time runs out, if a route raises, or if a float, an infinity or nan is anywhere in
    either side.

    A claim they prove is proved before its random points are evaluated: at exact points, with each
    side evaluated to the working precision, the points cannot refute a zero of these exact routes,
    and :func:`_simplify_is_zero` would prove it by the same routes after the points, so the verdict
    is the same, without evaluating both sides at every point (seconds where a side has ``exp`` of a
    large argument). A side with a float goes the usual way: ``0.5*x - x/2`` is exactly 0, but at a
    point the float side is evaluated to its own 15 digits and differs from the exact one.
    Anything else also goes the usual way: points first."""
    if any(not isinstance(side, (sp.Expr, sp.MatrixBase)) or side.has(*_NOT_RATIONAL) for side in (lhs, rhs)):
        return False
    diff = lhs - rhs
    entries = list(diff) if isinstance(diff, sp.MatrixBase) else [diff]
    if any(not isinstance(e, sp.Expr) for e in entries):
        return False
    try:
        return _within(QUICK_SECONDS, lambda: all(_exact_zero(e, lambda x: sp.cancel(x) == 0)
                                                  for e in entries)) is True
    except _Timeout:
        raise                    # an enclosing time limit ran out: not ours to swallow
    except Exception:   # noqa: BLE001 - cancel raising on a node (it would after the points too): the usual way
        return False


def _within(seconds, route, *args):
    """``route(*args)``, or None (not decided) if it takes longer than ``seconds``."""
    try:
        with _time_limit(seconds):
            return route(*args)
    except _Timeout:
        return None


#: Expressions :func:`_rational_zero` does not take apart: floats are results of running code
#: (compared by simplify as before), infinities and nan are no rational functions.
_NOT_RATIONAL = (sp.Float, sp.core.numbers.Infinity, sp.core.numbers.NegativeInfinity,
                 sp.core.numbers.ComplexInfinity, sp.core.numbers.NaN)


def _rational_zero(expr):
    """Decide ``expr == 0`` exactly by the arithmetic of rational functions, or None.

    ``expr`` is taken apart into sums, products and integer powers of *atoms*, which must be
    symbols or ``Indexed`` objects with integer indices: independent unknowns. ``expr`` is then an
    element of the field of rational functions over the rationals in these atoms (sympy's
    ``FracField``, where every operation is exact and normalised), and it is zero there if and only
    if it is the zero rational function.

    - Zero there: ``expr`` vanishes identically: True (a proof; ``cancel`` and ``simplify`` get the
      same zero).
    - Not zero: a non-zero rational function of independent unknowns does not vanish identically,
      so ``expr`` is not zero: False (``simplify`` cannot reduce it to 0 either).
    - Any other atom (``exp(x)``, ``sqrt(x)``, ``sin(x)``, an ``Indexed`` with a symbolic index), a
      float, an infinity or nan: None at once, and the caller tries ``cancel``/``simplify`` as before.
      Taken as one more unknown such an atom decided nothing ``cancel`` does not: ``cancel`` knows
      ``exp(-a) = 1/exp(a)``, where the field of atoms does not (chapter 12's logistic Hessian:
      0.7-0.85 s per entry for no decision in the field, where ``cancel`` proves it in 0.1-0.3 s).
    """
    if not isinstance(expr, sp.Expr) or expr.has(*_NOT_RATIONAL):
        return None
    if expr.is_Rational:
        return expr == 0
    atoms = {}

    def collect(e):
        if e.is_Rational:
            return
        if e.is_Add or e.is_Mul:
            for arg in e.args:
                collect(arg)
            return
        if e.is_Pow and e.exp.is_Integer:
            collect(e.base)
            return
        if not (e.is_Symbol or (isinstance(e, sp.Indexed) and all(i.is_Integer for i in e.indices))):
            raise ValueError("not a rational function of independent unknowns")
        atoms[e] = None

    from sympy.polys.domains import QQ
    from sympy.polys.fields import FracField
    from sympy.polys.polyerrors import CoercionFailed
    from sympy.polys.rings import PolyRing

    try:
        collect(expr)
        if not atoms:
            return None
        if _numerator_vanishes(expr, PolyRing(tuple(atoms), QQ)):
            return True
        field = FracField(tuple(atoms), QQ)
        value = field.from_expr(expr)
    except (ValueError, CoercionFailed, ZeroDivisionError, RecursionError):
        return None
    return not value


#: Most terms (an upper bound, :func:`_terms_bound`) of a numerator that :func:`_numerator_vanishes` expands.
MAX_NUMERATOR_TERMS = 10_000


def _terms_bound(e) -> int:
    """An upper bound on the number of terms of ``expand(e)`` (capped just above
    :data:`MAX_NUMERATOR_TERMS`): sums add, products multiply, positive integer powers raise."""
    cap = MAX_NUMERATOR_TERMS + 1
    if e.is_Add:
        return min(cap, sum(_terms_bound(a) for a in e.args))
    if e.is_Mul:
        bound = 1
        for a in e.args:
            bound = min(cap, bound * _terms_bound(a))
        return bound
    if e.is_Pow and e.exp.is_Integer and e.exp > 0:
        base = _terms_bound(e.base)
        return 1 if base == 1 else min(cap, base ** min(int(e.exp), 64))
    return 1


def _numerator_vanishes(expr, ring):
    """True if ``expr = p/q`` (``as_numer_denom``: one fraction, no gcd taken) has ``p = 0`` as a polynomial
    in ``ring`` and ``q`` is not the zero polynomial (non-zero at one exact point): then ``expr`` is the zero
    rational function. False if that is not shown (``expr`` may still be zero: the field arithmetic decides).

    A zero is found here without the gcds that the field takes at every step: with 14 symbols (chapter 3's
    Gaussian conditioning, entries of Sigma^{-1} from a block factorisation) the field's gcds ran for more
    than 5 s where this takes 0.1 s (it is how ``cancel`` starts). Tried only where the expanded numerator
    has at most :data:`MAX_NUMERATOR_TERMS` terms (a bound read off its tree, before expanding): without
    gcds, nested fractions over common sums multiply out (chapter 3's conditional-independence identity:
    a bound of 5e8 terms, 1.5 s an entry to expand, where the field takes 0.1 s)."""
    numerator, denominator = expr.as_numer_denom()
    if _terms_bound(numerator) > MAX_NUMERATOR_TERMS or ring.from_expr(numerator):
        return False
    point = {atom: sp.Rational(2 * k + 3, 2 * k + 5) for k, atom in enumerate(ring.symbols)}
    return denominator.xreplace(point) != 0


# ---------------------------------------------------------------------------------------------
# random points
# ---------------------------------------------------------------------------------------------

#: Decimal exponents of the magnitudes of random points: log-uniform from 1e-6 to 1e6, so a claim
#: that is only true on a bounded region (``min(x, 4) = x``) meets a point outside it.
MAGNITUDES = (-6, 6)


def _sign_choices(sym):
    """The signs a random value of ``sym`` may take, from its assumptions."""
    if sym.is_positive or sym.is_nonnegative:
        return (1,)
    if sym.is_negative or sym.is_nonpositive:
        return (-1,)
    return (1, -1)


def _exact_value(sym, exponent, sign, rng):
    """An exact value of ``sym`` of magnitude about ``10**exponent``: an integer for integer symbols
    (at least 1 in magnitude, even or odd as assumed), else three significant decimal digits."""
    if sym.is_integer:
        value = max(1, int(round(10 ** max(exponent, 0) * rng.uniform(1, 10) / 10)))
        if sym.is_even and value % 2:
            value += 1
        if sym.is_odd and value % 2 == 0:
            value += 1
        return sp.Integer(sign * value)
    mantissa = int(rng.integers(100, 1000))
    power = int(np.floor(exponent)) - 2
    return sign * sp.Integer(mantissa) * sp.Rational(10) ** power


#: Expressions whose cost grows with the value of an integer (a product or sum with a symbolic
#: bound, a factorial, a binomial): their integer symbols are sampled up to :data:`INTEGER_CAP`.
_INTEGER_COSTLY = (sp.Product, sp.Sum, sp.factorial, sp.factorial2, sp.RisingFactorial, sp.FallingFactorial,
                   sp.binomial, sp.subfactorial)
INTEGER_CAP = 40
#: Seconds allowed for evaluating a claim at one point (a point that takes longer is skipped).
POINT_SECONDS = 5.0
#: Seconds allowed for simplify on an expression with an infinite product or sum sympy did not evaluate.
INFINITE_SIMPLIFY_SECONDS = 2.0


def _integer_cap(*exprs):
    """:data:`INTEGER_CAP` if an expression's cost grows with its integers, else None."""
    return INTEGER_CAP if any(isinstance(e, (sp.Basic, sp.MatrixBase)) and e.has(*_INTEGER_COSTLY)
                              for e in exprs) else None


def _infinite_nodes(e):
    """The products and sums of ``e`` with an infinite bound."""
    if not isinstance(e, (sp.Basic, sp.MatrixBase)) or not e.has(sp.Product, sp.Sum):
        return []
    return [node for node in e.atoms(sp.Product, sp.Sum)
            if any(bound.has(sp.oo, -sp.oo) for limit in node.limits for bound in limit[1:])]


def _numeric_infinite(e, digits):
    """``e`` with every infinite product and sum without free symbols replaced by its value from
    mpmath's ``nprod``/``nsum`` (series acceleration): sympy's evalf of an infinite product expands
    it term by term and takes seconds to minutes."""
    import mpmath

    replacements = {}
    for node in _infinite_nodes(e):
        if node.free_symbols or len(node.limits) != 1:
            continue
        var, low, high = node.limits[0]
        term = sp.lambdify(var, node.function, "mpmath")
        with mpmath.workdps(digits):
            bounds = [mpmath.mpf(-mpmath.inf) if low == -sp.oo else int(low),
                      mpmath.inf if high == sp.oo else int(high)]
            value = (mpmath.nprod if isinstance(node, sp.Product) else mpmath.nsum)(term, bounds)
        replacements[node] = sp.Float(value, digits)
    return e.xreplace(replacements) if replacements else e


def _random_points(rng, symbols, count, integer_cap=None):
    """``count`` random exact points for ``symbols`` (a list of dicts symbol -> value) that respect
    the symbols' assumptions (positive, nonnegative, negative, nonpositive, integer, even, odd).

    The first third (at least one) lie in the moderate range (-4, 4), where most interesting
    behaviour of textbook formulas is; the others have magnitudes stratified log-uniformly across
    :data:`MAGNITUDES` (each symbol with its own permutation of the strata, neighbouring strata
    with opposite signs where the assumptions allow both); the moderate points have each sign
    equally often, in an order of each symbol's own. So a claim that holds only on a bounded
    region or for one sign is met outside it. With ``integer_cap``, integer symbols have
    magnitudes log-uniform from 1 to ``integer_cap`` instead (a product up to ``T = 10**6`` would
    take minutes to evaluate).
    """
    symbols = sorted(symbols, key=str)
    if count <= 0:
        return []
    moderate = max(1, count // 3) if count > 1 else count
    spread = count - moderate
    low, high = MAGNITUDES
    per_symbol = {}
    for sym in symbols:
        choices = _sign_choices(sym)
        # each sign equally often, in an order of the symbol's own: two symbols get opposite signs
        # at about half the points
        signs = [choices[k % len(choices)] for k in rng.permutation(count)]
        strata = rng.permutation(spread)
        values = []
        for k in range(moderate):
            sign = signs[k]
            if sym.is_integer:
                lo = 1 if (sym.is_positive or sym.is_negative) else 0
                magnitude = int(rng.integers(lo, 6))
                if sym.is_even and magnitude % 2:
                    magnitude += 1
                if sym.is_odd and magnitude % 2 == 0:
                    magnitude += 1
                values.append(sp.Integer(sign * magnitude))
            else:
                values.append(sign * sp.Rational(int(rng.integers(1, 400)), 100))
        offset = int(rng.integers(len(choices)))
        for k in range(spread):
            exponent = low + (high - low) * (strata[k] + rng.random()) / spread
            # neighbouring strata have opposite signs: the two largest magnitudes have both signs
            sign = choices[(strata[k] + offset) % len(choices)]
            if sym.is_integer and integer_cap:
                value = max(1, int(round(integer_cap ** ((exponent - low) / (high - low)))))
                if (sym.is_even and value % 2) or (sym.is_odd and value % 2 == 0):
                    value += 1
                values.append(sp.Integer(sign * value))
            else:
                values.append(_exact_value(sym, exponent, sign, rng))
        per_symbol[sym] = values
    return [{sym: per_symbol[sym][k] for sym in symbols} for k in range(count)]


def explicit_matrix(name, rows, cols, *, symmetric=False):
    """An explicit ``rows x cols`` sympy Matrix of real symbols ``name_ij`` (symmetric if asked)."""
    def entry(i, j):
        if symmetric and j < i:
            i, j = j, i
        return sp.Symbol(f"{name}_{i}{j}", real=True)

    return sp.Matrix(rows, cols, lambda i, j: entry(i, j))


def _random_matrix(rng, rows, cols, *, symmetric=False):
    """A random integer matrix; square ones are diagonally dominant so that they are invertible
    with positive determinant, and they are not symmetric unless asked."""
    M = sp.Matrix(rows, cols, lambda i, j: int(rng.integers(-3, 4)))
    if symmetric:
        M = (M + M.T) / 2
    if rows == cols:
        M = M + 4 * rows * sp.eye(rows)
    return M


def _shape_symbols(expr):
    """Symbols that occur in the shapes of the matrix symbols of ``expr`` (e.g. ``n``)."""
    out = set()
    for M in expr.atoms(sp.MatrixSymbol):
        for s in M.shape:
            out |= set(sp.sympify(s).free_symbols)
    return out


def _concrete(expr, sizes):
    """Replace shape symbols by the integers in ``sizes`` (dict symbol -> int)."""
    return expr.xreplace(sizes) if sizes else expr


def _latex_value(v):
    return sp.latex(v) if isinstance(v, (sp.Basic, sp.MatrixBase)) else str(v)


def _round(v, digits=6):
    """A short, deterministic rendering of a numeric value."""
    if isinstance(v, sp.MatrixBase):
        return v.applyfunc(lambda e: _round(e, digits))
    v = sp.sympify(v)
    if v.is_Rational:
        return v
    if v.is_extended_real is False:       # a complex value (e.g. log of a negative number)
        return sp.N(v, digits)
    return sp.Float(sp.N(v, digits), digits)


# ---------------------------------------------------------------------------------------------
# equal
# ---------------------------------------------------------------------------------------------

def _is_matexpr(e):
    return isinstance(e, MatrixExpr) and not isinstance(e, sp.MatrixBase)


def _has_matrix_symbol(e):
    return isinstance(e, sp.Basic) and not isinstance(e, sp.MatrixBase) and e.has(sp.MatrixSymbol)


def _shapes_equal(a, b):
    return all(sp.simplify(sp.sympify(x) - sp.sympify(y)) == 0 for x, y in zip(a, b))


def equal(lhs, rhs, *, symmetric=(), witnesses=(), points=8, digits=30, seed=0, timeout=20,
          sizes=(2,), latex=None, names=None) -> Verdict:
    r"""Decide ``lhs == rhs``.

    Parameters
    ----------
    lhs, rhs : sympy expression, sympy Matrix, or matrix expression (``MatrixSymbol`` algebra)
    symmetric : iterable of MatrixSymbol, optional
        Matrix symbols assumed symmetric (``A.T`` is replaced by ``A``, and explicit/random
        stand-ins are symmetric). Without it, matrices are general.
    witnesses : iterable of dict, optional
        Extra points (symbol or MatrixSymbol -> value) at which the claim is also evaluated;
        use them to show a known counterexample.
    points : int
        Number of random points, tried before simplify (a false claim fails fast) and as the
        numeric fallback: a third in (-4, 4), the rest with magnitudes from 1e-6 to 1e6.
    digits : int
        Working precision of the numeric fallback.
    seed : int
        Seed of the random points (deterministic).
    timeout : float
        Seconds allowed for ``simplify`` before falling back to evaluation.
    sizes : tuple of int
        For matrix expressions with symbolic sizes (or that do not reduce to ``ZeroMatrix``):
        the sizes at which explicit matrices with symbolic entries are compared.
    latex : str, optional
        How to display the claim (default ``latex(lhs) = latex(rhs)``).
    names : dict of str to sympy expression, optional
        What the display's own names stand for, e.g. ``{"p_L": N_L / N}``: each name, typed as in ``latex``,
        is read as its expression when the display is compared with the checked sides (so a display in the
        text's notation is compared, not only one in the checked symbols); see
        :func:`~mlnotes.symbolic._display.compare_display`.

    Returns
    -------
    Verdict
    """
    start = time.perf_counter()
    lhs, rhs = _sympify(lhs), _sympify(rhs)
    _check_matrix_derivatives(lhs, rhs)
    trivial = _identical_as_built(lhs, rhs)
    shown_lhs, shown_rhs = lhs, rhs
    lhs, rhs = _doit(lhs), _doit(rhs)
    rng = np.random.default_rng(seed)
    symmetric = tuple(symmetric)
    if _is_matexpr(lhs) or _is_matexpr(rhs) or _has_matrix_symbol(lhs) or _has_matrix_symbol(rhs):
        verdict = _equal_matexpr(lhs, rhs, symmetric, witnesses, rng, timeout, sizes)
    elif isinstance(lhs, sp.MatrixBase) or isinstance(rhs, sp.MatrixBase):
        verdict = _equal_matrix(sp.Matrix(lhs), sp.Matrix(rhs), witnesses, rng, points, digits, timeout)
    else:
        verdict = _equal_scalar(lhs, rhs, witnesses, rng, points, digits, timeout)
    holds_, method, detail, counterexample = verdict
    return _finish(holds_, method, detail, counterexample, start, lhs=shown_lhs, op="=", rhs=shown_rhs,
                   latex=latex, trivial=trivial, evaluated=(lhs, rhs), names=names)


# ---------------------------------------------------------------------------------------------
# what every decider on sympy objects shares: inputs, trivial checks, the checked form, the kind
# ---------------------------------------------------------------------------------------------

#: Unevaluated operations that a check evaluates itself (pass ``sp.Derivative(f, x)`` rather than
#: ``sp.diff(f, x)`` to make the differentiation part of the check).
_UNEVALUATED = (sp.Derivative, sp.Integral, sp.Sum, sp.Product, sp.Limit)

#: LaTeX of the relations, for the checked form.
_OP_LATEX = {"=": "=", "==": "=", ">=": "\\ge", ">": ">", "<=": "\\le", "<": "<", "!=": "\\ne",
             "not-equiv": "\\not\\equiv"}

#: Longest checked form shown in full (longer ones are summarised).
MAX_CHECKED_LATEX = 4000

#: A checked form with more characters of LaTeX than this is shown in the details as sympy's text of the
#: checked objects (a code block a reader can paste into sympy) instead of typeset: typeset, such a machine
#: form runs over several lines and is no easier to read, and these forms were most of a chapter page
#: (chapter 3: 115,680 of its 162,005 elements were typeset formulas inside the details; with its 53 forms
#: over this length shown as text the page has 93,817, measured in Chromium).
TYPESET_CHECKED_CHARS = 300

#: Longest checked text shown in full (longer ones are summarised, as the LaTeX is).
MAX_CHECKED_TEXT = 20_000

#: The relations in sympy's text of a checked form (``==`` as sympy writes an equation's test).
_OP_TEXT = {"=": "==", "not-equiv": "!= (not identically)"}


def _sympify(e):
    """A side of a claim as a sympy object (python and numpy numbers included)."""
    if isinstance(e, (sp.Basic, sp.MatrixBase)):
        return e
    if isinstance(e, np.ndarray):
        return sp.Matrix(e) if e.ndim <= 2 else sp.sympify(e)
    if isinstance(e, (list, tuple)) and e and isinstance(e[0], (list, tuple)):
        return sp.Matrix(e)
    return sp.sympify(e)


def _doit(e):
    if not (isinstance(e, (sp.Basic, sp.MatrixBase)) and e.has(*_UNEVALUATED)):
        return e
    if isinstance(e, sp.Basic):
        # a derivative of a matrix expression: expr.diff works where Derivative.doit() raises
        # ("noncommutative scalars in MatMul") or takes the matrix for a scalar
        derivatives = [d for d in e.atoms(sp.Derivative) if _is_matrix_valued(d.expr)]
        if derivatives:
            def differentiate(d):
                value = d.expr
                for var, count in d.variable_count:
                    value = value.diff(*([var] * int(count)))
                return value
            if e in derivatives:
                return _doit(differentiate(e))
            e = e.xreplace({d: differentiate(d) for d in derivatives})
    if isinstance(e, sp.MatrixBase):
        return e.applyfunc(_doit_scalar)      # as Matrix.doit: each entry's doit
    if isinstance(e, sp.Expr) and not _is_matrix_valued(e):
        return _doit_scalar(e)
    return e.doit()


#: Longest finite sum that :func:`_expand_finite_sums` writes out term by term (sympy's ``eval_sum``
#: also sums fewer than 100 terms directly).
MAX_DIRECT_TERMS = 100

#: The values of the integrals evaluated in this run, by integral (emptied by ``reset()``, which
#: each chapter's first cell calls): a chapter that checks one integral in several claims integrates
#: it once (chapter 3's Gaussian integral over R^2: in one claim, then in both sides of an erratum,
#: 2.1 s CPU each time). Integration is a pure function of the ``Integral`` object; no verdict is kept.
_integral_values: dict = {}


def forget_integrals() -> None:
    """Empty :data:`_integral_values` (``reset()`` calls it: the values are kept within one execution only)."""
    _integral_values.clear()


def _doit_scalar(e):
    """``e.doit()`` for a scalar expression, with its finite sums written out term by term
    (:func:`_expand_finite_sums`) and each integral that only sums, products and powers enclose
    evaluated once per run (:data:`_integral_values`); the same value as ``e.doit()``, without
    sympy's per-sum machinery: chapter 3's marginalisation claims evaluate some 600 sums of two
    terms each, 1 to 8 ms apiece through ``Sum.doit`` (dummy substitution, ``apart``, ``subs``)."""
    if not (isinstance(e, sp.Basic) and e.has(*_UNEVALUATED)):
        return e
    if e.has(sp.Sum):
        e = _expand_finite_sums(e)
    return _doit_with_integrals(e)


def _doit_with_integrals(e):
    """``e.doit()``, where an integral reached through sums, products and powers only is taken from
    :data:`_integral_values` (evaluated by its own ``doit()`` the first time). ``Add``/``Mul``/``Pow``
    evaluate like their ``doit``: every argument's ``doit``, then the node is built again."""
    if isinstance(e, sp.Integral):
        if e not in _integral_values:
            _integral_values[e] = e.doit()
        return _integral_values[e]
    if isinstance(e, (sp.Add, sp.Mul, sp.Pow)) and e.has(sp.Integral):
        return e.func(*[_doit_with_integrals(a) for a in e.args])
    return e.doit()


def _expand_finite_sums(e):
    """``e`` with every sum over integer bounds ``a <= b`` (fewer than :data:`MAX_DIRECT_TERMS` terms per
    bound, scalar summand) written out as the sum of its terms: by definition of a finite sum the same value
    that ``Sum.doit`` computes (``eval_sum_direct``). Inner sums first; a sum whose bounds are not integers,
    or whose variable is bound again inside its summand (an inner sum or integral over the same symbol), is
    left to ``doit``."""
    import itertools

    def finite(node):
        if not isinstance(node, sp.Sum) or not isinstance(node.function, sp.Expr) or node.function.is_Matrix:
            return False
        for _, low, high in node.limits:
            if not (low.is_Integer and high.is_Integer and low <= high and high - low < MAX_DIRECT_TERMS):
                return False
        variables = set(node.variables)
        return len(variables) == len(node.limits) and not any(
            variables & set(getattr(inner, "bound_symbols", ()) or ())
            for inner in sp.preorder_traversal(node.function))

    def written_out(node):
        ranges = [range(int(low), int(high) + 1) for _, low, high in node.limits]
        return sp.Add(*[node.function.xreplace(dict(zip(node.variables, map(sp.Integer, values))))
                        for values in itertools.product(*ranges)])

    return e.replace(finite, written_out)


def _is_matrix_valued(e):
    return isinstance(e, (sp.MatrixBase, MatrixExpr)) or (isinstance(e, sp.Basic) and e.has(sp.MatrixSymbol))


def _check_matrix_derivatives(*sides):
    """Raise a clear TypeError where sympy took a derivative of a matrix for a scalar: a
    ``Derivative`` of a matrix inside an explicit matrix (``M * sp.Derivative(v, t)`` multiplies
    every entry of ``M`` by it, the wrong shape)."""
    for side in sides:
        if isinstance(side, sp.MatrixBase):
            for entry in side:
                if any(_is_matrix_valued(d.expr) for d in entry.atoms(sp.Derivative)):
                    raise TypeError("a Derivative of a matrix inside a matrix product: sympy treats "
                                    "sp.Derivative(v, t) as a scalar, so M * sp.Derivative(v, t) has the shape of M; "
                                    "write sp.Derivative(M * v, t) or M * v.diff(t)")


def _identical_as_built(lhs, rhs):
    """True if the two sides are already the same object when the check is built (sympy evaluated
    the claim away at construction): such a check cannot fail."""
    try:
        if lhs == rhs:
            return True
        if isinstance(lhs, sp.MatrixBase) and isinstance(rhs, sp.MatrixBase):
            return lhs.shape == rhs.shape and all(e == 0 for e in (lhs - rhs))
        if _is_matexpr(lhs) or _is_matexpr(rhs):
            return bool(getattr(lhs - rhs, "is_ZeroMatrix", False))
        return isinstance(lhs, sp.Expr) and isinstance(rhs, sp.Expr) and (lhs - rhs) == 0
    except (TypeError, ValueError, sp.ShapeError, NotImplementedError):
        return False


def checked_latex(lhs, op, rhs) -> str:
    """The checked statement ``lhs op rhs`` rendered by sympy's printer."""
    return _checked_forms(lhs, op, rhs)[0]


def checked_text(lhs, op, rhs) -> str:
    """The checked statement ``lhs op rhs`` as sympy's text (``str`` of each side): what a reader can
    paste into sympy."""
    return f"{sp.sstr(lhs)} {_OP_TEXT.get(op, op)} {sp.sstr(rhs)}"


def _checked_forms(lhs, op, rhs) -> tuple[str, str]:
    """(LaTeX, text) of the checked statement: the LaTeX (summarised beyond :data:`MAX_CHECKED_LATEX`
    characters), and sympy's text when the LaTeX is longer than :data:`TYPESET_CHECKED_CHARS` (else "")."""
    latex = f"{sp.latex(lhs)} {_OP_LATEX.get(op, op)} {sp.latex(rhs)}"
    text = checked_text(lhs, op, rhs) if len(latex) > TYPESET_CHECKED_CHARS else ""
    if len(latex) > MAX_CHECKED_LATEX:
        latex = (f"\\begin{{gathered}}\\text{{(the checked expressions are too long to show:}} \\\\ "
                 f"\\text{{{len(latex)} characters of LaTeX; lhs has {sp.count_ops(lhs)} operations)}}\\end{{gathered}}")
    return latex, text


def _finish(holds_, method, detail, counterexample, start, *, lhs, op, rhs, latex, trivial, inputs=None,
            evaluated=None, names=None):
    """The verdict of a decider on sympy objects: its honest kind, its checked form, the typed
    display compared with the checked objects (a display that disagrees makes the statement fail)
    and the trivial flag."""
    from ._display import compare_display

    kind = _kind_of(method, holds_, counterexample, inputs if inputs is not None else (lhs, rhs))
    checked, text = _checked_forms(lhs, op, rhs)
    display_check, names_shown = "rendered", ""
    if latex is not None:
        value_lhs, value_rhs = evaluated if evaluated is not None else (lhs, rhs)
        display_check, message = compare_display(latex, value_lhs, op, value_rhs, names=names)
        if display_check == "disagrees":
            detail = f"the display disagrees with what was checked: {message}; the check itself: {detail}"
            holds_ = False
        if names and display_check in ("compared", "disagrees"):
            names_shown = ("\\begin{gathered}" + " \\\\ ".join(
                f"{name} = {sp.latex(sp.sympify(value))}" for name, value in sorted(names.items(), key=str))
                + "\\end{gathered}")
    if trivial and holds_:
        kind = TRIVIAL
        detail = f"trivial: the two sides are identical as built, so this check cannot fail ({detail})"
    return Verdict(latex if latex is not None else checked, holds_, method, detail, counterexample,
                   time.perf_counter() - start, kind=kind, checked=checked, display=latex,
                   display_check=display_check, trivial=trivial, names=names_shown, checked_text=text)


#: Largest |argument| of ``exp`` evaluated at a random point: sympy computes ``exp(a)`` with about
#: ``|a|`` bits of ``e``, which takes minutes for ``|a| ~ 1e9`` (products of large symbols).
MAX_EXP_ARGUMENT = 1e4


def _too_costly(value) -> bool:
    """True if evaluating ``value`` (an expression at a point) would compute ``exp`` of a huge
    argument; such points are skipped (no evidence either way)."""
    for node in value.atoms(sp.exp) if isinstance(value, (sp.Basic, sp.MatrixBase)) else ():
        try:
            size = abs(complex(node.args[0].evalf(15)))
        except (TypeError, ValueError, OverflowError):
            return True
        if not size <= MAX_EXP_ARGUMENT:      # also NaN and inf
            return True
    return False


class _Unreliable(Exception):
    """A value could not be computed to the working precision (catastrophic cancellation)."""


def _reliable_number(value, digits):
    """``value`` (a number expression) to ``digits`` digits, or :class:`_Unreliable` where sympy cannot
    attain them: at large magnitudes, ``1 - 1/(1 + exp(-60300))`` cancels to noise, and a silently
    wrong value must not become a counterexample. Values sympy cannot certify (e.g. exactly 0) are
    accepted when a three times more precise evaluation agrees."""
    from sympy.core.evalf import PrecisionExhausted

    try:
        return sp.N(value, digits, strict=True)
    except PrecisionExhausted:
        low, high = sp.N(value, digits), sp.N(value, 3 * digits, maxn=max(1000, 10 * digits))
        if not (low.is_number and high.is_number) or abs(low - high) > sp.Float(10) ** (8 - digits) * max(1, abs(high)):
            raise _Unreliable() from None
        return high


def _confirmed_difference(lhs, rhs, point, digits):
    """Whether ``lhs != rhs`` at ``point``, each side evaluated reliably: True, False, or None where
    a side cannot be evaluated reliably there."""
    def value(e):
        v = sp.sympify(e).xreplace(point).doit()
        if isinstance(v, sp.MatrixBase):
            return [_reliable_number(_numeric_infinite(x, digits), digits) for x in v]
        return [_reliable_number(_numeric_infinite(v, digits), digits)]
    try:
        a, b = value(lhs), value(rhs)
    except (_Unreliable, ZeroDivisionError, ValueError, TypeError):
        return None
    if len(a) != len(b) or any(not (x.is_number and y.is_number) for x, y in zip(a, b)):
        return None
    tol = sp.Float(10) ** (8 - digits)
    scale = max([sp.Float(1)] + [abs(x) for x in a + b])
    return any(abs(x - y) > tol * scale for x, y in zip(a, b))


#: Largest integer at which a factorial-like function (:data:`_EXACT_AT_INTEGERS`) is evaluated at a random
#: point: sympy evaluates these exactly at an integer - ``gamma(n)`` is ``(n - 1)!``, a number of about
#: ``n log10(n)`` digits, 1.9 s CPU at ``n = 349001`` (a symbol without the integer assumption takes integer
#: values at points of magnitude 100 and more: three significant digits times a power of ten).
MAX_EXACT_INTEGER = 10**4
_EXACT_AT_INTEGERS = (sp.gamma, sp.loggamma, sp.factorial, sp.factorial2, sp.subfactorial, sp.binomial,
                      sp.RisingFactorial, sp.FallingFactorial, sp.harmonic, sp.polygamma)


def _exact_too_costly(e, point) -> bool:
    """True if evaluating ``e`` at ``point`` would compute a factorial-like function exactly at an integer
    beyond :data:`MAX_EXACT_INTEGER`; such points are skipped (no evidence either way), as for ``exp`` of a
    huge argument (:func:`_too_costly`)."""
    for node in e.atoms(*_EXACT_AT_INTEGERS):
        for arg in node.args:
            value = sp.sympify(arg.xreplace(point))
            if value.is_Integer and abs(value) > MAX_EXACT_INTEGER:
                return True
    return False


def _values_at(e, point, digits):
    """The exact value of ``e`` at ``point`` and its entries to ``digits`` digits (a list: one entry
    for a scalar), or None where evaluating would compute ``exp`` of a huge argument, or a factorial-like
    function at a huge integer (then the exact value is None too)."""
    e = sp.sympify(e)
    if _exact_too_costly(e, point):
        return None, None
    exact = e.xreplace(point).doit()
    if _too_costly(exact):
        return exact, None
    entries = list(exact) if isinstance(exact, sp.MatrixBase) else [exact]
    return exact, [sp.N(_numeric_infinite(x, digits), digits) for x in entries]


def _check_points(lhs, rhs, free, witnesses, rng, points, digits):
    """Evaluate at the witnesses and at random points; return (holds, counterexample, evaluated),
    where ``evaluated`` counts the points at which both sides could be evaluated (not those where
    they are undefined, or where the expression cannot take numbers, such as a derivative of an
    undefined function). Each side is evaluated once per point; a difference is confirmed with
    certified precision before it becomes a counterexample."""
    tol = sp.Float(10) ** (-(digits - 8))
    candidates = [(True, {k: sp.sympify(v) for k, v in dict(w).items()}) for w in witnesses]
    candidates += [(False, point) for point in _random_points(rng, free, points, integer_cap=_integer_cap(lhs, rhs))]
    evaluated = 0
    for is_witness, point in candidates:
        try:
            with _time_limit(POINT_SECONDS):
                lhs_exact, lv = _values_at(lhs, point, digits)
                rhs_exact, rv = _values_at(rhs, point, digits)
        except (ZeroDivisionError, ValueError, TypeError, _Timeout):
            continue
        if lv is None or rv is None or len(lv) != len(rv):
            continue
        if not all(v.is_number for v in lv + rv) or any(v.has(sp.nan) for v in lv + rv):
            continue            # undefined there, or not a number (a derivative of an undefined function)
        infinite = [v for v in lv + rv if v.has(sp.oo, -sp.oo, sp.zoo)]
        if infinite:
            if len(lv) != 1:
                continue
            (a,), (b,) = lv, rv
            if a.has(sp.zoo) or b.has(sp.zoo):
                continue            # complex infinity (e.g. a factorial at a negative integer): undefined there
            evaluated += 1
            if a == b and a in (sp.oo, -sp.oo):
                continue
            differ = True
        else:
            scale = max([sp.Float(1)] + [abs(v) for v in lv + rv])
            differ = any(abs(x - y) > tol * scale for x, y in zip(lv, rv))
            if differ:
                # a difference is confirmed with each side evaluated to certified precision
                try:
                    with _time_limit(POINT_SECONDS):
                        confirmed = _confirmed_difference(lhs, rhs, point, digits)
                except _Timeout:
                    confirmed = None
                if confirmed is None:
                    continue                    # not reliably evaluable here: no evidence either way
                differ = confirmed
            evaluated += 1
        if differ:
            cex = {sp.latex(k): _latex_value(_round(v)) for k, v in point.items()}
            cex["\\text{lhs}"] = _latex_value(_round(lhs_exact))
            cex["\\text{rhs}"] = _latex_value(_round(rhs_exact))
            if is_witness:
                cex["\\text{witness}"] = True
            return False, cex, evaluated
    return True, None, evaluated


#: The verdict when simplify cannot decide and no point could be evaluated: no evidence, no claim.
_NO_EVIDENCE = (False, "undecided", "simplify could not decide, and no point could be evaluated", None)


def _equal_scalar(lhs, rhs, witnesses, rng, points, digits, timeout):
    if lhs == rhs and lhs.has(sp.oo, -sp.oo, sp.zoo) and not witnesses:   # oo - oo is nan: compare directly
        return True, "symbolic", "the two sides are the same infinite value", None
    free = (lhs.free_symbols | rhs.free_symbols)
    if not witnesses and _quickly_zero(lhs, rhs):
        return True, "symbolic", "simplify(lhs - rhs) = 0", None
    # a false claim fails fast: look for a counterexample before trying to simplify
    ok, cex, evaluated = _check_points(lhs, rhs, free, witnesses, rng, points, digits)
    if not ok:
        if cex.pop("\\text{witness}", False):
            return False, "numeric", f"lhs != rhs at a given witness point ({digits} digits)", cex
        if not free:
            return False, "numeric", f"lhs != rhs: the two sides are different numbers ({digits} digits)", cex
        return False, "numeric", f"lhs != rhs at a random point ({digits} digits)", cex
    if _simplify_is_zero(lhs - rhs, timeout):
        return True, "symbolic", "simplify(lhs - rhs) = 0", None
    if not evaluated:
        return _NO_EVIDENCE
    return True, "numeric", (f"agree at {evaluated} random points (magnitudes 1e-6 to 1e6) to {digits - 8} digits "
                             "(simplify undecided)"), None


def _equal_matrix(lhs, rhs, witnesses, rng, points, digits, timeout):
    if lhs.shape != rhs.shape:
        return False, "symbolic", f"shapes differ: {lhs.shape} vs {rhs.shape}", None
    free = lhs.free_symbols | rhs.free_symbols
    if not witnesses and _quickly_zero(lhs, rhs):
        return True, "symbolic", "simplify(lhs - rhs) = 0 entrywise", None
    ok, cex, evaluated = _check_points(lhs, rhs, free, witnesses, rng, points, digits)
    if not ok:
        where = "a given witness point" if cex.pop("\\text{witness}", False) else "a random point"
        return False, "numeric", f"lhs != rhs at {where} ({digits} digits)", cex
    if all(_simplify_is_zero(e, timeout) for e in lhs - rhs):
        return True, "symbolic", "simplify(lhs - rhs) = 0 entrywise", None
    if not evaluated:
        return _NO_EVIDENCE
    return True, "numeric", (f"agree entrywise at {evaluated} random points (magnitudes 1e-6 to 1e6) to "
                             f"{digits - 8} digits (simplify undecided)"), None


def _explicit(expr, sub):
    """Evaluate a matrix expression with the explicit matrices ``sub`` (MatrixSymbol -> Matrix).

    Walks the expression tree with explicit sympy matrices, with sympy's intermediate
    simplification of matrix products (``dotprodsimp``) switched off: much faster than
    ``expr.xreplace(sub).doit()``. Inverses use the adjugate. Zero-testing is left to the caller.
    """
    from sympy.matrices.utilities import dotprodsimp

    with dotprodsimp(False):
        return _evaluate(expr, sub)


def _evaluate(expr, sub):
    from sympy.matrices.expressions import (Determinant, Identity, Inverse, MatAdd, MatMul, MatPow,
                                            MatrixSlice, Trace, Transpose, ZeroMatrix)
    from sympy.matrices.expressions.matexpr import MatrixElement

    if isinstance(expr, sp.MatrixSymbol):
        return sub[expr]
    if isinstance(expr, sp.MatrixBase):
        return sp.Matrix(expr)
    if isinstance(expr, Identity):
        return sp.eye(int(expr.shape[0]))
    if isinstance(expr, ZeroMatrix):
        return sp.zeros(*map(int, expr.shape))
    if isinstance(expr, MatMul):
        result = sp.Integer(1)
        for arg in expr.args:
            result = result * _evaluate(arg, sub)
        return result
    if isinstance(expr, MatAdd):
        terms = [_evaluate(arg, sub) for arg in expr.args]
        total = terms[0]
        for term in terms[1:]:
            total = total + term
        return total
    if isinstance(expr, Transpose):
        return _evaluate(expr.arg, sub).T
    if isinstance(expr, Inverse):
        M = _evaluate(expr.arg, sub)
        return M.adjugate() / M.det()
    if isinstance(expr, MatPow):
        return _evaluate(expr.base, sub) ** expr.exp
    if isinstance(expr, Trace):
        return _evaluate(expr.arg, sub).trace()
    if isinstance(expr, Determinant):
        return _evaluate(expr.arg, sub).det()
    if isinstance(expr, MatrixElement):
        return _evaluate(expr.parent, sub)[int(expr.i), int(expr.j)]
    if isinstance(expr, MatrixSlice):
        M = _evaluate(expr.parent, sub)
        rows, cols = (slice(*map(int, s_)) for s_ in (expr.rowslice, expr.colslice))
        return M[rows, cols]
    if isinstance(expr, sp.Basic) and expr.args and expr.has(sp.MatrixSymbol):
        return expr.func(*[_evaluate(arg, sub) for arg in expr.args])
    if isinstance(expr, sp.Basic) and expr.has(sp.MatrixSymbol):  # pragma: no cover - unknown node
        return expr.xreplace(sub).doit()
    return expr


def _domain_zero(expr, sub):
    """Whether the matrix expression ``expr`` vanishes at the explicit matrices ``sub``, decided
    exactly with sympy's ``DomainMatrix`` over the rational functions in the entries' and the
    claim's scalar symbols (no intermediate sympy expressions): True, False, or None where that
    does not decide (a float, a function of a symbol, a singular inverse, an unsupported node):
    then the caller evaluates with :func:`_explicit` as before.

    ``expr`` is a rational function of independent symbols entrywise, so a non-zero entry in that
    field is a non-zero value (False), and a zero matrix there is lhs - rhs = 0 (True)."""
    from sympy.polys.domains import QQ
    from sympy.polys.matrices import DomainMatrix

    values = [expr] + [sp.Matrix(v) for v in sub.values()]
    if any(v.has(*_NOT_RATIONAL) for v in values):
        return None
    symbols = set()
    for v in values:
        symbols |= {s for s in v.free_symbols if not isinstance(s, sp.MatrixSymbol)}
    if any(not s.is_Symbol for s in symbols):
        return None
    try:
        K = QQ.frac_field(*sorted(symbols, key=str)) if symbols else QQ
        result = _domain_evaluate(expr, {M: DomainMatrix.from_list_sympy(*M.shape, sp.Matrix(v).tolist())
                                         .convert_to(K) for M, v in sub.items()}, K)
    except Exception:   # noqa: BLE001 - any failure (a singular inverse, an unsupported node): not decided here
        return None
    if isinstance(result, DomainMatrix):
        return result.is_zero_matrix
    return None


def _domain_evaluate(expr, sub, K):
    """The value of the matrix (or scalar) expression ``expr`` as a ``DomainMatrix`` (or an element)
    over ``K``, with the ``DomainMatrix`` values ``sub`` of its matrix symbols; raises where a
    node is not supported (the caller then does not decide)."""
    from sympy.matrices.expressions import (Determinant, Identity, Inverse, MatAdd, MatMul, MatPow, Trace,
                                            Transpose, ZeroMatrix)
    from sympy.matrices.expressions.matexpr import MatrixElement
    from sympy.polys.matrices import DomainMatrix

    if isinstance(expr, sp.MatrixSymbol):
        return sub[expr]
    if isinstance(expr, Identity):
        return DomainMatrix.eye(int(expr.shape[0]), K)
    if isinstance(expr, ZeroMatrix):
        return DomainMatrix.zeros(tuple(map(int, expr.shape)), K)
    if isinstance(expr, (MatMul, MatAdd)) or (isinstance(expr, (sp.Mul, sp.Add)) and expr.has(sp.MatrixSymbol)):
        values = [_domain_evaluate(arg, sub, K) for arg in expr.args]
        total = values[0]
        for value in values[1:]:
            if isinstance(expr, (MatMul, sp.Mul)):
                total = _domain_product(total, value)
            else:
                total = total + value
        return total
    if isinstance(expr, Transpose):
        return _domain_evaluate(expr.arg, sub, K).transpose()
    if isinstance(expr, Inverse):
        return _domain_evaluate(expr.arg, sub, K).inv()
    if isinstance(expr, MatPow) and expr.exp.is_Integer:
        base = _domain_evaluate(expr.base, sub, K)
        return base.inv() ** int(-expr.exp) if expr.exp < 0 else base ** int(expr.exp)
    if isinstance(expr, MatrixElement):
        return _domain_evaluate(expr.parent, sub, K)[int(expr.i), int(expr.j)].element
    if isinstance(expr, Trace):
        return _domain_evaluate(expr.arg, sub, K).trace()
    if isinstance(expr, Determinant):
        return _domain_evaluate(expr.arg, sub, K).det()
    if isinstance(expr, sp.Pow) and expr.exp.is_Integer and expr.has(sp.MatrixSymbol):
        base = _domain_evaluate(expr.base, sub, K)
        if isinstance(base, DomainMatrix):
            raise TypeError("a power of a matrix as a scalar")
        return K.one / base ** int(-expr.exp) if expr.exp < 0 else base ** int(expr.exp)
    if isinstance(expr, sp.Expr) and not expr.has(sp.MatrixSymbol) and not isinstance(expr, MatrixExpr):
        return K.from_sympy(expr)
    raise TypeError(f"not evaluated over a domain: {type(expr).__name__}")


def _domain_product(a, b):
    """``a * b`` for DomainMatrix values and domain elements (scalars)."""
    from sympy.polys.matrices import DomainMatrix

    if isinstance(b, DomainMatrix) and not isinstance(a, DomainMatrix):
        return b.rmul(a) if hasattr(b, "rmul") else b * a
    return a * b


def _as_matrix(value):
    if isinstance(value, sp.MatrixBase):
        return sp.Matrix(value)
    if hasattr(value, "as_explicit"):
        return sp.Matrix(value.as_explicit())
    return sp.Matrix([value])


def _size_choices(shape_syms, bases):
    """Distinct sizes for distinct shape symbols (alphabetical), in both orders: for ``d, n`` and
    base 2, ``d=2, n=3`` and ``d=3, n=2``."""
    out = []
    for base in bases:
        out.append({sym: base + k for k, sym in enumerate(shape_syms)})
        if len(shape_syms) > 1:
            out.append({sym: base + len(shape_syms) - 1 - k for k, sym in enumerate(shape_syms)})
    return out


def _defined_value(concrete, sub):
    """The explicit value of ``concrete`` at ``sub``, or None where it is undefined (a singular
    inverse: division by zero, or nan/zoo entries)."""
    try:
        value = _as_matrix(_explicit(concrete, sub))
    except (ZeroDivisionError, ValueError):  # includes sympy's NonInvertible/NonSquareMatrixError
        return None
    if any(e.has(sp.nan, sp.zoo, sp.oo, -sp.oo) for e in value):
        return None
    return value


def _symmetrize(expr, symmetric):
    return expr.xreplace({A.T: A for A in symmetric}) if symmetric else expr


def _promote_scalar(e, other):
    """A scalar side of a matrix claim as a matrix: 0 is the zero matrix of the other side's shape,
    another scalar a 1x1 matrix (so that ``x^T x = s`` can be compared)."""
    if hasattr(e, "shape") or not hasattr(other, "shape"):
        return e
    if e == 0:
        return sp.ZeroMatrix(*other.shape)
    return e * sp.Identity(1)


def _equal_matexpr(lhs, rhs, symmetric, witnesses, rng, timeout, sizes):
    lhs, rhs = sp.sympify(lhs), sp.sympify(rhs)
    lhs, rhs = _promote_scalar(lhs, rhs), _promote_scalar(rhs, lhs)
    lshape, rshape = getattr(lhs, "shape", (1, 1)), getattr(rhs, "shape", (1, 1))
    if not _shapes_equal(lshape, rshape):
        return False, "symbolic", f"shapes differ: {lshape} vs {rshape}", None
    expr = _symmetrize(lhs - rhs, symmetric)
    # 1. a proof on matrix symbols: the difference reduces to ZeroMatrix
    try:
        with _time_limit(timeout):
            reduced = expr.doit().expand()
    except _Timeout:
        reduced = None
    if reduced is not None and (getattr(reduced, "is_ZeroMatrix", False) or reduced == 0):
        return True, "symbolic", "lhs - rhs reduces to the zero matrix", None
    shape_syms = sorted(_shape_symbols(expr), key=str)
    matrices = sorted(expr.atoms(sp.MatrixSymbol), key=lambda M: M.name)
    sym_names = {A.name for A in symmetric}
    # 2. a known counterexample, if the chapter gives one
    for w in witnesses:
        sub = {}
        sizes_w = {s: w[s] for s in shape_syms if s in w}
        for M in matrices:
            if M in w:
                sub[_concrete(M, sizes_w)] = sp.Matrix(w[M])
        value = _as_matrix(_explicit(_concrete(expr, sizes_w), sub))
        if any(_nonzero(e) for e in value):
            cex = {sp.latex(k): sp.latex(sp.Matrix(v)) for k, v in w.items() if isinstance(k, sp.MatrixSymbol)}
            return False, "exact", "fails at a given witness", cex
    # 3. explicit matrices at small sizes (see _size_choices): random integer matrices first, so
    #    that a false claim fails fast with a concrete counterexample; then, at the first size
    #    where lhs - rhs is defined, symbolic entries (a proof for that size). Sizes where it is
    #    undefined (e.g. (X^T X)^{-1} for a wide X) are skipped.
    size_choices = _size_choices(shape_syms, sizes) if shape_syms else [{}]
    proved_at = []
    for size in size_choices:
        concrete = _concrete(expr, size)
        shapes = {M: _concrete(M, size) for M in matrices}
        sub_r = {Mc: _random_matrix(rng, *map(int, Mc.shape), symmetric=M.name in sym_names)
                 for M, Mc in shapes.items()}
        where = ", ".join(f"{s}={v}" for s, v in size.items()) or "the given shapes"
        vanishes = _within(DOMAIN_SECONDS, _domain_zero, concrete, sub_r)
        if vanishes is None:           # not decided by exact rational arithmetic on the matrices
            value_r = _defined_value(concrete, sub_r)
            if value_r is None:
                continue
            vanishes = not any(_nonzero(e) for e in value_r)
        if not vanishes:
            cex = {sp.latex(Mc): sp.latex(v) for Mc, v in sub_r.items()}
            return False, "exact", f"differs for explicit matrices at {where}", cex
        if proved_at:
            continue
        sub = {Mc: explicit_matrix(M.name, *map(int, Mc.shape), symmetric=M.name in sym_names)
               for M, Mc in shapes.items()}
        decided = _within(DOMAIN_SECONDS, _domain_zero, concrete, sub)
        if decided is False or (decided is None and not all(
                _simplify_is_zero(e, timeout) for e in _as_matrix(_explicit(concrete, sub)))):
            return False, "symbolic", f"entries of lhs - rhs do not vanish at {where}", None
        proved_at.append(where)
    if not proved_at:
        return False, "exact", "lhs - rhs is undefined (a singular inverse) at every size tried", None
    # 4. exactly on random integer matrices at larger sizes (only for symbolic sizes)
    if shape_syms:
        for i, big in enumerate((5, 7)):  # one order of the sizes each (both were tried above)
            choices = _size_choices(shape_syms, (big,))
            size = choices[i % len(choices)]
            sub = {_concrete(M, size): _random_matrix(rng, *map(int, _concrete(M, size).shape),
                                                      symmetric=M.name in sym_names) for M in matrices}
            vanishes = _within(DOMAIN_SECONDS, _domain_zero, _concrete(expr, size), sub)
            if vanishes is None:
                value = _defined_value(_concrete(expr, size), sub)
                # entries are numbers, or expressions in the claim's scalar symbols: expand before testing
                vanishes = value is None or not any(e != 0 and _nonzero(e, expand=True) for e in value)
            if not vanishes:
                cex = {sp.latex(k): sp.latex(v) for k, v in sub.items()}
                where = ", ".join(f"{s}={v}" for s, v in size.items())
                return False, "exact", f"differs for random integer matrices at {where}", cex
        return True, "exact", (f"entrywise with symbolic entries at {proved_at[0]}; exactly on random "
                               "integer matrices at the other sizes tried and at 2 larger ones"), None
    return True, "symbolic", "entrywise with symbolic entries at the given shapes", None


# ---------------------------------------------------------------------------------------------
# holds
# ---------------------------------------------------------------------------------------------

_RELATIONS = {
    ">=": (sp.GreaterThan, "is_nonnegative"),
    ">": (sp.StrictGreaterThan, "is_positive"),
    "<=": (sp.LessThan, "is_nonpositive"),
    "<": (sp.StrictLessThan, "is_negative"),
    "!=": (sp.Unequality, "is_nonzero"),
}


def holds(lhs, op, rhs, *, witnesses=(), points=200, digits=30, seed=0, latex=None, names=None) -> Verdict:
    r"""Decide the relation ``lhs op rhs`` with ``op`` one of ``">=", ">", "<=", "<", "!=", "=="``.

    The proof is symbolic when sympy's assumptions decide the sign of ``lhs - rhs`` (for example a
    sum of squares of real symbols is non-negative, a positive symbol times a positive one is
    positive). Otherwise the relation is evaluated at the ``witnesses`` and at ``points`` random
    points that respect the symbols' assumptions: a violation is a counterexample; no violation is
    reported as ``numeric`` evidence. ``"=="`` is delegated to :func:`equal`. ``latex`` and ``names``: as in
    :func:`equal`.

    Returns
    -------
    Verdict
    """
    start = time.perf_counter()
    if op == "==":
        return equal(lhs, rhs, witnesses=witnesses, digits=digits, seed=seed, latex=latex, names=names)
    if op not in _RELATIONS:
        raise ValueError(f"op must be one of {sorted(_RELATIONS) + ['==']}, got {op!r}")
    lhs, rhs = _sympify(lhs), _sympify(rhs)
    if not (isinstance(lhs, sp.Expr) and isinstance(rhs, sp.Expr)):
        raise TypeError(f"holds compares scalar expressions, got {type(lhs).__name__} and {type(rhs).__name__}")
    trivial = _identical_as_built(lhs, rhs)
    shown_lhs, shown_rhs = lhs, rhs
    lhs, rhs = _doit(lhs), _doit(rhs)
    relation_type, attribute = _RELATIONS[op]
    diff = lhs - rhs
    free = sorted(diff.free_symbols, key=str)
    rng = np.random.default_rng(seed)

    def done(holds_, method, detail, cex=None):
        return _finish(holds_, method, detail, cex, start, lhs=shown_lhs, op=op, rhs=shown_rhs, latex=latex,
                       trivial=trivial, evaluated=(lhs, rhs), names=names)

    def violated_at(point):
        try:
            at = diff.xreplace(point)
            if _too_costly(at):
                return False  # not evaluable at a reasonable cost: no evidence either way
            value = _reliable_number(at, digits)
        except _Unreliable:
            return False  # not reliably evaluable there: no evidence either way
        if not value.is_number or value.has(sp.nan, sp.zoo) or value.is_extended_real is not True:
            return False  # undefined or not real there (e.g. sqrt(x) at x < 0): no evidence either way
        return not bool(relation_type(value, 0))

    def counterexample(point):
        cex = {sp.latex(k): _latex_value(_round(v)) for k, v in point.items()}
        cex["\\text{lhs}"] = _latex_value(_round(lhs.xreplace(point)))
        cex["\\text{rhs}"] = _latex_value(_round(rhs.xreplace(point)))
        return cex

    for w in witnesses:
        point = {k: sp.sympify(v) for k, v in dict(w).items()}
        if violated_at(point):
            return done(False, "exact", "fails at a given witness point", counterexample(point))
    if getattr(diff, attribute) is True:
        return done(True, "symbolic", f"sympy's assumptions give lhs - rhs {attribute[3:]}")
    f = sp.lambdify(free, diff, "mpmath")
    import mpmath

    evaluated = 0
    with mpmath.workdps(digits):
        for point in _random_points(rng, free, points, integer_cap=_integer_cap(diff)):
            try:
                value = f(*[mpmath.mpf(int(v.p)) / int(v.q) for v in point.values()])
            except (ZeroDivisionError, ValueError, OverflowError):
                continue
            if isinstance(value, mpmath.mpc):
                if value.imag != 0:
                    continue  # not real there (e.g. log(x) at x < 0): no evidence either way
                value = value.real
            if mpmath.isnan(value):
                continue
            evaluated += 1
            # a violation found in floating point is confirmed exactly at the same (rational) point:
            # at a point where lhs = rhs, rounding can put the float value on the wrong side of 0
            if not bool(relation_type(sp.Float(value, digits), 0)) and violated_at(point):
                return done(False, "numeric", "violated at a random point", counterexample(point))
    if not evaluated:
        return done(*_NO_EVIDENCE[:3])
    return done(True, "numeric", f"holds at {evaluated} random points, magnitudes 1e-6 to 1e6 "
                                 "(sign not decided symbolically)")


# ---------------------------------------------------------------------------------------------
# agree: derivation meets implementation
# ---------------------------------------------------------------------------------------------

def agree(derived, computed, *, rtol=1e-10, atol=1e-12, latex="", kind="implementation") -> Verdict:
    r"""Compare a derived formula, evaluated numerically, with what ``mlnotes`` code computes.

    Parameters
    ----------
    derived : array-like of numbers
        The chapter's derived expression evaluated on data (e.g. via ``sympy.lambdify``).
    computed : array-like of numbers, the shape of ``derived``
        The same quantity from the library.
    rtol, atol : float
        Tolerances of ``numpy.allclose`` (stated in the verdict).
    latex : str
        What is compared, for display (a description: the numbers are what is checked).
    kind : {"implementation", "measured"}
        ``"implementation"`` (default): a derivation against the ``mlnotes`` code, labelled
        *implementation agrees*. ``"measured"``: two results of running code (e.g. ``mlnotes``
        against scikit-learn), labelled *measured*.

    Returns
    -------
    Verdict
        ``holds`` when shapes match, every value is finite and
        ``|derived - computed| <= atol + rtol |computed|``.

    Raises
    ------
    TypeError
        If an input is boolean (compare the number itself with :func:`~mlnotes.symbolic.measured`).
    ValueError
        If ``kind`` is not one of the two kinds or a tolerance is negative.
    """
    start = time.perf_counter()
    if kind not in ("implementation", "measured"):
        raise ValueError(f"kind must be 'implementation' or 'measured', got {kind!r}")
    if not (rtol >= 0 and atol >= 0):
        raise ValueError(f"rtol and atol must be >= 0, got rtol={rtol!r}, atol={atol!r}")
    for name, value in (("derived", derived), ("computed", computed)):
        if np.asarray(value).dtype == bool:
            raise TypeError(f"{name} is boolean: a truth value is not a derived quantity; compare the number it "
                            "tests with measured(value, op, bound) instead")
    a = np.asarray(derived, dtype=float)
    b = np.asarray(computed, dtype=float)
    method, verdict_kind = ("implementation", IMPLEMENTATION) if kind == "implementation" else ("measured", MEASURED)
    checked = _agree_checked(a, b, rtol, atol)

    def done(ok, detail, cex=None):
        return Verdict(latex or checked, ok, method, detail, cex, time.perf_counter() - start, kind=verdict_kind,
                       checked=checked, display=latex or None, display_check="description" if latex else "rendered")

    if a.shape != b.shape:
        return done(False, f"shapes differ: {a.shape} vs {b.shape}")
    ok = bool(np.all(np.isfinite(a)) and np.all(np.isfinite(b)) and np.allclose(a, b, rtol=rtol, atol=atol))
    detail = f"agree to rtol={rtol:g}, atol={atol:g}" if ok else f"disagree beyond rtol={rtol:g}, atol={atol:g}"
    if a.size:
        detail += f" over {a.size} value{'s' if a.size > 1 else ''}"
    cex = None
    if not ok:
        with np.errstate(invalid="ignore"):  # inf - inf: the NaN is what argmax should point at
            i = int(np.argmax(np.abs(a - b))) if a.size else 0
        cex = {"\\text{index}": str(tuple(int(k) for k in np.unravel_index(i, a.shape)) if a.ndim else ()),
               "\\text{derived}": f"{a.flat[i]:.6g}" if a.size else "", "\\text{computed}": f"{b.flat[i]:.6g}" if b.size else ""}
    return done(ok, detail, cex)


def _number_latex(v) -> str:
    """A float for display: 6 significant digits, in LaTeX."""
    v = float(v)
    if v != v:
        return "\\mathrm{NaN}"
    if v in (np.inf, -np.inf):
        return "\\infty" if v > 0 else "-\\infty"
    text = f"{v:.6g}"
    if "e" in text:
        mantissa, exponent = text.split("e")
        return f"{mantissa} \\cdot 10^{{{int(exponent)}}}"
    return text


def _agree_checked(a, b, rtol, atol) -> str:
    """The checked comparison of :func:`agree` as LaTeX: the numbers and the tolerance."""
    if a.shape != b.shape or not a.size:
        return f"\\text{{arrays of shapes {a.shape} and {b.shape}}}"
    tolerance = f"{_number_latex(atol)} + {_number_latex(rtol)}"
    if a.size == 1:
        x, y = a.flat[0], b.flat[0]
        return (f"|{_number_latex(x)} - {_number_latex(y)}| = {_number_latex(abs(x - y))} "
                f"\\quad (\\text{{tolerance }} {tolerance} \\cdot {_number_latex(abs(y))})")
    with np.errstate(invalid="ignore"):
        gaps = np.abs(a - b)
    gap = float(np.max(gaps)) if not np.isnan(gaps).any() else float("nan")
    return (f"\\max_i |\\text{{derived}}_i - \\text{{computed}}_i| = {_number_latex(gap)} "
            f"\\quad ({a.size} \\text{{ values; tolerance }} {tolerance}\\,|\\text{{computed}}_i|)")
