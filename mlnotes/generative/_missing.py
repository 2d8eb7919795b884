r"""Missing features in a generative classifier: classify with the marginal, impute with the conditional
(chapter 13, *Generative classifiers*).

A missing entry is written as NaN. Split a sample into its observed part :math:`x_o` and its missing part
:math:`x_m`. With a Gaussian class density :math:`\mathcal N(\mu_k, \Sigma_k)` the missing part integrates out
exactly, :math:`p(x_o \mid k) = \int p(x_o, x_m \mid k)\, dx_m = \mathcal N(x_o \mid \mu_{k,o}, \Sigma_{k,oo})`, so

.. math:: p(y = k \mid x_o) \propto \pi_k\, \mathcal N(x_o \mid \mu_{k,o}, \Sigma_{k,oo}),

and the most probable completion under class :math:`k` is the conditional mean

.. math:: \hat x_m = \mu_{k,m} + \Sigma_{k,mo} \Sigma_{k,oo}^{-1} (x_o - \mu_{k,o}).
"""

import numpy as np
from scipy import linalg
from scipy.special import logsumexp
from sklearn.utils.validation import check_is_fitted

from ..stats import covariance_cholesky, gaussian_marginal, mvn_logpdf  # chapter 3
from ._categorical import CategoricalNB, _check_categories
from ._discriminant import GaussianNB, LinearDiscriminantAnalysis, QuadraticDiscriminantAnalysis

_GAUSSIAN_MODELS = (LinearDiscriminantAnalysis, QuadraticDiscriminantAnalysis, GaussianNB)


def class_gaussians(model):
    r"""The fitted class priors and Gaussian class densities of LDA, QDA or Gaussian naive Bayes.

    Parameters
    ----------
    model : fitted :class:`LinearDiscriminantAnalysis`, :class:`QuadraticDiscriminantAnalysis` or :class:`GaussianNB`

    Returns
    -------
    priors : array of shape (n_classes,)
        :math:`\pi_k`.
    means : array of shape (n_classes, n_features)
        :math:`\mu_k`.
    covariances : array of shape (n_classes, n_features, n_features)
        :math:`\Sigma_k`: the shared covariance repeated (LDA), the class covariances (QDA) or the diagonal
        matrices of the class variances (naive Bayes).

    Notes
    -----
    The model's predictions are the Bayes classifier of these Gaussians, except for an LDA that dropped
    directions of its covariance (``model.rank_ < n_features_in_``, collinear features): it classifies with a
    pseudo-inverse of the shared covariance instead.
    """
    if not isinstance(model, _GAUSSIAN_MODELS):
        raise TypeError("class_gaussians needs a LinearDiscriminantAnalysis, QuadraticDiscriminantAnalysis or "
                        f"GaussianNB, got {type(model).__name__}")
    check_is_fitted(model)
    K, d = len(model.classes_), model.n_features_in_
    if isinstance(model, GaussianNB):
        covariances = np.zeros((K, d, d))
        covariances[:, np.arange(d), np.arange(d)] = model.var_
        return model.class_prior_, model.theta_, covariances
    if isinstance(model, LinearDiscriminantAnalysis):
        return model.priors_, model.means_, np.broadcast_to(model.covariance_, (K, d, d)).copy()
    return model.priors_, model.means_, model.covariance_


def _with_missing(model, X):
    """``X`` as a float array of shape (n, n_features_in_) in which NaN marks a missing entry."""
    check_is_fitted(model)
    if X is None:
        raise TypeError("X must be an array, got None")
    try:
        X = np.array(X, dtype=float)
    except (TypeError, ValueError) as exc:
        raise TypeError(f"X must be numeric (NaN marks a missing entry): {exc}") from None
    d = model.n_features_in_
    if X.ndim != 2 or X.shape[1] != d or X.shape[0] == 0:
        raise ValueError(f"X must have shape (n_samples, {d}) with n_samples >= 1, got {X.shape}")
    if np.isinf(X).any():
        raise ValueError("X contains infinity (a missing entry is marked by NaN)")
    return X


