r"""Categorical naive Bayes: discrete features, independent given the class (chapter 13).

Feature :math:`j` takes the values :math:`0, 1, \dots, V_j - 1`. Given the class :math:`k`, it is categorical with
probabilities :math:`\theta_{kjv} = p(x_j = v \mid y = k)`, and the features are independent, so

.. math:: \log p(y = k \mid x) = \log\pi_k + \sum_j \log\theta_{k j x_j} + \text{const}.

The maximum-likelihood estimate of :math:`\theta_{kjv}` is a ratio of counts; additive (Laplace) smoothing adds
:math:`\alpha` to every count, so that a value never seen with a class does not get probability zero.
"""

import numpy as np

from ..utils.validation import check_classes, check_sample_weight, check_scalar
from ._discriminant import _BayesClassifier, _priors


def _check_categories(X, n_categories=None):
    """Check that ``X`` (float, finite) holds non-negative integer codes, below ``n_categories`` if given;
    return them as integers."""
    if (X < 0).any() or (X != np.floor(X)).any():
        raise ValueError("CategoricalNB needs features coded as non-negative integers 0, 1, 2, ...; "
                         "X contains negative or non-integer values")
    codes = X.astype(np.intp)
    if n_categories is not None:
        unseen = codes >= n_categories
        if unseen.any():
            j = int(np.flatnonzero(unseen.any(axis=0))[0])
            raise ValueError(f"feature {j} takes the value {int(codes[unseen[:, j], j].max())}, but only "
                             f"{n_categories[j]} categories (0..{n_categories[j] - 1}) were seen in fit; "
                             "set min_categories to reserve more")
    return codes


class CategoricalNB(_BayesClassifier):
    r"""Naive Bayes for categorical features, with additive smoothing (as scikit-learn's ``CategoricalNB``).

    Parameters
    ----------
    alpha : float >= 0, default 1.0
        Added to every count (Laplace smoothing for 1.0; 0 gives the maximum-likelihood estimate, under which a
        value never seen with a class has probability zero).
    fit_prior : bool, default True
        Estimate the class priors as class frequencies; if False, use uniform priors.
    class_prior : array of shape (n_classes,), optional
        Given class priors, positive and summing to 1 (override ``fit_prior``).
    min_categories : int or array of shape (n_features,), optional
        At least this many categories per feature (for values that may appear only at prediction time).

    Attributes
    ----------
    classes_ : array of shape (n_classes,)
    class_count_ : array of shape (n_classes,)
    class_log_prior_ : array of shape (n_classes,)
    n_categories_ : int array of shape (n_features,)
        :math:`V_j`: the largest code seen plus one (at least ``min_categories``).
    category_count_ : list of n_features arrays of shape (n_classes, n_categories_[j])
        :math:`N_{kjv}`: how often feature :math:`j` takes the value :math:`v` in class :math:`k`.
    feature_log_prob_ : list of n_features arrays of shape (n_classes, n_categories_[j])
        :math:`\log\theta_{kjv}`.
    n_features_in_ : int

    Notes
    -----
    .. math:: \theta_{kjv} = \frac{N_{kjv} + \alpha}{N_k + \alpha V_j},

    the maximum-likelihood estimate for :math:`\alpha = 0` (derived with a Lagrange multiplier for the constraint
    :math:`\sum_v \theta_{kjv} = 1` in chapter 13, *Generative classifiers*).
    """

    def __init__(self, *, alpha=1.0, fit_prior=True, class_prior=None, min_categories=None):
        self.alpha = alpha
        self.fit_prior = fit_prior
        self.class_prior = class_prior
        self.min_categories = min_categories

    def fit(self, X, y, sample_weight=None):
        """Count the classes and, per class, the values of each feature. ``X``: (n_samples, n_features) of
        non-negative integer codes; ``y``: (n_samples,); ``sample_weight``: (n_samples,), optional, each
        sample counted with its weight (as scikit-learn)."""
        alpha = check_scalar(self.alpha, "alpha", min_val=0)
        X, _, codes = check_classes(self, X, y, dtype=np.float64)
        s = check_sample_weight(sample_weight, X.shape[0])
        if len(np.unique(codes[s > 0])) < 2:
            raise ValueError("CategoricalNB needs samples of at least 2 classes with positive sample_weight")
        Xc = _check_categories(X)
        K, d = len(self.classes_), X.shape[1]
        n_categories = Xc.max(axis=0) + 1
        if self.min_categories is not None:
            minimum = np.asarray(self.min_categories)
            if minimum.shape not in [(), (d,)] or not np.issubdtype(minimum.dtype, np.integer):
                raise ValueError(f"min_categories must be an integer or {d} integers, got {self.min_categories!r}")
            n_categories = np.maximum(n_categories, minimum)
        self.n_categories_ = n_categories.astype(np.intp)
        self.class_count_ = np.bincount(codes, weights=s, minlength=K)
        # N_kjv: one (weighted) bincount per feature of the combined index (class, value)
        self.category_count_ = [np.bincount(codes * V + Xc[:, j], weights=s, minlength=K * V).reshape(K, V)
                                for j, V in enumerate(self.n_categories_)]
        with np.errstate(divide="ignore"):                 # alpha = 0: log 0 = -inf for unseen values
            self.feature_log_prob_ = [np.log(N + alpha) - np.log(N.sum(axis=1, keepdims=True) + alpha * N.shape[1])
                                      for N in self.category_count_]
        if self.class_prior is not None:
            self.class_log_prior_ = np.log(_priors(self.class_prior, codes, K))
        elif self.fit_prior:
            self.class_log_prior_ = np.log(self.class_count_ / self.class_count_.sum())
        else:
            self.class_log_prior_ = np.full(K, -np.log(K))
        return self

    def _scores(self, X):
        Xc = _check_categories(X, self.n_categories_)
        D = self.class_log_prior_ + sum(logp[:, Xc[:, j]].T for j, logp in enumerate(self.feature_log_prob_))
        impossible = np.isneginf(D).all(axis=1)
        if impossible.any():
            raise ValueError(f"sample {int(np.flatnonzero(impossible)[0])} has probability 0 under every class "
                             "(a value never seen with any class, and alpha = 0); use alpha > 0")
        return D
