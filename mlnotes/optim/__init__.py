"""Optimisation methods of chapters 6-8: every solver of the library lives here, once.

The objective contract
----------------------
Every smooth objective of the library, and every objective a solver here minimises, has the form

``objective(w, X, y, *penalty_and_options) -> (value, grad)``

- ``w``: the parameters, a float array of shape (p,) (a linear model's weights, followed by its
  intercept ``b`` when it has one; several outputs: one row ``[w_k, b_k]`` per output, concatenated);
- then the data, ``X`` of shape (n_samples, n_features) and ``y`` (targets, labels or one-hot rows),
  then ``sample_weight`` where the model has weights;
- then the penalty, named as scikit-learn names it for that estimator: ``alpha`` (``Ridge``, ``Lasso``,
  ``PoissonRegressor``: a multiplier of the penalty) or ``C`` (``LogisticRegression``, ``LinearSVC``: a
  multiplier of the data term), then options such as ``fit_intercept``;
- it returns the value (a float) and the gradient with respect to ``w`` (an array of the shape of ``w``).
  Where a solver needs second derivatives, the model also provides ``hessian(w, X, y, ...)`` with the
  same arguments, returning the (p, p) Hessian (or a Hessian-vector product ``hessp(w, v, X, y, ...)``).
  A non-smooth objective returns its value only, and has a ``..._subgradient`` with the same arguments.

Examples: :func:`mlnotes.linear.logistic_objective` (with :func:`mlnotes.linear.logistic_hessian`),
:func:`mlnotes.linear.poisson_objective`, :func:`mlnotes.linear.probit_objective`,
:func:`mlnotes.linear.lasso_objective`, :func:`mlnotes.linear.svm_primal_objective`.
A model's objective lives with the model (in its family's subpackage); the solver that minimises it lives
here. Solvers name their options ``step_size`` (a fixed step, or a schedule), ``max_iter``, ``tol``
(stop when the Euclidean norm of the gradient is at most ``tol``) and return an :class:`OptimizeResult`.

The solvers
-----------
- the models' entry point: :func:`minimize` (``objective`` in the contract's form, by L-BFGS on
  rescaled weights, see :func:`column_scale`, optionally within box ``bounds``, or by damped Newton), which
  checks the stopping rule itself (the norm of the gradient, projected onto the box where there is one);
- least squares, in closed form: :func:`least_squares` (orthogonal factorisation, normal equations,
  ridge by Cholesky or SVD), the solver of every least-squares fit of the library; linear programs:
  :func:`linear_program` (HiGHS; least absolute deviations, chapter 5);
- deterministic: :func:`gradient_descent` (fixed step, Armijo :func:`backtracking` or
  :func:`exact_line_search`), :func:`newton` (pure, or damped by the Armijo line search: the Newton
  method that ``LogisticRegression(solver="newton")`` runs), :func:`projected_gradient_descent` over a
  convex set, plain or accelerated (FISTA; the lasso as a QP, chapter 10); the bounded scalar line search
  :func:`minimize_scalar_bounded` (the step of :func:`mlnotes.ensemble.fsam`, a Bayes action of
  :func:`mlnotes.risk.bayes_action`);
- stochastic: :func:`sgd` on minibatch gradients, with step-size schedules (:func:`constant`,
  :func:`inverse_time`, :func:`inverse_sqrt`, :func:`geometric`); data parallelism:
  :func:`data_parallel_gradient` over :func:`shards` of a minibatch;
- optimisers with one ``step(x, g)`` interface: :class:`GradientStep`, :class:`Momentum`,
  :class:`Nesterov`, :class:`AdaGrad`, :class:`RMSProp`, :class:`Adam`, driven by :func:`run` or :func:`sgd`;
  ``x`` is one array or a list of parameter arrays (a network's weights and biases);
- convex duality (chapter 7): the dual function of a quadratic program (:func:`qp_dual_function`,
  :func:`qp_dual_gradient`, :func:`qp_lagrangian_minimizer`), projected dual ascent (:func:`qp_dual_ascent`)
  and the KKT residuals of a primal-dual pair (:func:`qp_kkt_residuals`); the primal-dual interior-point
  method (:func:`qp_interior_point`, Mehrotra's predictor-corrector, with a model's own Newton solver where
  its constraints have structure: :class:`mlnotes.linear.MulticlassSVM`);
- non-smooth (chapter 8): :func:`subgradient_descent`, which returns the best iterate,
  :func:`subgradient_gap` and :func:`polyak_step`.

Every method returns an :class:`OptimizeResult`.
"""

from ._descent import (LineSearchError, backtracking, exact_line_search, gradient_descent,
                       minimize_scalar_bounded, newton)
from ._distributed import data_parallel_gradient, shards
from ._least_squares import least_squares
from ._linear_program import linear_program
from ._minimize import column_scale, minimize
from ._interior_point import qp_interior_point, shifted_cholesky
from ._projected import projected_gradient_descent
from ._duality import (KKTResiduals, qp_dual_ascent, qp_dual_function, qp_dual_gradient, qp_kkt_residuals,
                       qp_lagrangian_minimizer)
from ._nonsmooth import polyak_step, subgradient_gap
from ._optimizers import AdaGrad, Adam, GradientStep, Momentum, Nesterov, Optimizer, RMSProp, run
from ._result import OptimizeResult
from ._schedules import constant, geometric, inverse_sqrt, inverse_time
from ._stochastic import minibatches, sgd
from ._subgradient import subgradient_descent

__all__ = ["OptimizeResult", "minimize", "column_scale", "least_squares", "linear_program", "gradient_descent", "backtracking", "exact_line_search", "minimize_scalar_bounded", "newton", "sgd", "minibatches",
           "LineSearchError", "shards", "data_parallel_gradient",
           "subgradient_descent", "constant", "inverse_time", "inverse_sqrt", "geometric",
           "Optimizer", "GradientStep", "Momentum", "Nesterov", "AdaGrad", "RMSProp", "Adam", "run",
           "qp_lagrangian_minimizer", "qp_dual_function", "qp_dual_gradient", "qp_dual_ascent", "KKTResiduals",
           "qp_kkt_residuals", "subgradient_gap", "polyak_step", "qp_interior_point", "shifted_cholesky",
           "projected_gradient_descent"]
