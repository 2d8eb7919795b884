r"""What the reader sees is what was proved: a typed display compared with the checked objects.

A chapter may give a decider a typed ``latex=`` display, prettier than sympy's printout. It is
parsed back with :func:`sympy.parsing.latex.parse_latex` (ANTLR backend) and compared with the
checked left- and right-hand sides at random points (exactly, to 30 digits):

- ``"compared"``: every side of the display parsed, its symbols are symbols of the checked
  expressions, and it equals the corresponding checked side;
- ``"disagrees"``: a side parsed and equals neither checked side (e.g. ``(y - \sigma) x`` typed
  for a checked ``(\sigma - y) x``), or the relation differs (``<`` typed for a checked ``<=``):
  the statement then fails;
- ``"not compared"``: the display could not be parsed or matched (notation sympy's parser does not
  read, such as ``\nabla``, ``\lVert``, ``^\top``, abbreviations such as ``p`` for
  :math:`\sigma(z)`, or matrices): the verdict says so and shows the checked form.

A display in the text's own notation (named quantities such as :math:`p_L`, :math:`\Delta i_G`, hats and bars)
is compared when the decider is given ``names``, what each typed name stands for in the checked symbols: the names
are read as those expressions, and the display is then compared like one written in the checked symbols (a wrong
coefficient or sign "disagrees" and fails the statement).

The parse must be certain before a display can disagree: the parser runs in strict mode (it
otherwise drops what it cannot read, e.g. ``2\sqrt K`` read as ``2``); TeX's brace-less
arguments are braced as TeX reads them (``\sqrt K`` is ``\sqrt{K}``, ``x^23`` is ``x^{2}3``,
``\frac12`` is ``\frac{1}{2}``); a checked symbol followed by a parenthesis is a product
(``\lambda(x + y)^2`` is ``\lambda \cdot (x + y)^2``, not a function applied); typed decimals are
exact (``0.1`` is 1/10) and agree to the typed precision (a rounded ``0.333`` for 1/3). A side
"disagrees" only when it differs at two or more points by more than the relative tolerance; a
single differing point, or a name that is both a checked symbol and a function, leaves the display
"not compared".

Annotations are dropped before parsing: everything from ``\quad`` on, ``\text{...}``, sizing
commands (``\big``, ``\left``), spacing (``\,``). A dropped annotation that states a further
relation of its own (``\quad \text{so } c > 0``, ``\quad a = b``; not a condition such as
``\quad \text{for } x > 0`` or a qualifier in parentheses, ``\quad (d = 2)``) leaves the display
"not compared": only part of it would have been. Known function names are read as the book writes
them: ``\sigma(z)`` the sigmoid (unless a checked symbol is called sigma), ``\Phi`` and ``\varphi``
the standard normal cdf and pdf, ``\max``/``\min``.
"""

from __future__ import annotations

import re
from functools import lru_cache

import numpy as np
import sympy as sp

__all__ = ["compare_display", "parse_display"]

#: Relations as typed, and the relation code they mean.
_TYPED_RELATIONS = [
    (r"\not\equiv", "!="), (r"\not=", "!="), (r"\neq", "!="), (r"\ne", "!="),
    (r"\leqslant", "<="), (r"\geqslant", ">="), (r"\leq", "<="), (r"\le", "<="), (r"\geq", ">="), (r"\ge", ">="),
    (r"\equiv", "="), (r"\lt", "<"), (r"\gt", ">"), ("<", "<"), (">", ">"), ("=", "="),
]
#: Relations that make a display incomparable (approximate, implication, ...).
_UNCOMPARABLE = (r"\approx", r"\sim", r"\propto", r"\iff", r"\implies", r"\Rightarrow", r"\Leftrightarrow",
                 r"\to", r"\in", r"\subset", r"\mapsto", r"\forall", r"\exists", r"\;\text", ":=")

_DROP = [r"\displaystyle", r"\textstyle", r"\bigg", r"\Bigg", r"\big", r"\Big", r"\left", r"\right",
         r"\,", r"\;", r"\!", r"\:", r"\ "]


class _NotComparable(Exception):
    pass


#: Commands that can hide or restyle what a display shows (a white minus sign, a phantom term, a tag
#: that states something): a typed display using one is refused ("disagrees"), never "not compared".
_HIDING = re.compile(r"\\(?:color|textcolor|colorbox|phantom|hphantom|vphantom|tag|cancel|bcancel|xcancel|"
                     r"require|style|class|cssId|href|smash)(?![a-zA-Z])")
