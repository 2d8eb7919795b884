"""Optimisation methods of chapters 6-8, returning the full history of iterates for plotting.

- deterministic: :func:`gradient_descent` (fixed step, Armijo :func:`backtracking` or
  :func:`exact_line_search`), :func:`newton`;
- stochastic: :func:`sgd` on minibatch gradients, with step-size schedules (:func:`constant`,
  :func:`inverse_time`, :func:`inverse_sqrt`, :func:`geometric`); data parallelism:
  :func:`data_parallel_gradient` over :func:`shards` of a minibatch;
- optimisers with one ``step(x, g)`` interface: :class:`GradientStep`, :class:`Momentum`,
  :class:`Nesterov`, :class:`AdaGrad`, :class:`RMSProp`, :class:`Adam`, driven by :func:`run` or :func:`sgd`;
- convex duality (chapter 7): the dual function of a quadratic program (:func:`qp_dual_function`,
  :func:`qp_dual_gradient`, :func:`qp_lagrangian_minimizer`), projected dual ascent (:func:`qp_dual_ascent`)
  and the KKT residuals of a primal-dual pair (:func:`qp_kkt_residuals`);
- non-smooth (chapter 8): :func:`subgradient_descent`, which returns the best iterate, with the objectives
  and subgradients of the lasso and the linear SVM (:func:`lasso_objective`, :func:`lasso_subgradient`,
  :func:`svm_primal_objective`, :func:`svm_primal_subgradient`), :func:`subgradient_gap` and :func:`polyak_step`.

Every method returns an :class:`OptimizeResult`.
"""

from ._descent import LineSearchError, backtracking, exact_line_search, gradient_descent, newton
from ._distributed import data_parallel_gradient, shards
from ._minimize import column_scale, minimize
from ._duality import (KKTResiduals, qp_dual_ascent, qp_dual_function, qp_dual_gradient, qp_kkt_residuals,
                       qp_lagrangian_minimizer)
from ._nonsmooth import (lasso_objective, lasso_subgradient, polyak_step, subgradient_gap, svm_primal_objective,
                         svm_primal_subgradient)
from ._optimizers import AdaGrad, Adam, GradientStep, Momentum, Nesterov, Optimizer, RMSProp, run
from ._result import OptimizeResult
from ._schedules import constant, geometric, inverse_sqrt, inverse_time
from ._stochastic import minibatches, sgd
from ._subgradient import subgradient_descent

__all__ = ["OptimizeResult", "minimize", "column_scale", "gradient_descent", "backtracking", "exact_line_search", "newton", "sgd", "minibatches",
           "LineSearchError", "shards", "data_parallel_gradient",
           "subgradient_descent", "constant", "inverse_time", "inverse_sqrt", "geometric",
           "Optimizer", "GradientStep", "Momentum", "Nesterov", "AdaGrad", "RMSProp", "Adam", "run",
           "qp_lagrangian_minimizer", "qp_dual_function", "qp_dual_gradient", "qp_dual_ascent", "KKTResiduals",
           "qp_kkt_residuals", "lasso_objective", "lasso_subgradient", "svm_primal_objective",
           "svm_primal_subgradient", "subgradient_gap", "polyak_step"]
