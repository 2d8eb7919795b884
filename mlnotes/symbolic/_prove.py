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


@dataclass
class Verdict:
    """The outcome of deciding one claim.

    Attributes
    ----------
    latex : str
        The claim as LaTeX (what the chapter displays).
    holds : bool
        Whether the claim was proved or supported at every evaluated point.
    method : str
        ``"symbolic"`` (proved by simplification or sympy's assumptions), ``"exact"`` (exact rational
        arithmetic on explicit matrices: a proof for the sizes tried), ``"numeric"`` (high-precision
        evaluation at random points: evidence), ``"implementation"`` (derived formula vs code) or
        ``"undecided"`` (a failed claim: simplify could not decide and no point could be evaluated,
        e.g. derivatives of undefined functions).
    detail : str
        How it was decided, in words.
    counterexample : dict or None
        For a failed claim, the point (symbol -> value as LaTeX) where it fails.
    seconds : float
        Time taken to decide.
    """

    latex: str
    holds: bool
    method: str
    detail: str
    counterexample: dict | None = None
    seconds: float = 0.0


class _Timeout(Exception):
    pass


@contextmanager
def _time_limit(seconds):
    """Abort the body after ``seconds`` (only in the main thread, where signals work)."""
    use_alarm = (seconds and hasattr(signal, "SIGALRM")
                 and threading.current_thread() is threading.main_thread())
    if not use_alarm:
        yield
        return

    def handler(signum, frame):
        raise _Timeout()

    previous = signal.signal(signal.SIGALRM, handler)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def _simplify_is_zero(expr, timeout):
    """True if ``expr`` simplifies to 0 within ``timeout`` seconds, False if not or if it ran out."""
    if expr == 0:
        return True
    try:
        with _time_limit(timeout):
            # cancel() decides polynomials and rational functions quickly; simplify() the rest
            return sp.cancel(expr) == 0 or sp.simplify(expr) == 0
    except _Timeout:
        return False


# ---------------------------------------------------------------------------------------------
# random points
# ---------------------------------------------------------------------------------------------

def _random_rational(rng, sym):
    """A random exact value for ``sym`` that respects its assumptions."""
    if sym.is_integer:
        low = 1 if sym.is_positive else (0 if sym.is_nonnegative else -5)
        return sp.Integer(int(rng.integers(low, 7)))
    num = int(rng.integers(1, 400))
    value = sp.Rational(num, 100)  # in (0, 4)
    if sym.is_positive or sym.is_nonnegative:
        return value
    if sym.is_negative or sym.is_nonpositive:
        return -value
    return value if rng.random() < 0.5 else -value


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


