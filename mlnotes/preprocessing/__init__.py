"""Preprocessing (chapter 18, *Nearest neighbours and evaluation*): ``StandardScaler`` (the z-score of each feature,
scikit-learn's interface and results) and ``weighted_mean_and_variance``."""

from ._scaler import StandardScaler, weighted_mean_and_variance

__all__ = ["StandardScaler", "weighted_mean_and_variance"]
