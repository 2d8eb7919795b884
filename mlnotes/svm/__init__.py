"""Support vector machines (chapter 14, *Support vector machines*).

``SVC`` and ``SVR`` (the interface of scikit-learn's, solved by SMO, kernels from :mod:`mlnotes.kernels`), the
steps of SMO (``smo_step``, the pair update; ``smo``, the solver; ``intercept``), the dual objective and the KKT
case table (``svm_dual_objective``, ``kkt_violations``), ``LinearSVM`` (the primal trained by subgradient
descent) and ``sdca`` (stochastic dual coordinate ascent). SMO, SDCA and epsilon-SVR are additions to the notes.
"""

from ._classes import SVC, SVR
from ._linear import LinearSVM, linear_svm_objective, linear_svm_subgradient
from ._sdca import SDCAResult, sdca
from ._smo import KernelRowCache, intercept, kkt_violations, smo, smo_step, svm_dual_objective

__all__ = ["SVC", "SVR", "LinearSVM", "linear_svm_objective", "linear_svm_subgradient", "sdca", "SDCAResult",
           "smo_step", "smo", "intercept", "svm_dual_objective", "kkt_violations",
           "KernelRowCache"]
