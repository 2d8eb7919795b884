"""The derivation checker of the book.

Deciders return a :class:`Verdict`; :func:`claim` and :func:`erratum` show verdicts in a chapter,
record them in the notebook's output metadata and raise :class:`ClaimError` on failure.

Derivatives are also checked numerically: :func:`numerical_gradient` and :func:`numerical_jacobian`
(central differences), :func:`check_gradient` (an analytic gradient against them) and
:func:`agree_gradient` (the same as a :class:`Verdict` for :func:`claim`).

>>> import sympy as sp
>>> a, b = sp.symbols("a b", real=True)
>>> equal((a + b)**2, a**2 + 2*a*b + b**2).holds
True
>>> equal((a + b)**2, a**2 + b**2).holds
False
"""

from ._differs import differs
from ._gradcheck import (GradientCheck, GradientCheckError, agree_gradient, check_gradient, numerical_gradient,
                         numerical_jacobian, optimal_step)
from ._prove import Verdict, agree, equal, explicit_matrix, holds
from ._record import NOTES, RECORD_KEY, ClaimError, Source, claim, erratum, summary

__all__ = ["Verdict", "equal", "holds", "differs", "agree", "explicit_matrix", "claim", "erratum", "summary",
           "Source", "ClaimError", "NOTES", "RECORD_KEY",
           "numerical_gradient", "numerical_jacobian", "check_gradient", "GradientCheck", "GradientCheckError",
           "agree_gradient", "optimal_step"]
