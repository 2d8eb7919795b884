"""Input validation shared by every estimator and function of mlnotes."""

from .validation import (as_float_matrix, as_float_vector, check_bool, check_option, check_sample_weight,
                         check_scalar)

__all__ = ["as_float_matrix", "as_float_vector", "check_sample_weight", "check_scalar", "check_option",
           "check_bool"]
