"""Synthetic classification data with a known ground truth: Gaussian classes."""

import numpy as np

from ..stats import covariance_cholesky


def make_gaussian_classes(means, covariances, n_samples=100, *, random_state=0):
    r"""Draw labelled samples from Gaussian classes: class :math:`k` is :math:`\mathcal N(\mu_k, \Sigma_k)`.

    One standard normal sample :math:`Z` is drawn from the seed, and class :math:`k` takes its block of rows
    :math:`z_i` to :math:`x_i = \mu_k + L_k z_i`, with :math:`\Sigma_k = L_k L_k^\top` (Cholesky). For a fixed
    seed the points therefore move continuously with the means and covariances, which is what a widget's
    sliders need.

    Parameters
    ----------
    means : array of shape (n_classes, n_features)
        :math:`\mu_k`.
    covariances : array of shape (n_classes, n_features, n_features), or (n_features, n_features)
        :math:`\Sigma_k`, each symmetric positive definite; one matrix is shared by every class.
    n_samples : int or sequence of n_classes ints, default 100
        Samples per class (at least 1 each).
    random_state : int, default 0
        Seed of ``np.random.default_rng``.

    Returns
    -------
    X : ndarray of shape (sum of n_samples, n_features)
        The classes one after the other.
    y : ndarray of shape (sum of n_samples,)
        The class labels :math:`0, 1, \dots, K - 1`.
    """
    means = np.asarray(means, dtype=float)
    if means.ndim != 2 or means.shape[0] < 1 or not np.isfinite(means).all():
        raise ValueError(f"means must be a finite array of shape (n_classes, n_features), got shape {means.shape}")
    K, d = means.shape
    covariances = np.asarray(covariances, dtype=float)
    if covariances.shape == (d, d):
        covariances = np.broadcast_to(covariances, (K, d, d))
    if covariances.shape != (K, d, d):
        raise ValueError(f"covariances must have shape ({K}, {d}, {d}) or ({d}, {d}) to match means, "
                         f"got {covariances.shape}")
    factors = [covariance_cholesky(S, f"covariances[{k}]")[1] for k, S in enumerate(covariances)]
    counts = np.broadcast_to(np.asarray(n_samples), (K,)) if np.ndim(n_samples) == 0 else np.asarray(n_samples)
    if (counts.shape != (K,) or not all(isinstance(c, (int, np.integer)) and not isinstance(c, (bool, np.bool_))
                                        for c in counts.tolist()) or (counts < 1).any()):
        raise ValueError(f"n_samples must be an integer >= 1 or {K} such integers (one per class), got {n_samples!r}")
    Z = np.random.default_rng(random_state).standard_normal((int(counts.sum()), d))
    y = np.repeat(np.arange(K), counts)
    X = np.empty_like(Z)
    for k, L in enumerate(factors):
        X[y == k] = means[k] + Z[y == k] @ L.T
    return X, y
