"""Nearest neighbours (chapter 18, *Nearest neighbours and evaluation*).

``KNeighborsClassifier`` and ``KNeighborsRegressor`` (the interface and results of scikit-learn's brute-force
estimators; neighbours at equal distance ordered by training index), ``pairwise_distances`` (Minkowski,
Mahalanobis, cosine), ``Metric`` (a validated distance) and ``neighbour_weights`` (the vote weights).
"""

from ._distances import ALIASES, METRICS, Metric, pairwise_distances
from ._knn import KNeighborsClassifier, KNeighborsRegressor, neighbour_weights

__all__ = ["KNeighborsClassifier", "KNeighborsRegressor", "pairwise_distances", "Metric", "METRICS", "ALIASES",
           "neighbour_weights"]
