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
        Xt = np.column_stack([X, np.ones(len(X))]) if fit_intercept else X
        theta = np.zeros(Xt.shape[1])
        rng = np.random.default_rng(self.random_state)
        mistakes = []
        for _ in range(self.max_iter):
            order = rng.permutation(len(X)) if self.shuffle else np.arange(len(X))
            count = 0
            for i in order:
                if s[i] > 0 and signs[i] * (Xt[i] @ theta) <= 0:        # misclassified or on the boundary
                    theta += s[i] * signs[i] * Xt[i]
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
        self.coef_ = theta[: X.shape[1]][None, :].copy()
        self.intercept_ = np.array([theta[-1] if fit_intercept else 0.0])
        return self

    def decision_function(self, X):
        """Scores :math:`w^\\top x + b`, shape (n_samples,); positive means ``classes_[1]``."""
        check_is_fitted(self)
        X = validate_data(self, X, reset=False, dtype=np.float64)
        return X @ self.coef_[0] + self.intercept_[0]

    def predict(self, X):
        """Predicted classes, shape (n_samples,)."""
        scores = self.decision_function(X)
        return self.classes_[(scores > 0).astype(int)]
