r"""Active learning by maximum predictive variance (chapter 17, *Gaussian processes*)."""

from numbers import Integral

import numpy as np
from sklearn.base import clone
from sklearn.utils.validation import check_is_fitted

from ..utils.validation import as_float_matrix, check_scalar


def select_max_variance(gp, X_pool, n_queries=1):
    r"""Choose pool points to label, greedily, by largest predictive variance (no labels needed).

    Parameters
    ----------
    gp : fitted GaussianProcessRegressor
        Its fitted hyperparameters are kept (not re-optimised) and its ``alpha`` must be a number.
    X_pool : array-like of shape (n_pool, n_features)
        The candidate inputs.
    n_queries : int, 1 <= n_queries <= n_pool, default 1

    Returns
    -------
    chosen : ndarray of int of shape (n_queries,)
        Indices into ``X_pool``, in the order chosen.
    max_std : ndarray of shape (n_queries,)
        The predictive standard deviation of each chosen point when it was chosen, in the units of
        ``gp.predict(..., return_std=True)`` (with ``normalize_y``, that of the labels): non-increasing, since
        conditioning on one more input never increases a posterior variance.

    Notes
    -----
    The posterior covariance :math:`k(X_\star, X_\star) - K_\star (K + \sigma^2 I)^{-1} K_\star^\top` does not
    involve :math:`y` (004 line 1397: the notes' extra condition on :math:`y_\star` is not needed), so the point
    to query next is known before its label: each chosen input joins the training inputs (with any target, here
    0) and the variances are recomputed. An addition to the notes' remark. Chapter 17.
    """
    check_is_fitted(gp)
    X_pool = as_float_matrix(X_pool, "X_pool")
    if X_pool.shape[1] != gp.n_features_in_:
        raise ValueError(f"X_pool has {X_pool.shape[1]} features, but the GP was fitted with {gp.n_features_in_}")
    n_queries = check_scalar(n_queries, "n_queries", Integral, min_val=1, max_val=X_pool.shape[0])
    if np.ndim(gp.alpha) != 0:
        raise ValueError("select_max_variance needs a scalar alpha (one noise variance for the new points too)")
    model = clone(gp).set_params(optimizer=None, amplitude=gp.amplitude_, length_scale=gp.length_scale_,
                                 noise_level=gp.noise_level_, normalize_y=False)
    X = gp.X_train_
    chosen, max_std = [], []
    for _ in range(n_queries):
        std = model.fit(X, np.zeros(len(X))).predict(X_pool, return_std=True)[1]
        std[chosen] = -np.inf
        i = int(np.argmax(std))
        chosen.append(i)
        max_std.append(std[i])
        X = np.vstack([X, X_pool[i]])
    # the model above works on standardised labels if gp does (normalize_y): back to gp's units
    return np.array(chosen), gp.y_train_std_ * np.array(max_std)