#: Negated relations other than the two the checker reads (\not\equiv, \not= and \ne): refused too.
_NEGATED = re.compile(r"\\not(?!\\equiv|\s*=)|\\n(?:leq?|geq?|less|gtr|leqslant|geqslant)(?![a-zA-Z])")


#: A \text{...} that starts a comment ("\text{: the foot lies on the boundary}", "\text{ for } y = 0").
_COMMENT = re.compile(r"\\(?:text|textrm|mathrm)\{\s*(?:[:;,.(]|for\b|if\b|when\b|where\b|since\b|so\b|and\b|"
                      r"at\b|on\b|the\b|by\b|with\b|i\.e\.|e\.g\.|as\b|because\b|is\b|are\b|of\b|in\b|"
                      r"every\b|all\b|each\b|here\b|after\b|before\b|from\b|then\b)")


#: First words of a \text{...} annotation that introduce a condition, not a further claim.
_CONDITION_WORDS = ("for", "if", "when", "where", "whenever", "at", "on", "with", "by",
                    "all", "every", "each", "after", "before", "from", "in", "as", "here", "given", "unless")
_TEXT = re.compile(r"\\(?:text|textrm|mathrm)\{([^{}]*)\}")
_RELATION_SIGN = re.compile(r"\\(?:le|ge|leq|geq|ne|neq|equiv)(?![a-zA-Z])|[=<>]")


def _annotation(latex: str) -> str:
    r"""What :func:`_strip` drops from a display: the text from ``\quad`` on and a commenting ``\text``."""
    text = latex.strip()
    quad = re.search(r"\\q?quad\b", text)
    head, tail = (text[:quad.start()], text[quad.end():]) if quad else (text, "")
    comment = _COMMENT.search(head)
    return (head[comment.start():] + " " + tail) if comment else tail


def _states_more(annotation: str) -> bool:
    """True if a dropped ``annotation`` states a relation of its own: a relation sign outside parentheses
    and outside text, not introduced by a condition word (``for``, ``if``, ``where``, ...)."""
    depth, condition, i = 0, False, 0
    while i < len(annotation):
        text = _TEXT.match(annotation, i)
        if text:
            words = re.findall(r"[A-Za-z]+", text.group(1))
            if words:
                condition = words[0].lower() in _CONDITION_WORDS
            i = text.end()
            continue
        c = annotation[i]
        depth += c in "({["
        depth -= c in ")}]"
        sign = _RELATION_SIGN.match(annotation, i)
        if sign and depth == 0 and not condition:
            return True
        i += len(sign.group(0)) if sign else 1
    return False


def _strip(latex: str) -> str:
    """The math of a display without its annotations."""
    text = latex.strip()
    text = re.split(r"\\q?quad\b", text)[0]
    # a \text{...} that starts a comment ("\text{: the foot lies on the boundary}", "\text{ for } y = 0")
    # ends the math; any other text (\text{const}, \mathrm{Var}) makes the display incomparable
    comment = _COMMENT.search(text)
    if comment:
        text = text[:comment.start()]
    if re.search(r"\\(?:text|textrm|mathrm|textbf|texttt)\{", text):
        raise _NotComparable("the display has text inside the formula")
    text = _plain_commands(text).replace(r"\{", "(").replace(r"\}", ")")
    return text.strip().rstrip(".,;: ").strip()


def _plain_commands(text: str) -> str:
    r"""``text`` without sizing and spacing commands (``\big``, ``\left``, ``\,``), ``\tfrac``/``\dfrac`` as
    ``\frac``: what :func:`_strip` reads, and the form in which a display's names are looked up."""
    text = text.replace(r"\tfrac", r"\frac").replace(r"\dfrac", r"\frac")
    for cmd in _DROP:
        text = re.sub(re.escape(cmd) + r"(?![A-Za-z])", " ", text)
    return text


def _split_relations(text: str):
    """``[side, op, side, op, side, ...]`` split at top-level relations (outside braces and
    parentheses)."""
    parts, ops, depth, start, i = [], [], 0, 0, 0
    while i < len(text):
        c = text[i]
        if c in "{([":
            depth += 1
        elif c in "})]":
            depth -= 1
        elif depth == 0:
            for typed, op in _TYPED_RELATIONS:
                if text.startswith(typed, i) and not (typed[-1].isalpha() and i + len(typed) < len(text)
                                                      and text[i + len(typed)].isalpha()):
                    parts.append(text[start:i])
                    ops.append(op)
                    i += len(typed)
                    start = i
                    break
            else:
                i += 1
                continue
            continue
        i += 1
    parts.append(text[start:])
    return [p.strip() for p in parts], ops


