"""Input validation shared by every estimator and function of mlnotes, and the numerical gradient
checker (central differences; no sympy needed)."""

from ._gradcheck import (GradientCheck, GradientCheckError, check_gradient, numerical_gradient, numerical_jacobian,
                         optimal_step)
from .validation import (as_float_matrix, check_square_sums, as_float_vector, check_bool, check_classes,
                         check_linear_problem, check_option, check_sample_weight, check_scalar)

__all__ = ["as_float_matrix", "check_square_sums", "as_float_vector", "check_linear_problem", "check_sample_weight",
           "check_scalar", "check_option", "check_bool", "check_classes"]
__all__ += ["numerical_gradient", "numerical_jacobian", "check_gradient", "GradientCheck", "GradientCheckError",
            "optimal_step"]
