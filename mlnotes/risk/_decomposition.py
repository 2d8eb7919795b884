r"""The excess-risk decomposition, computed exactly for polynomial least squares.

The data distribution is known: :math:`X \sim \mathcal U(0, 1)` and :math:`Y = f^*(X) + \varepsilon` with
:math:`\varepsilon \sim \mathcal N(0, \sigma^2)` independent of :math:`X`. Under the square loss the Bayes
decision function is :math:`f^*` with Bayes risk :math:`\sigma^2`, and every risk is an integral over
:math:`[0, 1]`:

.. math:: R(f) = \sigma^2 + \int_0^1 (f(x) - f^*(x))^2\,dx .

Polynomials of degree :math:`p` are written in the orthonormal shifted Legendre basis
:math:`\phi_k(x) = \sqrt{2k+1}\,P_k(2x - 1)`. Then the best polynomial :math:`f_{\mathcal F}` has the
coefficients :math:`c_k = \int_0^1 f^*\phi_k\,dx` and, by Pythagoras, a polynomial with coefficients
:math:`w` has :math:`R(w) = R(f_{\mathcal F}) + \lVert w - c\rVert^2`. Integrals are computed by
Gauss-Legendre quadrature (exact for polynomials of degree below twice the number of nodes). Derived in
chapter 4, *Statistical learning theory*.
"""

from dataclasses import dataclass
from numbers import Integral

import numpy as np
from numpy.polynomial import legendre

from ..optim import gradient_descent, least_squares
from ..utils.validation import as_float_vector, check_scalar

__all__ = ["legendre_features", "RegressionProblem", "fit_polynomial", "ExcessRiskDecomposition",
           "excess_risk_decomposition"]


def _check_int(value, name, low):
    """``value`` as an int: ``TypeError`` if it is not an integer (bool or float included), ``ValueError`` if < low."""
    return check_scalar(value, name, Integral, min_val=low)


def legendre_features(x, degree):
    r"""The orthonormal shifted Legendre features :math:`\phi_k(x) = \sqrt{2k+1}\,P_k(2x-1)`, :math:`k \le p`.

    Parameters
    ----------
    x : array of shape (n_samples,)
        Inputs (the basis is orthonormal on :math:`[0, 1]`).
    degree : int >= 0
        The degree :math:`p`.

    Returns
    -------
    Phi : array of shape (n_samples, degree + 1)
        Column :math:`k` is :math:`\phi_k(x)`; column 0 is the constant 1.

    Notes
    -----
    :math:`\int_0^1 \phi_j(x)\phi_k(x)\,dx = \delta_{jk}` (checked with sympy in chapter 4, *Statistical
    learning theory*), so the features of :math:`X \sim \mathcal U(0, 1)` have
    :math:`\mathbb E[\phi(X)\phi(X)^\top] = I`.
    """
    x = as_float_vector(x, "x")
    degree = _check_int(degree, "degree", 0)
    return legendre.legvander(2.0 * x - 1.0, degree) * np.sqrt(2.0 * np.arange(degree + 1) + 1.0)


def _values_at(func, x, name):
    """``func(x)`` as a float array, checked: finite, of the shape of ``x`` (array of shape (n,)); the
    message names the callable ``name``."""
    value = np.asarray(func(x), dtype=float)
    if value.shape != x.shape or not np.isfinite(value).all():
        raise ValueError(f"{name}(x) must return finite values of shape {x.shape}")
    return value


def _sine(x):
    return np.sin(2.0 * np.pi * x)