def _normalised(name: str) -> str:
    name = re.sub(r"[\\{}_ ^]", "", name)
    return name[3:] if name.startswith("var") and len(name) > 3 else name


def _functions(checked_names):
    """How parsed function names are read (the book's notation)."""
    from .functions import sigmoid, std_normal_cdf, std_normal_pdf

    table = {"max": sp.Max, "min": sp.Min, "Phi": std_normal_cdf, "exp": sp.exp, "log": sp.log, "ln": sp.log,
             "sqrt": sp.sqrt, "tanh": sp.tanh, "sinh": sp.sinh, "cosh": sp.cosh, "abs": sp.Abs}
    if "sigma" not in checked_names:
        table["sigma"] = sigmoid
    if "phi" not in checked_names:
        table["phi"] = std_normal_pdf
    return table


#: Notation the parser does not read as the book means it: such sides are not parsed at all.
_UNREAD = re.compile(r"\\(top|nabla|lVert|rVert|Vert|\||mathbb|mathbf|boldsymbol|bm|operatorname|hat|bar|tilde|"
                     r"vec|partial|sum|prod|int|lim|begin|R|E|diag|tr|rank|det|argmin|argmax|mathcal|ldots|cdots|dots|"
                     r"sup|inf|langle|rangle|star|ast|prime|mid|circ|odot|otimes|det|Pr|operatorname)(?![A-Za-z])|'|\^T\b|\|")
_COMMAND = re.compile(r"\\[A-Za-z]+")


def _letters_known(side: str, names) -> bool:
    """A cheap test before parsing: every letter outside commands starts a checked symbol's name
    (or is ``e``), so that parsing can succeed."""
    letters = set(re.findall(r"[A-Za-z]", _COMMAND.sub(" ", side)))
    initials = {n[0] for n in names if n} | {"e"}
    greek = {m[1:] for m in _COMMAND.findall(side)} - {"frac", "sqrt", "log", "ln", "exp", "cdot", "times", "pi",
                                                      "max", "min", "tanh", "sinh", "cosh", "sin", "cos", "tan"}
    return letters <= initials and all(_normalised(g) in names or g in ("sigma", "Phi", "phi", "varphi")
                                       for g in greek)


@lru_cache(maxsize=4096)
def _parse(side: str):
    """``parse_latex(side)``, or the name of the error it raised (ANTLR parsing is slow: cached)."""
    from sympy.parsing.latex import parse_latex

    try:
        return parse_latex(side, strict=True)
    except Exception as exc:  # the parser raises several kinds of errors on notation it does not read
        return type(exc).__name__


def _read(side: str, symbols: dict, undefined: dict, function_names=frozenset()):
    """Parse one side and express it in the checked symbols, or raise :class:`_NotComparable`.

    ``function_names`` are the (normalised) names of the functions in the checked expressions: a
    name that is both a checked symbol and such a function makes a ``name(...)`` doubtful."""
    from sympy.core.function import AppliedUndef

    if not side:
        raise _NotComparable("an empty side")
    unread = _UNREAD.search(side)
    if unread:
        raise _NotComparable(f"the parser does not read {unread.group(0)!r} as the book means it")
    side = _products(_braced(side), symbols, function_names)
    if not _letters_known(side, symbols):
        raise _NotComparable(f"{side!r} uses names that are not among the checked symbols")
    expr = _parse(side)
    if isinstance(expr, str):
        raise _NotComparable(f"the parser does not read {side!r} ({expr})")
    if not isinstance(expr, sp.Expr) or isinstance(expr, sp.core.relational.Relational):
        raise _NotComparable(f"{side!r} is not a scalar expression")
    if expr.has(sp.Derivative, sp.Integral, sp.Limit, sp.Sum, sp.Product):
        raise _NotComparable(f"{side!r} has a derivative, integral, limit, sum or product")
    functions = _functions(symbols)
    replacements = {}
    for f in expr.atoms(AppliedUndef):
        name = _normalised(f.func.__name__)
        if name in undefined:
            replacements[f] = undefined[name](*f.args)
        elif name in symbols:   # a checked symbol read as a function: doubtful (see _products)
            raise _NotComparable(f"{f.func.__name__!r} is a checked symbol and is applied like a function")
        elif name in functions:
            replacements[f] = functions[name](*f.args)
        else:
            raise _NotComparable(f"unknown function {f.func.__name__!r}")
    expr = expr.xreplace(replacements) if replacements else expr
    mapping, unknown = {}, []
    for s in expr.free_symbols:
        name = _normalised(s.name)
        if name in symbols:
            mapping[s] = symbols[name]
        elif name == "e":
            mapping[s] = sp.E
        elif name == "pi":
            mapping[s] = sp.pi
        else:
            unknown.append(s.name)
    if unknown:
        raise _NotComparable(f"{', '.join(sorted(unknown))} {'is' if len(unknown) == 1 else 'are'} not among the "
                             "checked symbols")
    expr = expr.xreplace(mapping)
    # typed decimals are exact: 0.1 is 1/10 (the parser reads a binary float)
    floats = expr.atoms(sp.Float)
    return expr.xreplace({f: sp.Rational(repr(float(f))) for f in floats}) if floats else expr


