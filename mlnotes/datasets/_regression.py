"""Synthetic regression data with a known ground truth."""

from numbers import Integral

import numpy as np

from ..utils.validation import check_scalar


def _check_count(value, name, low=1):
    return check_scalar(value, name, Integral, min_val=low)


def make_linear_regression(n_samples=100, n_features=1, *, noise=1.0, w=None, b=0.0, x_scale=1.0,
                           random_state=0):
    r"""Draw data from the model :math:`y_i = x_i^\top w + b + \epsilon_i`, :math:`\epsilon_i \sim \mathcal N(0, \text{noise}^2)`.

    Parameters
    ----------
    n_samples, n_features : int
    noise : float, default 1.0
        Standard deviation of the Gaussian noise (0 for exact data).
    w : array of shape (n_features,), optional
        True weights; drawn from a standard normal if omitted.
    b : float, default 0.0
        True intercept.
    x_scale : float, default 1.0
        Inputs are uniform on ``[-x_scale, x_scale]``.
    random_state : int
        Seed of ``np.random.default_rng``.

    Returns
    -------
    X : ndarray of shape (n_samples, n_features)
    y : ndarray of shape (n_samples,)
    w : ndarray of shape (n_features,)
        The true weights.
    """
    n_samples = _check_count(n_samples, "n_samples")
    n_features = _check_count(n_features, "n_features")
    noise = check_scalar(noise, "noise", low=0.0)
    x_scale = check_scalar(x_scale, "x_scale", low=0.0, include_low=False)
    b = check_scalar(b, "b")
    rng = np.random.default_rng(random_state)
    if w is None:
        w = rng.normal(size=n_features)
    w = np.asarray(w, dtype=float)
    if w.shape != (n_features,):
        raise ValueError(f"w must have shape ({n_features},), got {w.shape}")
    X = rng.uniform(-x_scale, x_scale, size=(n_samples, n_features))
    y = X @ w + b + noise * rng.normal(size=n_samples)
    return X, y, w


def make_collinear(n_samples=50, *, correlation=0.999, noise=0.1, random_state=0):
    r"""Two nearly collinear features: :math:`x_2 = \rho x_1 + \sqrt{1-\rho^2}\, z`, and :math:`y = x_1 + x_2 + \epsilon`.

    Parameters
    ----------
    n_samples : int
    correlation : float in [-1, 1]
        :math:`\rho`; at :math:`\pm 1` the design matrix has rank 1.
    noise : float
        Standard deviation of :math:`\epsilon`.
    random_state : int

    Returns
    -------
    X : ndarray of shape (n_samples, 2)
    y : ndarray of shape (n_samples,)
    """
    n_samples = _check_count(n_samples, "n_samples")
    rho = check_scalar(correlation, "correlation", low=-1.0, high=1.0)
    noise = check_scalar(noise, "noise", low=0.0)
    rng = np.random.default_rng(random_state)
    x1 = rng.normal(size=n_samples)
    x2 = rho * x1 + np.sqrt(1.0 - rho**2) * rng.normal(size=n_samples)
    X = np.column_stack([x1, x2])
    y = x1 + x2 + noise * rng.normal(size=n_samples)
    return X, y
