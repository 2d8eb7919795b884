"""The result of an iterative optimiser: the solution and its full history, for plotting."""

import warnings
from dataclasses import dataclass, field

import numpy as np


@dataclass
class OptimizeResult:
    """What an optimiser of :mod:`mlnotes.optim` returns.

    Attributes
    ----------
    x : array of shape (d,)
        The returned point (the last iterate, or the best one for subgradient descent).
    fun : float
        The objective at ``x`` (NaN when the method was run without an objective).
    n_iter : int
        Number of updates taken.
    converged : bool
        Whether the stopping rule was met (False after ``max_iter`` or on divergence).
    message : str
        Why the method stopped.
    path : array of shape (n_iter + 1, d)
        Every iterate, starting with ``x0``.
    values : array of shape (n_iter + 1,)
        The objective at every iterate (NaN where no objective was given).
    grad_norms : array of shape (n_iter + 1,)
        The Euclidean norm of the (sub)gradient at every iterate (NaN where not computed).
    step_sizes : array of shape (n_iter,)
        The step size used by each update.
    dual : array, optional
        The Lagrange multipliers at ``x``, for a constrained method (:func:`qp_interior_point`); else None.
    """

    x: np.ndarray
    fun: float
    n_iter: int
    converged: bool
    message: str
    path: np.ndarray = field(repr=False)
    values: np.ndarray = field(repr=False)
    grad_norms: np.ndarray = field(repr=False)
    step_sizes: np.ndarray = field(repr=False)
    dual: np.ndarray = field(default=None, repr=False)


class History:
    """Collects iterates while an optimiser runs and builds the :class:`OptimizeResult`."""

    def __init__(self, x0, fun0=np.nan, grad_norm0=np.nan):
        self.path, self.values, self.grad_norms, self.step_sizes = [x0.copy()], [fun0], [grad_norm0], []

    def append(self, x, fun=np.nan, grad_norm=np.nan, step_size=np.nan):
        self.path.append(x.copy())
        self.values.append(fun)
        self.grad_norms.append(grad_norm)
        self.step_sizes.append(step_size)

    def result(self, converged, message, *, x=None, fun=None, warn=True):
        """The :class:`OptimizeResult`; warns with ``ConvergenceWarning`` when not converged."""
        if not converged and warn:
            # scikit-learn's own class (so code catching it, and its estimator checks, see it), imported only
            # when a warning is due: importing sklearn costs about a second to a chapter that does not use it
            from sklearn.exceptions import ConvergenceWarning
            warnings.warn(message, ConvergenceWarning, stacklevel=3)
        x = self.path[-1] if x is None else x
        fun = self.values[-1] if fun is None else fun
        return OptimizeResult(x=x.copy(), fun=float(fun), n_iter=len(self.step_sizes), converged=converged,
                              message=message, path=np.array(self.path), values=np.array(self.values, dtype=float),
                              grad_norms=np.array(self.grad_norms, dtype=float),
                              step_sizes=np.array(self.step_sizes, dtype=float))