#: A TeX argument of one token: a command or one character.
_TOKEN = r"(\\[A-Za-z]+|[^\s{}\\\[])"


def _braced(side: str) -> str:
    r"""TeX's brace-less arguments braced as TeX reads them: ``\sqrt K`` -> ``\sqrt{K}``,
    ``x^23`` -> ``x^{2}3``, ``\frac12`` -> ``\frac{1}{2}`` (the parser misreads or rejects them)."""
    side = re.sub(r"\\sqrt(?![A-Za-z])\s*" + _TOKEN, r"\\sqrt{\1}", side)
    side = re.sub(r"([\^_])\s*" + _TOKEN, r"\1{\2}", side)
    for _ in range(2):   # the numerator, then the denominator
        side = re.sub(r"\\frac(?![A-Za-z])\s*((?:\{[^{}]*\}\s*)?)" + _TOKEN, r"\\frac\1{\2}", side)
    return side


#: A name directly followed by an opening parenthesis: ``\lambda(``, ``G (``, ``w_{1}(``.
_NAME_PAREN = re.compile(r"(?<![\\A-Za-z])(\\[A-Za-z]+|[A-Za-z])((?:_\{[^{}]*\}|_[A-Za-z0-9])?)(\s*)(?=\()")


def _products(side: str, symbols, function_names) -> str:
    r"""A checked symbol followed by ``(`` is a product, not a function applied: the parser reads
    ``\lambda(x + y)^2`` as ``lambda(x + y)**2``; an explicit ``\cdot`` makes it
    ``lambda*(x + y)**2``. Names of functions in the checked expressions are left as they are."""
    def insert(m):
        name = _normalised(m.group(1) + m.group(2))
        if name in symbols and name not in function_names:
            return f"{m.group(1)}{m.group(2)} \\cdot "
        return m.group(0)

    return _NAME_PAREN.sub(insert, side)


def parse_display(latex: str, symbols) -> tuple[list, list]:
    """Parse a typed display into ``(sides, relations)`` in the given checked ``symbols``.

    Raises
    ------
    ValueError
        If the display cannot be read (the message says why).
    """
    try:
        text = _strip(latex)
        if any(u in text for u in _UNCOMPARABLE):
            raise _NotComparable("it uses a relation that is not compared (approx, implies, in, ...)")
        sides, ops = _split_relations(text)
        by_name = {_normalised(s.name): s for s in symbols}
        return [_read(side, by_name, {}) for side in sides], ops
    except _NotComparable as exc:
        raise ValueError(str(exc)) from None


def _points(symbols, count, seed=0):
    """Exact points that respect the symbols' assumptions, as the checker's own deciders draw them: a third
    in the moderate range (-4, 4), the others with magnitudes stratified from 1e-6 to 1e6 (so a display
    such as ``\\min(x, 100)`` for ``x`` is met where it differs)."""
    from ._prove import _random_points

    return _random_points(np.random.default_rng(seed), symbols, count)


