"""Seeded data generators (no downloads). Real data sets come from the ones bundled inside
scikit-learn (``sklearn.datasets.load_diabetes``, ``load_iris``, ...)."""

from ._classification import make_gaussian_classes
from ._regression import make_collinear, make_linear_regression

__all__ = ["make_linear_regression", "make_collinear", "make_gaussian_classes"]