def _check_full_rank(model):
    """Refuse an LDA whose predictions do not use its Gaussians (collinear features): its marginals would not
    match its predictions."""
    if isinstance(model, LinearDiscriminantAnalysis) and model.rank_ < model.n_features_in_:
        d = model.n_features_in_
        raise ValueError(f"LinearDiscriminantAnalysis(tol={model.tol:g}) dropped {d - model.rank_} of the {d} "
                         "directions of its shared covariance (collinear or nearly collinear features): it predicts "
                         "with a pseudo-inverse, which has no Gaussian marginal. Remove the collinear features (or, "
                         "if they are only nearly collinear, refit with a smaller tol)")


def _groups(missing, labels=None):
    """Group the rows by their pattern of missing entries and, if ``labels`` are given, their class.

    Yields ``(rows, observed, unobserved, k)``: index arrays into the rows and the features, and the class code
    (None without labels)."""
    d = missing.shape[1]
    keys = missing.astype(np.intp) if labels is None else np.column_stack([missing, labels]).astype(np.intp)
    unique, inverse = np.unique(keys, axis=0, return_inverse=True)
    inverse = inverse.ravel()
    for g, key in enumerate(unique):
        pattern = key[:d].astype(bool)
        yield (np.flatnonzero(inverse == g), np.flatnonzero(~pattern), np.flatnonzero(pattern),
               None if labels is None else int(key[d]))


def marginal_log_posterior(model, X):
    r"""Log posterior class probabilities of samples with missing features, the missing ones integrated out.

    Parameters
    ----------
    model : fitted LinearDiscriminantAnalysis, QuadraticDiscriminantAnalysis, GaussianNB or CategoricalNB
    X : array of shape (n_samples, n_features)
        NaN marks a missing entry; a sample may miss any subset of its features (all of them: the prior).

    Returns
    -------
    log_posterior : array of shape (n_samples, n_classes)
        :math:`\log p(y = k \mid x_o)`; for a complete sample it equals ``model.predict_log_proba``.

    Notes
    -----
    For a Gaussian class density, :math:`\log p(y = k \mid x_o) = \log\pi_k + \log\mathcal N(x_o \mid \mu_{k,o},
    \Sigma_{k,oo}) - \log Z(x_o)`, with the marginal of :func:`mlnotes.stats.gaussian_marginal`; for naive Bayes
    the factors of the missing features sum (or integrate) to one and drop out. Samples are grouped by their
    pattern of missing entries, one marginal per pattern and class. Derived in chapter 13, *Generative
    classifiers*.

    The guarantee needs the model's predictions to be the Bayes classifier of its Gaussians: an LDA that
    dropped directions of its covariance (collinear features, ``model.rank_ < n_features_in_``) is refused
    with a ``ValueError``.
    """
    if not isinstance(model, _GAUSSIAN_MODELS + (CategoricalNB,)):
        raise TypeError("marginal_log_posterior needs a fitted LinearDiscriminantAnalysis, "
                        f"QuadraticDiscriminantAnalysis, GaussianNB or CategoricalNB, got {type(model).__name__}")
    X = _with_missing(model, X)
    missing = np.isnan(X)
    if isinstance(model, CategoricalNB):
        scores = np.tile(model.class_log_prior_, (X.shape[0], 1))
        for j, log_theta in enumerate(model.feature_log_prob_):
            seen = ~missing[:, j]
            values = _check_categories(X[seen, j][:, None], model.n_categories_[j:j + 1])[:, 0]
            scores[seen] += log_theta[:, values].T
    else:
        _check_full_rank(model)
        priors, means, covariances = class_gaussians(model)
        scores = np.tile(np.log(priors), (X.shape[0], 1))
        for rows, observed, _, _ in _groups(missing):
            if observed.size == 0:
                continue                                      # nothing observed: the posterior is the prior
            for k in range(len(priors)):
                mean_o, cov_oo = gaussian_marginal(means[k], covariances[k], observed)
                scores[rows, k] += mvn_logpdf(X[np.ix_(rows, observed)], mean_o, cov_oo)
    if np.isneginf(scores).all(axis=1).any():
        raise ValueError("a sample has probability 0 under every class; use a smoothed model")
    return scores - logsumexp(scores, axis=1, keepdims=True)


