"""Probability: the multivariate Gaussian (log-density, marginals, conditionals, products,
linear-Gaussian models) and Hoeffding's inequality (chapter 3, *Probability and Gaussians*); weighted quantiles
(chapters 18 and 21).

Every function takes plain numpy arrays and validates them: a covariance must be a symmetric
positive definite (d, d) array, shapes must match, indices must be distinct and in range, and
NaN or infinity is refused, each with a ``ValueError``/``TypeError`` naming the problem. The
results agree with ``scipy.stats`` where it has the same function (``multivariate_normal``,
``binom``).
"""

from ._checks import covariance_cholesky
from ._gaussian import gaussian_condition, gaussian_marginal, gaussian_product, mvn_logpdf
from ._inequalities import hoeffding_bound, hoeffding_sample_size
from ._linear_gaussian import linear_gaussian_marginal, linear_gaussian_posterior
from ._quantile import weighted_quantile, weighted_quantile_by_group

__all__ = ["mvn_logpdf", "gaussian_marginal", "gaussian_condition", "gaussian_product",
           "linear_gaussian_marginal", "linear_gaussian_posterior", "covariance_cholesky",
           "hoeffding_bound", "hoeffding_sample_size", "weighted_quantile", "weighted_quantile_by_group"]