class RegressionProblem:
    r"""A known regression distribution: :math:`X \sim \mathcal U(0,1)`, :math:`Y = f^*(X) + \varepsilon`.

    Parameters
    ----------
    target : callable, optional
        The regression function :math:`f^*`, vectorised (array of shape (n,) -> array of shape (n,)).
        Default :math:`\sin(2\pi x)`.
    noise : float > 0, default 0.3
        The standard deviation :math:`\sigma` of the Gaussian noise.
    n_nodes : int, default 100
        Gauss-Legendre nodes for the integrals over :math:`[0, 1]`.

    Attributes
    ----------
    bayes_risk : float
        :math:`R(f^*) = \sigma^2`, the smallest risk of any decision function under the square loss.
    """

    def __init__(self, target=None, *, noise=0.3, n_nodes=100):
        self.target = _sine if target is None else target
        if not callable(self.target):
            raise TypeError(f"target must be a callable f(x), got {type(target).__name__}")
        self.noise = check_scalar(noise, "noise", low=0.0, include_low=False)
        self.n_nodes = _check_int(n_nodes, "n_nodes", 2)
        t, weights = legendre.leggauss(self.n_nodes)
        self._nodes, self._weights = (t + 1.0) / 2.0, weights / 2.0      # on [0, 1]
        self._f_nodes = self._call_target(self._nodes)
        self.bayes_risk = self.noise**2

    def _call_target(self, x):
        return _values_at(self.target, x, "target")

    def sample(self, n_samples, random_state=None):
        """Draw ``n_samples`` i.i.d. pairs.

        Returns
        -------
        x, y : arrays of shape (n_samples,)
        """
        n_samples = _check_int(n_samples, "n_samples", 1)
        rng = np.random.default_rng(random_state)
        x = rng.uniform(0.0, 1.0, n_samples)
        return x, self._call_target(x) + self.noise * rng.standard_normal(n_samples)

    def integrate(self, func):
        r"""The integral :math:`\int_0^1 g(x)\,dx = \mathbb E\,g(X)` by the problem's Gauss-Legendre rule.

        Parameters
        ----------
        func : callable
            Vectorised :math:`g`: array of shape (n,) -> array of shape (n,).

        Returns
        -------
        float
            Exact for polynomial :math:`g` of degree below ``2 * n_nodes``; accurate for smooth ones.

        Notes
        -----
        Chapter 4, *Statistical learning theory*, uses it for the large-sample limit of the estimation
        error, :math:`\mathbb E[(\sigma^2 + r_p(X)^2)\lVert\phi(X)\rVert^2]` with
        :math:`r_p = f^* - f_{\mathcal F_p}`.
        """
        return float(self._weights @ _values_at(func, self._nodes, "func"))

    def risk(self, predict):
        r"""The square-loss risk :math:`R(f) = \sigma^2 + \int_0^1 (f - f^*)^2\,dx` of a predictor.

        Parameters
        ----------
        predict : callable
            Vectorised :math:`f`: array of shape (n,) -> array of shape (n,).

        Returns
        -------
        float
            Exact for polynomial :math:`f, f^*` of degree below ``n_nodes``; accurate for smooth ones.
        """
        f = _values_at(predict, self._nodes, "predict")
        return float(self.bayes_risk + self._weights @ (f - self._f_nodes) ** 2)

    def best_coefficients(self, degree):
        r"""The coefficients :math:`c_k = \int_0^1 f^*(x)\phi_k(x)\,dx` of the best polynomial :math:`f_{\mathcal F}`.

        Returns
        -------
        c : array of shape (degree + 1,)
        """
        return self._weights @ (legendre_features(self._nodes, degree) * self._f_nodes[:, None])

    def approximation_error(self, degree):
        r"""The approximation error :math:`R(f_{\mathcal F}) - R(f^*) = \int_0^1 (f_{\mathcal F} - f^*)^2\,dx`."""
        c = self.best_coefficients(degree)
        residual = legendre_features(self._nodes, degree) @ c - self._f_nodes
        return float(self._weights @ residual**2)

    def polynomial_risk(self, coef):
        r"""The risk :math:`R(f_{\mathcal F}) + \lVert w - c\rVert^2` of polynomials with coefficients :math:`w`.

        Parameters
        ----------
        coef : array of shape (degree + 1,) or (..., degree + 1)
            Coefficients in the basis :func:`legendre_features`.

        Returns
        -------
        float or array of shape (...)
        """
        w = np.asarray(coef, dtype=float)
        if w.ndim == 0 or w.shape[-1] < 1 or not np.isfinite(w).all():
            raise ValueError(f"coef must be a finite array of shape (..., degree + 1), got shape {w.shape}")
        degree = w.shape[-1] - 1
        gap = np.sum((w - self.best_coefficients(degree)) ** 2, axis=-1)
        risk = self.bayes_risk + self.approximation_error(degree) + gap
        return float(risk) if np.ndim(risk) == 0 else risk


def fit_polynomial(x, y, degree, *, n_iter=None):
    r"""Fit a polynomial of degree :math:`p` by least squares, in the basis :func:`legendre_features`.

    Parameters
    ----------
    x, y : arrays of shape (n_samples,)
    degree : int >= 0
    n_iter : int, optional
        ``None``: the empirical risk minimiser :math:`\hat f_n`, by :func:`mlnotes.optim.least_squares`
        (orthogonal factorisation; the minimum-norm one when ``n_samples <= degree``).
        An integer: :math:`\tilde f_n`, gradient descent (:func:`mlnotes.optim.gradient_descent`) on
        :math:`\hat R_n(w) = \frac1n\lVert\Phi w - y\rVert^2` from :math:`w = 0` with the step
        :math:`1/L`, stopped after ``n_iter`` steps.

    Returns
    -------
    coef : array of shape (degree + 1,)
    """
    x = as_float_vector(x, "x")
    y = as_float_vector(y, "y", x.shape[0])
    Phi = legendre_features(x, degree)
    if n_iter is None:
        return least_squares(Phi, y[:, None], tol=1e-6)[0][:, 0]
    n_iter = _check_int(n_iter, "n_iter", 1)
    n = x.shape[0]
    L = 2.0 / n * np.linalg.eigvalsh(Phi.T @ Phi)[-1]          # the gradient's Lipschitz constant
    result = gradient_descent(lambda w: np.sum((Phi @ w - y) ** 2) / n,
                              lambda w: 2.0 / n * Phi.T @ (Phi @ w - y),
                              np.zeros(degree + 1), step_size=1.0 / L, tol=0.0, max_iter=n_iter, warn=False)
    return result.x


