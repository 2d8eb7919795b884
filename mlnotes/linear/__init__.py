"""Linear models: least squares and ridge (chapter "Linear regression")."""

from ._least_squares import (
    center,
    least_squares_1d,
    least_squares_loss,
    normal_equations,
    ridge_closed_form,
    ridge_svd,
)
from ._models import LinearRegression, Ridge

__all__ = [
    "LinearRegression",
    "Ridge",
    "center",
    "least_squares_1d",
    "least_squares_loss",
    "normal_equations",
    "ridge_closed_form",
    "ridge_svd",
]
