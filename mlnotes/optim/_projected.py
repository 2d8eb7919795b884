r"""Projected gradient descent, plain or accelerated (FISTA), for a smooth objective over a convex set.

.. math:: x_{k+1} = \Pi_{\mathcal C}\big(y_k - \eta\,\nabla f(y_k)\big), \qquad
    y_{k+1} = x_{k+1} + \frac{t_k - 1}{t_{k+1}}\,(x_{k+1} - x_k), \quad t_{k+1} = \frac{1 + \sqrt{1 + 4t_k^2}}{2},

with :math:`y_k = x_k` for the plain method. With :math:`\eta = 1/L` (:math:`L` the Lipschitz constant of the
gradient) the plain method's error falls as :math:`O(1/k)` and the accelerated one's as :math:`O(1/k^2)`.
Chapter 10 uses it on the lasso written as a quadratic program over the orthant
(:func:`mlnotes.linear.lasso_qp`).
"""

import numpy as np

from ._result import History
from ._validation import as_start_point, check_iterations


def projected_gradient_descent(grad, x0, project, *, step_size, accelerated=False, certificate=None, tol=1e-8,
                               max_iter=1000, warn=True):
    r"""Minimise a smooth function over a convex set by projected gradient steps.

    Parameters
    ----------
    grad : callable
        ``grad(x)``, the gradient of the objective, an array of the shape of ``x``.
    x0 : array of shape (d,)
        Start point (projected first).
    project : callable
        ``project(z)``, the Euclidean projection :math:`\Pi_{\mathcal C}(z)` onto the feasible set (e.g.
        ``lambda z: np.maximum(z, 0)`` for the non-negative orthant).
    step_size : float > 0
        :math:`\eta`, e.g. :math:`1/L`.
    accelerated : bool, default False
        Nesterov's momentum (FISTA).
    certificate : callable, optional
        ``certificate(x) -> float``, a bound on the error of the iterate (e.g. a duality gap); the method stops
        when it is at most ``tol``. Default: the norm of the gradient mapping :math:`\|x_{k+1} - y_k\| / \eta`,
        which is zero exactly at a minimiser.
    tol : float >= 0, default 1e-8
    max_iter : int, default 1000
    warn : bool, default True
        Warn (``ConvergenceWarning``) when the stopping rule is not met after ``max_iter`` steps.

    Returns
    -------
    OptimizeResult
        ``grad_norms`` holds the stopping measure at every iterate (the certificate, or the gradient mapping's
        norm, NaN at the start); ``values`` is NaN (no objective is evaluated).
    """
    x = project(as_start_point(x0))
    max_iter, tol = check_iterations(max_iter, tol)
    eta = float(step_size)
    if not eta > 0:
        raise ValueError(f"step_size must be > 0, got {step_size!r}")
    error = certificate(x) if certificate is not None else np.inf
    history = History(x, np.nan, error if certificate is not None else np.nan)
    look, t = x, 1.0                                  # the point where the gradient is taken
    while error > tol and len(history.step_sizes) < max_iter:
        x_new = project(look - eta * grad(look))
        if certificate is None:
            error = float(np.linalg.norm(x_new - look)) / eta
        if accelerated:
            t_new = (1 + np.sqrt(1 + 4 * t * t)) / 2
            look = x_new + (t - 1) / t_new * (x_new - x)
            t = t_new
        else:
            look = x_new
        x = x_new
        if certificate is not None:
            error = certificate(x)
        history.append(x, np.nan, error, eta)
    converged = error <= tol
    message = (f"the stopping measure {error:.3g} <= tol = {tol:g}" if converged else
               f"projected gradient did not converge in max_iter = {max_iter} steps: the stopping measure "
               f"{error:.3e} > tol = {tol:.3e}; increase max_iter")
    return history.result(converged, message, warn=warn)