def impute_conditional_mean(model, X, y=None):
    r"""Fill the missing entries of each sample with their conditional mean given the observed ones and a class.

    Parameters
    ----------
    model : fitted LinearDiscriminantAnalysis, QuadraticDiscriminantAnalysis or GaussianNB
    X : array of shape (n_samples, n_features)
        NaN marks a missing entry. A sample must have at least one observed entry to be completed; complete
        samples are returned unchanged.
    y : array of shape (n_samples,), optional
        The class of each sample (from ``model.classes_``). Default: the class of largest marginal posterior,
        :func:`marginal_log_posterior` (classify first, then impute).

    Returns
    -------
    X_imputed : array of shape (n_samples, n_features)

    Notes
    -----
    :math:`\hat x_m = \arg\max_v p(x_m = v \mid x_o, y) = \mu_{y,m} + \Sigma_{y,mo}\Sigma_{y,oo}^{-1}(x_o - \mu_{y,o})`,
    the mean of the Gaussian conditional of :func:`mlnotes.stats.gaussian_condition` (chapter 3), the same
    formula, evaluated for all the samples of a group (same missing entries, same class) at once: it is affine
    in :math:`x_o`, :math:`\hat x_m = \mu_{y,m} + (x_o - \mu_{y,o})^\top B` with
    :math:`B = \Sigma_{y,oo}^{-1}\Sigma_{y,om}`, one Cholesky factorisation of :math:`\Sigma_{y,oo}` per group
    (``gaussian_condition`` takes one sample at a time). Derived in chapter 13, *Generative classifiers*.
    """
    if isinstance(model, CategoricalNB) or not isinstance(model, _GAUSSIAN_MODELS):
        raise TypeError("impute_conditional_mean needs a Gaussian model (LinearDiscriminantAnalysis, "
                        f"QuadraticDiscriminantAnalysis or GaussianNB), got {type(model).__name__}")
    X = _with_missing(model, X)
    _check_full_rank(model)
    missing = np.isnan(X)
    if missing.all(axis=1).any():
        raise ValueError(f"sample {int(np.flatnonzero(missing.all(axis=1))[0])} has no observed feature: "
                         "there is nothing to condition on")
    if y is None:
        labels = np.argmax(marginal_log_posterior(model, X), axis=1)
    else:
        y = np.asarray(y)
        if y.shape != (X.shape[0],):
            raise ValueError(f"y must have shape ({X.shape[0]},) to match X, got {y.shape}")
        unknown = ~np.isin(y, model.classes_)
        if unknown.any():
            raise ValueError(f"y contains {np.asarray(y[unknown][0]).item()!r}, which is not a class of the model "
                             f"{model.classes_.tolist()}")
        labels = np.searchsorted(model.classes_, y)
    _, means, covariances = class_gaussians(model)
    X_imputed = X.copy()
    incomplete = np.flatnonzero(missing.any(axis=1))
    for rows, observed, unobserved, k in _groups(missing[incomplete], labels[incomplete]):
        rows = incomplete[rows]
        mu, S = means[k], covariances[k]
        _, L = covariance_cholesky(S[np.ix_(observed, observed)], "the observed block of the class covariance")
        B = linalg.cho_solve((L, True), S[np.ix_(observed, unobserved)])
        X_imputed[np.ix_(rows, unobserved)] = mu[unobserved] + (X[np.ix_(rows, observed)] - mu[observed]) @ B
    return X_imputed