def equal(lhs, rhs, *, symmetric=(), witnesses=(), points=6, digits=30, seed=0, timeout=20,
          sizes=(2,), latex=None) -> Verdict:
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
        Number of random points of the numeric fallback.
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

    Returns
    -------
    Verdict
    """
    start = time.perf_counter()
    statement = latex or f"{sp.latex(lhs)} = {sp.latex(rhs)}"
    rng = np.random.default_rng(seed)
    symmetric = tuple(symmetric)
    if _is_matexpr(lhs) or _is_matexpr(rhs) or _has_matrix_symbol(lhs) or _has_matrix_symbol(rhs):
        verdict = _equal_matexpr(lhs, rhs, symmetric, witnesses, rng, timeout, sizes)
    else:
        lhs, rhs = sp.sympify(lhs), sp.sympify(rhs)
        if isinstance(lhs, sp.MatrixBase) or isinstance(rhs, sp.MatrixBase):
            verdict = _equal_matrix(sp.Matrix(lhs), sp.Matrix(rhs), witnesses, rng, points, digits, timeout)
        else:
            verdict = _equal_scalar(lhs, rhs, witnesses, rng, points, digits, timeout)
    holds_, method, detail, counterexample = verdict
    return Verdict(statement, holds_, method, detail, counterexample, time.perf_counter() - start)


def _evaluate_difference(diff, point, digits):
    """|diff| at ``point`` with ``digits`` of precision (a max over entries for matrices)."""
    value = diff.xreplace(point)
    if isinstance(value, sp.MatrixBase):
        value = value.doit()
        entries = [sp.N(e, digits) for e in value]
        return max((abs(e) for e in entries), default=sp.Float(0))
    return abs(sp.N(value.doit(), digits))


def _scale(lhs, rhs, point, digits):
    def size(e):
        v = e.xreplace(point)
        if isinstance(v, sp.MatrixBase):
            return max((abs(sp.N(x, digits)) for x in v.doit()), default=sp.Float(0))
        return abs(sp.N(v.doit(), digits))
    return max(size(lhs), size(rhs), sp.Float(1))


def _check_points(lhs, rhs, free, witnesses, rng, points, digits):
    """Evaluate at the witnesses and at random points; return (holds, counterexample, evaluated),
    where ``evaluated`` counts the points at which both sides could be evaluated (not those where
    they are undefined, or where the expression cannot take numbers, such as a derivative of an
    undefined function)."""
    diff = lhs - rhs
    tol = sp.Float(10) ** (-(digits - 8))
    candidates = [(True, {k: sp.sympify(v) for k, v in dict(w).items()}) for w in witnesses]
    for _ in range(points):
        candidates.append((False, {s: _random_rational(rng, s) for s in sorted(free, key=str)}))
    evaluated = 0
    for is_witness, point in candidates:
        try:
            err = _evaluate_difference(diff, point, digits)
            infinite = _infinite_sides(lhs, rhs, point) if err.has(sp.nan, sp.zoo, sp.oo) else None
            if infinite is None and (not err.is_number or err.has(sp.nan, sp.zoo, sp.oo)):
                continue
            scale = _scale(lhs, rhs, point, digits) if infinite is None else None
        except (ZeroDivisionError, ValueError, TypeError):
            continue
        evaluated += 1
        if infinite == "equal":
            continue
        if infinite == "differ" or err > tol * scale:
            cex = {sp.latex(k): _latex_value(_round(v)) for k, v in point.items()}
            cex["\\text{lhs}"] = _latex_value(_round(lhs.xreplace(point).doit()))
            cex["\\text{rhs}"] = _latex_value(_round(rhs.xreplace(point).doit()))
            if is_witness:
                cex["\\text{witness}"] = True
            return False, cex, evaluated
    return True, None, evaluated


def _infinite_sides(lhs, rhs, point):
    """Where lhs - rhs is not finite: "equal" if both sides are the same infinity, "differ" if exactly
    one side is infinite or they are different infinities, None if a side is undefined (nan)."""
    if isinstance(lhs, sp.MatrixBase) or isinstance(rhs, sp.MatrixBase):
        return None
    a, b = (sp.sympify(e).xreplace(point).doit() for e in (lhs, rhs))
    if a.has(sp.nan) or b.has(sp.nan) or not (a.is_number and b.is_number):
        return None
    if a.is_infinite or b.is_infinite or a.has(sp.zoo) or b.has(sp.zoo):
        return "equal" if (a == b and a in (sp.oo, -sp.oo)) else "differ"
    return None


#: The verdict when simplify cannot decide and no point could be evaluated: no evidence, no claim.
_NO_EVIDENCE = (False, "undecided", "simplify could not decide, and no point could be evaluated", None)


def _equal_scalar(lhs, rhs, witnesses, rng, points, digits, timeout):
    if lhs == rhs and lhs.has(sp.oo, -sp.oo, sp.zoo) and not witnesses:   # oo - oo is nan: compare directly
        return True, "symbolic", "the two sides are the same infinite value", None
    free = (lhs.free_symbols | rhs.free_symbols)
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
    return True, "numeric", f"agree at {points} random points to {digits - 8} digits (simplify undecided)", None


def _equal_matrix(lhs, rhs, witnesses, rng, points, digits, timeout):
    if lhs.shape != rhs.shape:
        return False, "symbolic", f"shapes differ: {lhs.shape} vs {rhs.shape}", None
    free = lhs.free_symbols | rhs.free_symbols
    ok, cex, evaluated = _check_points(lhs, rhs, free, witnesses, rng, points, digits)
    if not ok:
        where = "a given witness point" if cex.pop("\\text{witness}", False) else "a random point"
        return False, "numeric", f"lhs != rhs at {where} ({digits} digits)", cex
    if all(_simplify_is_zero(e, timeout) for e in lhs - rhs):
        return True, "symbolic", "simplify(lhs - rhs) = 0 entrywise", None
    if not evaluated:
        return _NO_EVIDENCE
    return True, "numeric", f"agree at {points} random points to {digits - 8} digits (simplify undecided)", None


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
        if any(sp.simplify(e) != 0 for e in value):
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
        value_r = _defined_value(concrete, sub_r)
        if value_r is None:
            continue
        if any(sp.simplify(e) != 0 for e in value_r):
            cex = {sp.latex(Mc): sp.latex(v) for Mc, v in sub_r.items()}
            return False, "exact", f"differs for explicit matrices at {where}", cex
        if proved_at:
            continue
        sub = {Mc: explicit_matrix(M.name, *map(int, Mc.shape), symmetric=M.name in sym_names)
               for M, Mc in shapes.items()}
        value = _as_matrix(_explicit(concrete, sub))
        if not all(_simplify_is_zero(e, timeout) for e in value):
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
            value = _defined_value(_concrete(expr, size), sub)
            # entries are numbers, or expressions in the claim's scalar symbols: expand before testing
            if value is not None and any(e != 0 and sp.simplify(sp.expand(e)) != 0 for e in value):
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


def holds(lhs, op, rhs, *, witnesses=(), points=200, digits=30, seed=0, latex=None) -> Verdict:
    r"""Decide the relation ``lhs op rhs`` with ``op`` one of ``">=", ">", "<=", "<", "!=", "=="``.

    The proof is symbolic when sympy's assumptions decide the sign of ``lhs - rhs`` (for example a
    sum of squares of real symbols is non-negative, a positive symbol times a positive one is
    positive). Otherwise the relation is evaluated at the ``witnesses`` and at ``points`` random
    points that respect the symbols' assumptions: a violation is a counterexample; no violation is
    reported as ``numeric`` evidence. ``"=="`` is delegated to :func:`equal`.

    Returns
    -------
    Verdict
    """
    start = time.perf_counter()
    lhs, rhs = sp.sympify(lhs), sp.sympify(rhs)
    if op == "==":
        return equal(lhs, rhs, witnesses=witnesses, digits=digits, seed=seed, latex=latex)
    if op not in _RELATIONS:
        raise ValueError(f"op must be one of {sorted(_RELATIONS) + ['==']}, got {op!r}")
    relation_type, attribute = _RELATIONS[op]
    statement = latex or sp.latex(relation_type(lhs, rhs, evaluate=False))
    diff = lhs - rhs
    free = sorted(diff.free_symbols, key=str)
    rng = np.random.default_rng(seed)

    def violated_at(point):
        value = sp.N(diff.xreplace(point), digits)
        if not value.is_number or value.has(sp.nan, sp.zoo) or value.is_extended_real is not True:
            return False  # undefined or not real there (e.g. sqrt(x) at x < 0): no evidence either way
        return not bool(relation_type(value, 0))

    def counterexample(point):
        cex = {sp.latex(k): _latex_value(_round(v)) for k, v in point.items()}
        cex["\\text{lhs}"] = _latex_value(_round(lhs.xreplace(point)))
        cex["\\text{rhs}"] = _latex_value(_round(rhs.xreplace(point)))
        return cex

    for w in witnesses:
        if violated_at(dict(w)):
            return Verdict(statement, False, "exact", "fails at a given witness point",
                           counterexample(dict(w)), time.perf_counter() - start)
    if getattr(diff, attribute) is True:
        return Verdict(statement, True, "symbolic", f"sympy's assumptions give lhs - rhs {attribute[3:]}",
                       None, time.perf_counter() - start)
    f = sp.lambdify(free, diff, "mpmath")
    import mpmath

    with mpmath.workdps(digits):
        for _ in range(points):
            point = {s: _random_rational(rng, s) for s in free}
            try:
                value = f(*[mpmath.mpf(int(v.p)) / int(v.q) for v in point.values()])
            except (ZeroDivisionError, ValueError):
                continue
            if isinstance(value, mpmath.mpc):
                if value.imag != 0:
                    continue  # not real there (e.g. log(x) at x < 0): no evidence either way
                value = value.real
            if mpmath.isnan(value):
                continue
            # a violation found in floating point is confirmed exactly at the same (rational) point:
            # at a point where lhs = rhs, rounding can put the float value on the wrong side of 0
            if not bool(relation_type(sp.Float(value, digits), 0)) and violated_at(point):
                return Verdict(statement, False, "numeric", "violated at a random point",
                               counterexample(point), time.perf_counter() - start)
    return Verdict(statement, True, "numeric", f"holds at {points} random points (sign not decided symbolically)",
                   None, time.perf_counter() - start)


# ---------------------------------------------------------------------------------------------
# agree: derivation meets implementation
# ---------------------------------------------------------------------------------------------

def agree(derived, computed, *, rtol=1e-10, atol=1e-12, latex="") -> Verdict:
    r"""Compare a derived formula, evaluated numerically, with what ``mlnotes`` code computes.

    Parameters
    ----------
    derived : array-like
        The chapter's derived expression evaluated on data (e.g. via ``sympy.lambdify``).
    computed : array-like
        The same quantity from the library.
    rtol, atol : float
        Tolerances of ``numpy.allclose`` (stated in the verdict).
    latex : str
        What is compared, for display.

    Returns
    -------
    Verdict
        ``holds`` when shapes match and ``|derived - computed| <= atol + rtol |computed|``.
    """
    start = time.perf_counter()
    a = np.asarray(derived, dtype=float)
    b = np.asarray(computed, dtype=float)
    if a.shape != b.shape:
        return Verdict(latex, False, "implementation", f"shapes differ: {a.shape} vs {b.shape}", None,
                       time.perf_counter() - start)
    ok = bool(np.all(np.isfinite(a)) and np.all(np.isfinite(b)) and np.allclose(a, b, rtol=rtol, atol=atol))
    detail = f"agree to rtol={rtol:g}, atol={atol:g}" if ok else f"disagree beyond rtol={rtol:g}, atol={atol:g}"
    cex = None
    if not ok:
        with np.errstate(invalid="ignore"):  # inf - inf: the NaN is what argmax should point at
            i = int(np.argmax(np.abs(a - b))) if a.size else 0
        cex = {"\\text{index}": str(tuple(int(k) for k in np.unravel_index(i, a.shape)) if a.ndim else ()),
               "\\text{derived}": f"{a.flat[i]:.6g}" if a.size else "", "\\text{computed}": f"{b.flat[i]:.6g}" if b.size else ""}
    return Verdict(latex, ok, "implementation", detail, cex, time.perf_counter() - start)