@dataclass(frozen=True)
class ExcessRiskDecomposition:
    r"""Risks of :func:`excess_risk_decomposition`, per degree, sample size and repetition.

    Attributes
    ----------
    degrees : array of shape (n_degrees,)
    n_samples : array of shape (n_sizes,)
    bayes_risk : float
        :math:`R(f^*)`.
    approximation : array of shape (n_degrees,)
        :math:`R(f_{\mathcal F}) - R(f^*) \ge 0`.
    estimation : array of shape (n_degrees, n_sizes, n_repeats)
        :math:`R(\hat f_n) - R(f_{\mathcal F}) \ge 0`.
    optimisation : array of shape (n_degrees, n_sizes, n_repeats) or None
        :math:`R(\tilde f_n) - R(\hat f_n)` for gradient descent stopped early (either sign), if asked.
    """

    degrees: np.ndarray
    n_samples: np.ndarray
    bayes_risk: float
    approximation: np.ndarray
    estimation: np.ndarray
    optimisation: np.ndarray | None = None

    @property
    def excess(self):
        r"""Excess risk :math:`R(f) - R(f^*)` of the returned fit (:math:`\tilde f_n` if computed, else
        :math:`\hat f_n`), the sum of the components; shape (n_degrees, n_sizes, n_repeats)."""
        total = self.approximation[:, None, None] + self.estimation
        return total if self.optimisation is None else total + self.optimisation


def excess_risk_decomposition(problem, degrees, n_samples, *, n_repeats=20, n_iter=None, random_state=0):
    r"""Simulate the excess-risk decomposition of polynomial least squares on a known distribution.

    For every repetition, one sample of the largest size is drawn from ``problem``, and every smaller size
    uses its first observations (nested samples). For every degree and size, the least-squares fit
    :math:`\hat f_n` (and optionally an early-stopped gradient-descent fit :math:`\tilde f_n`) is computed
    by :func:`fit_polynomial`, and its risk exactly by :meth:`RegressionProblem.polynomial_risk`.

    Parameters
    ----------
    problem : RegressionProblem
    degrees : sequence of int >= 0
        Polynomial degrees :math:`p` (the nested classes :math:`\mathcal F_p`).
    n_samples : sequence of int >= 1
        Sample sizes :math:`n`.
    n_repeats : int >= 1, default 20
        Independent samples per size.
    n_iter : int, optional
        Gradient-descent steps for :math:`\tilde f_n`; ``None`` skips the optimisation error.
    random_state : int, optional

    Returns
    -------
    ExcessRiskDecomposition

    Notes
    -----
    Derived in chapter 4, *Statistical learning theory*:
    :math:`R(\tilde f_n) - R(f^*) = [R(\tilde f_n) - R(\hat f_n)] + [R(\hat f_n) - R(f_{\mathcal F})]
    + [R(f_{\mathcal F}) - R(f^*)]`, optimisation plus estimation plus approximation error.
    """
    if not isinstance(problem, RegressionProblem):
        raise TypeError(f"problem must be a RegressionProblem, got {type(problem).__name__}")
    degrees = np.array([_check_int(p, "each degree", 0) for p in np.atleast_1d(degrees)], dtype=int)
    sizes = np.array([_check_int(n, "each sample size", 1) for n in np.atleast_1d(n_samples)], dtype=int)
    n_repeats = _check_int(n_repeats, "n_repeats", 1)
    rng = np.random.default_rng(random_state)
    samples = [problem.sample(int(sizes.max()), rng) for _ in range(n_repeats)]
    approximation = np.array([problem.approximation_error(p) for p in degrees])
    c = [problem.best_coefficients(p) for p in degrees]
    estimation = np.empty((degrees.size, sizes.size, n_repeats))
    optimisation = None if n_iter is None else np.empty_like(estimation)
    for i, p in enumerate(degrees):
        for j, n in enumerate(sizes):
            for m, (x, y) in enumerate(samples):
                w_hat = fit_polynomial(x[:n], y[:n], p)
                estimation[i, j, m] = np.sum((w_hat - c[i]) ** 2)
                if n_iter is not None:
                    w_tilde = fit_polynomial(x[:n], y[:n], p, n_iter=n_iter)
                    optimisation[i, j, m] = np.sum((w_tilde - c[i]) ** 2) - estimation[i, j, m]
    return ExcessRiskDecomposition(degrees, sizes, problem.bayes_risk, approximation, estimation, optimisation)