def _same(a, b, symbols, points=12, digits=30, rtol=None):
    """True if ``a`` and ``b`` agree at random points, False if they differ at two or more points
    by more than the relative tolerance ``rtol`` (default ``10**(8 - digits)``), None if no point
    could be evaluated or they differ at one point only (doubtful, not a disagreement)."""
    from ._prove import _reliable_number, _too_costly, _Unreliable

    rtol = sp.Float(10) ** (8 - digits) if rtol is None else sp.Float(rtol)
    evaluated = differing = 0
    for point in _points(sorted(symbols, key=str), points):
        try:
            pa, pb = sp.sympify(a).xreplace(point).doit(), sp.sympify(b).xreplace(point).doit()
            if _too_costly(pa) or _too_costly(pb):
                continue
            va, vb = _reliable_number(pa, digits), _reliable_number(pb, digits)
        except (_Unreliable, ZeroDivisionError, ValueError, TypeError):
            continue
        if not (va.is_number and vb.is_number) or va.has(sp.nan, sp.zoo, sp.oo, -sp.oo) \
                or vb.has(sp.nan, sp.zoo, sp.oo, -sp.oo):
            continue
        evaluated += 1
        if abs(va - vb) > rtol * max(1, abs(va), abs(vb)):
            differing += 1
    if not evaluated or differing == 1:
        return None
    return differing == 0


def _tolerance(latex: str, checked):
    """The relative tolerances ``(certain, rounded)`` of a display comparison. ``certain``: None
    (30-digit agreement) for exact checked sides, ``1e-12`` with a float among them. ``rounded``:
    with a typed decimal of ``k >= 3`` significant digits (perhaps a rounded value, ``0.333`` for
    1/3), ``10**(1 - k)``: a display that agrees only to that precision is "not compared", not
    "disagrees"; None otherwise (``0.1``, ``0.25`` are taken as the exact values they write)."""
    certain = 1e-12 if any(isinstance(e, sp.Basic) and e.has(sp.Float) for e in checked) else None
    digits = [len(m.replace(".", "").lstrip("0")) for m in re.findall(r"\d*\.\d+", latex)]
    digits = [k for k in digits if k >= 3]
    rounded = 10.0 ** (1 - min(digits)) if digits else None
    return certain, rounded


def _oriented(op, small, big):
    """A relation as ``(kind, first, second)`` with ``<``-type relations pointing left to right."""
    if op in (">=", ">"):
        return ("<=" if op == ">=" else "<"), big, small
    return op, small, big


#: The placeholder a display's own name is read as (see :func:`_substitute_names`): ``Q_{9000}``, ``Q_{9001}``, ...
_PLACEHOLDER = "Q_{{{}}}"
_FIRST_PLACEHOLDER = 9000
#: A side that is one placeholder and nothing else (spacing, braces and parentheses aside).
_ONLY_A_NAME = re.compile(r"[\s{}()]*Q_\{9\d{3}\}[\s{}()]*")


def _name_pattern(name: str):
    r"""A regex for the typed ``name`` as a whole token: its parts may be separated by any spacing, and it is
    not part of a longer name (``p_L`` is not found in ``p_L2`` or ``p_{LR}``, nor a letter name after a letter).
    Names are found before the display's annotations and text are stripped, so a name may hold ``\mathrm``."""
    body = r"\s*".join(re.escape(part) for part in name.split())
    # a name that starts with a command may follow another command directly (\rho\sigma^2); one that starts with a
    # letter must not continue a word or a command (p_L is not the end of \alpha p_L or of q p_L... written qp_L)
    before = r"(?<!\\)" if name.startswith("\\") else r"(?<![A-Za-z\\])"
    return re.compile(before + body + r"(?![A-Za-z0-9_{])")


def _substitute_names(side: str, patterns) -> str:
    r"""``side`` with each typed name replaced by its placeholder (``patterns``: (regex, placeholder), longest
    name first, so that ``\pi_{t_L}`` is replaced before ``\pi_t``)."""
    for pattern, placeholder, _name in patterns:
        side = pattern.sub(lambda _m, p=placeholder: f" {p} ", side)     # spaced: \rho\sigma^2 -> \rho Q^2
    return side


def _restore_names(side: str, patterns) -> str:
    """``side`` with the placeholders of :func:`_substitute_names` turned back into the typed names (messages)."""
    for _pattern, placeholder, name in patterns:
        side = side.replace(f" {placeholder} ", name).replace(placeholder, name)
    return side.strip()


