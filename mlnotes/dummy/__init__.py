"""Baselines (chapter 18, *Nearest neighbours and evaluation*): ``DummyClassifier`` (majority class, class
frequencies, random draws, a constant) and ``DummyRegressor`` (mean, median, quantile, constant), scikit-learn's
interface and results; ``weighted_quantile``."""

from ._dummy import DummyClassifier, DummyRegressor, weighted_quantile

__all__ = ["DummyClassifier", "DummyRegressor", "weighted_quantile"]
