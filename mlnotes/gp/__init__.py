"""Gaussian processes (chapter 17, *Gaussian processes*).

:class:`GaussianProcessRegressor` (the interface of :class:`sklearn.gaussian_process.GaussianProcessRegressor`
with the kernel ``ConstantKernel * RBF (+ WhiteKernel)`` given by its hyperparameters ``amplitude``,
``length_scale``, ``noise_level``, or a fixed callable kernel), and the steps of GP regression as small
functions: the Cholesky factor with its jitter policy, the weights, the log marginal likelihood and its gradient,
the posterior mean and covariance, the exact predictive variance at a training point, and active learning by
maximum variance (``select_max_variance``).
"""

from ._active import select_max_variance
from ._posterior import (gp_cholesky, gp_inverse, gp_lml_gradient, gp_log_marginal_likelihood, gp_predict,
                         gp_variance_at_training_point, gp_weights)
from ._regression import HYPERPARAMETERS, GaussianProcessRegressor

__all__ = ["GaussianProcessRegressor", "HYPERPARAMETERS", "gp_cholesky", "gp_weights", "gp_log_marginal_likelihood",
           "gp_inverse", "gp_lml_gradient", "gp_predict", "gp_variance_at_training_point", "select_max_variance"]
