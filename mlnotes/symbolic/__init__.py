r"""The derivation checker of the book.

Deciders return a :class:`Verdict`; :func:`claim` and :func:`erratum` show verdicts in a chapter,
record them (notebook output metadata, and the side-channel log the verify command reads) and
raise :class:`ClaimError` on failure.

API
---
Deciders (each returns a :class:`Verdict` and never raises on a false statement):

- ``equal(lhs, rhs, *, latex=None, witnesses=(), symmetric=(), points=8, seed=0, ...)``:
  ``lhs = rhs`` for scalar expressions, explicit matrices and ``MatrixSymbol`` algebra;
- ``holds(lhs, op, rhs, *, latex=None, witnesses=(), points=200, seed=0)``: a relation, ``op`` in
  ``">=", ">", "<=", "<", "!=", "=="``;
- ``differs(lhs, rhs, *, latex=None, **options)``: not identically equal (a counterexample);
- ``agree(derived, computed, *, rtol=1e-10, atol=1e-12, latex="", kind="implementation")``:
  a derived formula against the ``mlnotes`` code (``kind="measured"``: two run results, e.g.
  ``mlnotes`` against scikit-learn);
- ``measured(value, op, bound, *, latex=None)``: a number from running code against a bound,
  ``op`` in ``"==", "<=", "<", ">=", ">"`` (e.g. ``measured(run.n_iter_, "<=", 15)``);
- ``bounded(values, upper=None, lower=None, *, latex=None)``: numbers from running code that
  never exceed ``upper`` (and never fall below ``lower``);
- ``agree_gradient(f, grad, points, *, eps=1e-6, rtol=1e-6, atol=0.0, latex="")``: a derived
  gradient against central differences.

Each verdict carries an honest proof ``kind``: *proved* (sympy on symbolic expressions), *exact
computation* (exact arithmetic on exact inputs without symbols), *numeric evidence*
(high-precision evaluation at random points where simplify could not decide: not a proof),
*counterexample* (a refutation), *implementation agrees*, *measured* (a floating-point number
among the inputs of ``equal``/``holds``, or ``measured``/``bounded``/``agree(kind="measured")``)
or *trivial* (the two sides were structurally identical when the check was built: shown with a
warning, never counted as a proof; pass ``sp.Derivative``/``sp.Integral`` unevaluated to make
the computation part of the check). Random points have magnitudes from 1e-6 to 1e6 and respect
the symbols' assumptions.

What the reader sees is what was proved: every verdict renders the checked sides with sympy's
printer (``Verdict.checked``). A typed ``latex=`` display is parsed back and compared with the
checked objects; if it disagrees the statement fails, if it cannot be compared the verdict says
"display not compared" and shows the checked form (``Verdict.display_check``). A display in the text's
notation is compared when ``equal``/``holds`` get ``names={typed name: expression}``: what its named
quantities (``p_L``, ``\Delta i_G``) stand for in the checked symbols.

Recording:

- ``claim(title, *verdicts, proves=None, exercise=None, label=None)``: ``proves`` names the
  labels of the markdown display equations ``$$ ... $$ (label)`` the claim proves (the verdict
  links to them); ``exercise="3"`` marks the check of exercise 3's solution;
- ``erratum(id, source, title, *, notes, correction, explanation="")`` with
  ``Source(notes, lines, section)``: ``notes`` is the notes' number (``"001"``) or file name,
  see :data:`NOTES` (number -> ``NotesFile(number, file, name)``);
- ``summary()``: counts of this execution by proof kind (trivial checks and displays not
  compared included); ``reset()`` starts a new execution (``mlnotes.book.setup()`` calls it);
  ``records()`` the records so far.

Output: each verdict is MyST markdown, a ``{div}`` with classes ``mlnotes-claim`` or
``mlnotes-erratum`` and ``mlnotes-verdict-ok``/``-fail``/``-trivial``: a headline (mark, title,
proof kinds as inline-literal badges, ``{eq}`` links to the proven equations) and a
``{dropdown}`` with each statement, its checked form and tolerances (open on failure); styled
by ``book/_assets/claims.css``. Records are appended as JSON lines to the file named by the
environment variable ``MLNOTES_VERDICT_LOG`` (:data:`VERDICT_LOG_ENV`) when it is set.

Sympy helpers the chapters share live in :mod:`mlnotes.symbolic.functions` (``sigmoid``,
``logit``, ``softplus``, ``normal_pdf``, ``std_normal_pdf``, ``std_normal_cdf``,
``beta_function``, ``squared_norm``, ``norm``, ``hinge``, ``indicator``). The numerical
gradient checker (``numerical_gradient``, ``check_gradient``, ...) lives in :mod:`mlnotes.utils`
and is re-exported here.

>>> import sympy as sp
>>> a, b = sp.symbols("a b", real=True)
>>> equal((a + b)**2, a**2 + 2*a*b + b**2).kind
'proved'
>>> equal((a + b)**2, a**2 + b**2).holds
False
>>> measured(7, "<=", 15).kind
'measured'
"""

from . import functions
from ._differs import differs
from ._gradcheck import (GradientCheck, GradientCheckError, agree_gradient, check_gradient, numerical_gradient,
                         numerical_jacobian, optimal_step)
from ._measure import bounded, measured
from ._prove import KINDS, PROOF_KINDS, Verdict, agree, checked_latex, equal, explicit_matrix, holds
from ._record import (NOTES, RECORD_KEY, VERDICT_LOG_ENV, ClaimError, NotesFile, Source, claim, count, erratum,
                      records, reset, summary)

__all__ = ["Verdict", "KINDS", "PROOF_KINDS", "equal", "holds", "differs", "agree", "measured", "bounded",
           "explicit_matrix", "checked_latex", "claim", "erratum", "summary", "reset", "records", "count",
           "Source", "ClaimError", "NOTES", "NotesFile", "RECORD_KEY", "VERDICT_LOG_ENV", "functions",
           "numerical_gradient", "numerical_jacobian", "check_gradient", "GradientCheck", "GradientCheckError",
           "agree_gradient", "optimal_step"]