def _named(names, symbols):
    """``(patterns, readings)`` for a display's ``names`` (typed name -> sympy expression): the regexes that find
    the names and their placeholders, and the placeholders' normalised names -> the expressions they stand for.

    Raises
    ------
    _NotComparable
        If a name is not a non-empty string, or its expression is not a scalar in the checked symbols.
    """
    patterns, readings = [], {}
    for i, name in enumerate(sorted(names, key=lambda n: (-len(str(n)), str(n)))):
        if not isinstance(name, str) or not name.strip():
            raise _NotComparable(f"a display name must be a non-empty string of LaTeX, got {name!r}")
        value = sp.sympify(names[name])
        if not isinstance(value, sp.Expr) or isinstance(value, (sp.MatrixBase, sp.MatrixExpr)):
            raise _NotComparable(f"the name ${name}$ stands for {type(value).__name__}, not a scalar expression")
        if not value.free_symbols <= symbols:
            extra = ", ".join(sorted(str(x) for x in value.free_symbols - symbols))
            raise _NotComparable(f"the name ${name}$ stands for an expression in {extra}, which the check does not use")
        placeholder = _PLACEHOLDER.format(_FIRST_PLACEHOLDER + i)
        typed = _plain_commands(name).strip()     # looked up as the display reads without sizing commands
        patterns.append((_name_pattern(typed), placeholder, name.strip()))
        readings[_normalised(placeholder)] = value
    return patterns, readings


