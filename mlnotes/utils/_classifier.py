"""What every probabilistic classifier of mlnotes derives from its ``predict_proba``: the predicted class and the
log-probabilities (the methods scikit-learn's classifiers also derive from it)."""

import numpy as np


class ArgmaxPredictMixin:
    """``predict`` of a classifier with ``predict_proba`` and ``classes_``: the class of largest probability."""

    def predict(self, X):
        """The class of largest :meth:`predict_proba` in each row (ties: the first in ``classes_``), shape
        (n_samples,)."""
        proba = self.predict_proba(X)
        return self.classes_[proba.argmax(axis=1)]


class ProbaClassifierMixin(ArgmaxPredictMixin):
    """``predict`` and ``predict_log_proba`` of a classifier with ``predict_proba`` and ``classes_``."""

    def predict_log_proba(self, X):
        """Logarithm of :meth:`predict_proba` (``-inf`` where it is 0), shape (n_samples, n_classes)."""
        with np.errstate(divide="ignore"):
            return np.log(self.predict_proba(X))
