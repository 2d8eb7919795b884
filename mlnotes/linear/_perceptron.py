r"""The perceptron (chapter 12, *Linear classification*).

Labels :math:`y_i \in \{-1, +1\}`; whenever a sample is misclassified or on the boundary,
:math:`y_i(w^\top x_i + b) \le 0`, the weights move towards it: :math:`w \leftarrow w + y_i x_i`,
:math:`b \leftarrow b + y_i`. On linearly separable data this stops after finitely many mistakes
(Novikoff: at most :math:`(R/\gamma)^2`, with :math:`R` the largest norm of :math:`(x_i, 1)` and :math:`\gamma`
the margin of a unit-norm separator); on non-separable data it never settles.
"""

import warnings
from numbers import Integral

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.exceptions import ConvergenceWarning
from sklearn.utils.validation import check_is_fitted, validate_data

from ..utils.validation import check_bool, check_classes, check_sample_weight, check_scalar, check_square_sums


class Perceptron(ClassifierMixin, BaseEstimator):
    """Rosenblatt's perceptron for two classes (use :class:`OneVsRestClassifier` for more).

    Parameters
    ----------
    fit_intercept : bool, default True
    max_iter : int, default 1000
        Maximum number of epochs (passes over the data).
    shuffle : bool, default True
        Visit the samples in a new random order every epoch.
    random_state : int or None
        Seed of the shuffling.

    Attributes
    ----------
    classes_ : array of shape (2,)
        ``classes_[1]`` is the class coded +1.
    coef_ : array of shape (1, n_features)
    intercept_ : array of shape (1,)
    n_iter_ : int
        Epochs run.
    mistakes_ : array of shape (n_iter_,)
        Number of updates in each epoch (0 in the last one when the data were separated).
    converged_ : bool
        Whether an epoch made no mistake.

    Notes
    -----
    The update visits one sample at a time: the perceptron is an online algorithm, so this loop over
    samples is the method itself, not a missed vectorisation.
    """

    def __init__(self, *, fit_intercept=True, max_iter=1000, shuffle=True, random_state=None):
        self.fit_intercept = fit_intercept
        self.max_iter = max_iter
        self.shuffle = shuffle
        self.random_state = random_state

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.classifier_tags.multi_class = False
        return tags

    def fit(self, X, y, sample_weight=None):
        """Run the perceptron until an epoch makes no mistake or ``max_iter`` epochs.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
        y : array-like of shape (n_samples,)
            Two classes (any labels).
        sample_weight : array-like of shape (n_samples,), optional
            A mistake on sample ``i`` moves the weights by ``sample_weight[i] * y_i x_i`` (as scikit-learn's
            ``Perceptron``); samples of weight 0 are ignored.

        Returns
        -------
        self : object
        """
        check_scalar(self.max_iter, "max_iter", Integral, min_val=1)
        fit_intercept = check_bool(self.fit_intercept, "fit_intercept")
        X, y, codes = check_classes(self, X, y, binary=True, dtype=np.float64)
        check_square_sums(X)
        s = check_sample_weight(sample_weight, X.shape[0])
        signs = 2.0 * codes - 1.0
        # the scores in units of 2^(-2k): features scaled by 2^k (exact), so that products of tiny features do
        # not underflow; theta = (2^k w, 2^(2k) b), b kept apart. With k = 0 this is the plain perceptron.
        k = _underflow_exponent(X)
        Xt = np.ldexp(X, k)
        if fit_intercept:
            Xt = np.column_stack([Xt, np.ones(len(X))])
        theta = np.zeros(Xt.shape[1])
        b = 0.0
        rng = np.random.default_rng(self.random_state)
        mistakes = []
        with np.errstate(over="ignore"):                          # 2^(2k) b may be +-inf: then its sign decides
            for _ in range(self.max_iter):
                order = rng.permutation(len(X)) if self.shuffle else np.arange(len(X))
                count = 0
                for i in order:
                    if s[i] > 0 and signs[i] * (Xt[i] @ theta) <= 0:        # misclassified or on the boundary
                        theta += s[i] * signs[i] * Xt[i]
                        if fit_intercept:
                            b += s[i] * signs[i]
                            theta[-1] = np.ldexp(b, 2 * k)
                        count += 1
                mistakes.append(count)
                if count == 0:
                    break
        self.mistakes_ = np.array(mistakes)
        self.n_iter_ = len(mistakes)
        self.converged_ = mistakes[-1] == 0
        if not self.converged_:
            warnings.warn(f"the perceptron still made {mistakes[-1]} mistakes in epoch {self.max_iter}: the data "
                          "may not be linearly separable", ConvergenceWarning, stacklevel=2)
        self.coef_ = np.ldexp(theta[: X.shape[1]], -k)[None, :]
        self.intercept_ = np.array([b])
        return self

    def _scaled_scores(self, X):
        """The scores times :math:`2^e` and ``e``: computed on ``X`` and ``coef_`` scaled by powers of two, so
        that their sign is right where :math:`w^\\top x` itself underflows (``e = 0`` on ordinary data)."""
        check_is_fitted(self)
        X = validate_data(self, X, reset=False, dtype=np.float64)
        k_x, k_w = _underflow_exponent(X), _underflow_exponent(self.coef_)
        with np.errstate(over="ignore"):
            scores = np.ldexp(X, k_x) @ np.ldexp(self.coef_[0], k_w) + np.ldexp(self.intercept_[0], k_x + k_w)
        return scores, k_x + k_w

    def decision_function(self, X):
        """Scores :math:`w^\\top x + b`, shape (n_samples,); positive means ``classes_[1]``.

        A score below the smallest float (features and weights near 1e-307) is returned as 0; :meth:`predict`
        uses its sign all the same."""
        scores, e = self._scaled_scores(X)
        return np.ldexp(scores, -e)

    def predict(self, X):
        """Predicted classes, shape (n_samples,)."""
        scores, _ = self._scaled_scores(X)
        return self.classes_[(scores > 0).astype(int)]


def _underflow_exponent(A):
    """The power of two ``k >= 0`` that brings the largest entry of ``A`` to [1/2, 1) when it is below
    2^-256, else 0: the products of two entries of ``2^k A`` cannot underflow, and scaling by ``2^k`` is
    exact, so on ordinary data nothing changes."""
    largest = float(np.abs(A).max()) if A.size else 0.0
    if largest == 0.0 or largest >= 2.0**-256:
        return 0
    return -int(np.frexp(largest)[1])