def compare_display(latex, lhs, op, rhs, names=None):
    r"""Compare a typed display with the checked statement ``lhs op rhs``.

    Parameters
    ----------
    latex : str
        The typed display.
    lhs, rhs : sympy objects
        The checked sides.
    op : str
        ``"="``, ``"<="``, ``"<"``, ``">="``, ``">"``, ``"!="`` or ``"not-equiv"``.
    names : dict of str to sympy expression, optional
        The display's own names and what they stand for, e.g. ``{"p_L": N_L / N, r"\Delta i_G": gain}``: each
        name, typed as in ``latex`` (spacing aside), is read as its expression, which must be a scalar in the
        checked symbols. A display in the text's notation (abbreviations, hats, named quantities) is then
        parsed and compared like one written in the checked symbols; the message lists the names so read.

    Returns
    -------
    (status, message)
        ``status`` is ``"compared"``, ``"not compared"`` or ``"disagrees"``; ``message`` says why.
    """
    op = {"==": "=", "not-equiv": "!="}.get(op, op)
    from ._prove import _doit

    lhs, rhs = _doit(lhs), _doit(rhs)      # an unevaluated Derivative is compared as its value
    checked = [lhs, rhs]
    if any(isinstance(e, (sp.MatrixBase, sp.MatrixExpr)) or (isinstance(e, sp.Basic) and e.has(sp.MatrixSymbol))
           for e in checked):
        return "not compared", "matrix statements are not parsed back"
    from sympy.core.function import AppliedUndef

    if any(isinstance(e, sp.Basic) and (e.has(AppliedUndef) or e.has(sp.Derivative)) for e in checked):
        return "not compared", "the checked expressions have undefined functions or derivatives"
    try:
        import antlr4  # noqa: F401  (sympy.parsing.latex needs it)
    except ImportError:
        return "not compared", "the LaTeX parser (antlr4-python3-runtime) is not installed"
    symbols = set().union(*(sp.sympify(e).free_symbols for e in checked))
    hiding = _HIDING.search(latex) or _NEGATED.search(latex)
    if hiding:
        return "disagrees", (f"the display uses ${hiding.group(0)}$, which the checker does not read and which "
                             "can hide or change what is shown: write the relation plainly")
    patterns, readings = [], {}
    if names:
        try:
            patterns, readings = _named(names, symbols)
        except _NotComparable as exc:
            return "not compared", str(exc)
    try:       # the names first: a name may hold what _strip refuses in a formula (\mathrm{err}_m)
        text = _strip(_substitute_names(_plain_commands(latex), patterns) if patterns else latex)
    except _NotComparable as exc:
        return "not compared", str(exc)
    if any(u in text for u in _UNCOMPARABLE):
        return "not compared", "the display uses a relation that is not compared (approx, implies, in, ...)"
    if _states_more(_annotation(latex)):
        return "not compared", "the display states more after its formula (after \\quad or in text) than was checked"
    parse_sides, ops = _split_relations(text)
    if not ops:
        return "not compared", "the display states no relation"
    sides = [_restore_names(side, patterns) for side in parse_sides]      # as typed, for the messages
    if readings and all(_ONLY_A_NAME.fullmatch(side) for side in parse_sides):
        # A = B with A and B given as the checked sides would compare the names' definitions with themselves
        return "not compared", ("every side of the display is one of its names (" + ", ".join(f"${s}$" for s in sides)
                                + "): comparing them would check only what the names were given, nothing shown")
    if len({re.sub(r"\s+", "", side) for side in sides}) == 1 and lhs != rhs:
        return "disagrees", (f"the display's sides are all ${sides[0].strip()}$: it shows nothing of the checked "
                             f"${sp.latex(lhs)}$ and ${sp.latex(rhs)}$")
    by_name = {_normalised(s.name): s for s in symbols}
    by_name.update(readings)
    function_names = frozenset(_normalised(type(f).__name__) for e in checked if isinstance(e, sp.Basic)
                               for f in e.atoms(sp.Function))
    undefined = {}
    parsed, reasons = [], []
    for side in parse_sides:
        try:
            parsed.append(_read(side, by_name, undefined, function_names))
        except _NotComparable as exc:
            parsed.append(None)
            reasons.append(str(exc))
    first, last = parsed[0], parsed[-1]
    # sides that parse to one expression show nothing of the check; with names read as values (a case such as
    # y = -1) equal sides are the statement itself, and the comparison below decides
    if not readings and all(p is not None for p in parsed) and all(p == first for p in parsed[1:]) and lhs != rhs:
        return "disagrees", (f"the display's sides are all ${sides[0]}$: it shows nothing of the checked "
                             f"${sp.latex(lhs)}$ and ${sp.latex(rhs)}$")
    # a chain a = b = c: the checked sides are its ends (the middle is a step of the display)
    if op == "=" or op == "!=":
        wanted = "=" if op == "=" else "!="
        if any(o != wanted for o in ops):
            if len(ops) == 1:
                return "disagrees", f"the display states '{ops[0]}' where '{'=' if op == '=' else 'not identical'}' was checked"
            return "not compared", "a chain of different relations"
        pairs = [(first, lhs, rhs, sides[0]), (last, rhs, lhs, sides[-1])]
    else:
        if len(ops) != 1:
            return "not compared", "a chain of relations"
        typed_kind, t_small, t_big = _oriented(ops[0], first, last)
        kind, c_small, c_big = _oriented(op, lhs, rhs)
        if typed_kind == "<" and kind == "<=":
            return "disagrees", "the display states a strict inequality where a non-strict one was checked"
        if typed_kind not in ("<", "<="):
            return "disagrees", f"the display states '{ops[0]}' where '{op}' was checked"
        typed_small_side = sides[0] if ops[0] in ("<", "<=") else sides[-1]
        typed_big_side = sides[-1] if ops[0] in ("<", "<=") else sides[0]
        pairs = [(t_small, c_small, None, typed_small_side), (t_big, c_big, None, typed_big_side)]
    results = []
    rtol, rounded = _tolerance(text, checked)
    for typed, match, other, source in pairs:
        if typed is None:
            results.append(None)
            continue
        same = _same(typed, match, symbols, rtol=rtol)
        if same is False and other is not None and _same(typed, other, symbols, rtol=rtol):
            same = True  # the display writes the sides the other way round
        if same is False and rounded is not None and (
                _same(typed, match, symbols, rtol=rounded)
                or (other is not None and _same(typed, other, symbols, rtol=rounded))):
            same = None  # equal to the precision of its typed decimals only: perhaps rounded, not compared
            reasons.append(f"the typed side ${source}$ agrees with the checked one to its typed decimals only")
        if same is False:
            return "disagrees", (f"the typed side ${source}$ is not the checked "
                                 f"${sp.latex(match)}$")
        results.append(same)
    if all(r is True for r in results) and all(p is not None for p in parsed):
        # every middle part of a chain equals the ends too
        for middle, source in zip(parsed[1:-1], sides[1:-1]):
            if _same(middle, lhs, symbols, rtol=rtol) is False:
                return "disagrees", f"the step ${source}$ of the display is not the checked ${sp.latex(lhs)}$"
        read_as = (" (reading " + ", ".join(f"${n}$" for n in sorted(names, key=str)) + " as the given expressions)"
                   if names else "")
        return "compared", f"parsed back and equal to the checked sides at random points{read_as}"
    why = "; ".join(reasons) if reasons else "no point could be evaluated, or the sides differ at one point only"
    return "not compared", why
