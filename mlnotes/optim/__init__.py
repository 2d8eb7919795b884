"""Optimisation methods of chapters 6-8, returning the full history of iterates for plotting.

- deterministic: :func:`gradient_descent` (fixed step or Armijo :func:`backtracking`), :func:`newton`;
- stochastic: :func:`sgd` on minibatch gradients, with step-size schedules (:func:`constant`,
  :func:`inverse_time`, :func:`inverse_sqrt`, :func:`geometric`);
- optimisers with one ``step(x, g)`` interface: :class:`GradientStep`, :class:`Momentum`,
  :class:`Nesterov`, :class:`AdaGrad`, :class:`RMSProp`, :class:`Adam`, driven by :func:`run` or :func:`sgd`;
- non-smooth: :func:`subgradient_descent`, which returns the best iterate.

Every method returns an :class:`OptimizeResult`.
"""

from ._descent import backtracking, gradient_descent, newton
from ._optimizers import AdaGrad, Adam, GradientStep, Momentum, Nesterov, Optimizer, RMSProp, run
from ._result import OptimizeResult
from ._schedules import constant, geometric, inverse_sqrt, inverse_time
from ._stochastic import minibatches, sgd
from ._subgradient import subgradient_descent

__all__ = ["OptimizeResult", "gradient_descent", "backtracking", "newton", "sgd", "minibatches",
           "subgradient_descent", "constant", "inverse_time", "inverse_sqrt", "geometric",
           "Optimizer", "GradientStep", "Momentum", "Nesterov", "AdaGrad", "RMSProp", "Adam", "run"]
