r"""Conjugate pairs: a prior whose posterior, after any data, is in the prior's own family (chapter 11).

Each model is updated by counting, so :meth:`partial_fit` on batches one after another gives exactly
the posterior of one :meth:`fit` on all the data.

- :class:`BetaBernoulli`: a coin with unknown bias :math:`\theta` and a :math:`\mathrm{Beta}(a, b)` prior.
  After :math:`h` ones and :math:`n - h` zeros the posterior is :math:`\mathrm{Beta}(a + h,\ b + n - h)`; the
  maximum-likelihood estimate is :math:`h/n`, the MAP estimate :math:`(a + h - 1)/(a + b + n - 2)` (defined when
  :math:`a + h \ge 1` and :math:`b + n - h \ge 1`, not both equal to 1), the posterior mean
  :math:`(a + h)/(a + b + n)`, which is also the posterior predictive probability of a one.
- :class:`GammaPoisson`: counts with unknown rate :math:`\lambda` and a :math:`\mathrm{Gamma}(a, b)` prior
  (shape :math:`a`, rate :math:`b`: the density is :math:`b^a \lambda^{a-1} e^{-b\lambda}/\Gamma(a)`; scipy's
  ``scale`` is :math:`1/b`). After counts :math:`k_1, \dots, k_n` the posterior is
  :math:`\mathrm{Gamma}(a + \sum_i k_i,\ b + n)` and the predictive distribution of the next count is
  negative binomial.
- :class:`GaussianMean`: Gaussian observations with known variance :math:`\sigma^2` and unknown mean
  :math:`\mu`, with a :math:`\mathcal N(m_0, s_0^2)` prior. The posterior is :math:`\mathcal N(m_n, s_n^2)` with
  :math:`s_n^{-2} = s_0^{-2} + n\sigma^{-2}` and :math:`m_n = s_n^2 (m_0 / s_0^2 + \sum_i x_i / \sigma^2)`;
  the predictive distribution of the next observation is :math:`\mathcal N(m_n, s_n^2 + \sigma^2)`.
"""

import numpy as np
from scipy import stats

from ..utils.validation import as_float_vector, check_scalar


class _Conjugate:
    """Shared behaviour: ``fit`` forgets and calls ``partial_fit``; credible intervals from ``posterior()``."""

    def _reset(self):  # pragma: no cover - every subclass defines it
        raise NotImplementedError

    def fit(self, y):
        """Posterior from the observations ``y`` (array of shape (n,)), forgetting earlier ones."""
        self._reset()
        return self.partial_fit(y)

    @staticmethod
    def _require_observations(n):
        if n == 0:
            raise ValueError("the maximum-likelihood estimate needs at least one observation")

    def credible_interval(self, level=0.95):
        """Equal-tailed posterior credible interval ``(low, high)`` of posterior probability ``level``."""
        level = check_scalar(level, "level", low=0, high=1, include_low=False)
        return tuple(float(v) for v in self.posterior().ppf([(1 - level) / 2, (1 + level) / 2]))


class _PseudoCountPrior(_Conjugate):
    """A prior with two parameters ``a, b > 0`` that act as pseudo-counts: the data add their counts to them.

    Subclasses set :attr:`family` (the prior's distribution, for the repr) and define the posterior's ``a_``
    and ``b_``; the prior and the posterior are in the same family.
    """

    family = ""

    def __init__(self, a=1.0, b=1.0):
        self.a = check_scalar(a, "a", min_val=0, include_boundaries="neither")
        self.b = check_scalar(b, "b", min_val=0, include_boundaries="neither")
        self._reset()

    def __repr__(self):
        return (f"{type(self).__name__}(a={self.a:g}, b={self.b:g}) with posterior "
                f"{self.family}({self.a_:g}, {self.b_:g})")


class BetaBernoulli(_PseudoCountPrior):
    r"""Beta prior on the probability of 1 of a Bernoulli variable, updated by counting.

    Parameters
    ----------
    a, b : float > 0, default 1
        Prior pseudo-counts of ones and zeros (``a = b = 1`` is the uniform prior).

    Attributes
    ----------
    a_, b_ : float
        Posterior parameters, after :meth:`fit` or :meth:`partial_fit`.
    n_ones_, n_zeros_ : int
        Counts seen so far.

    Notes
    -----
    Derived in chapter 11, *Probabilistic regression*: prior times likelihood,
    :math:`\theta^{a-1}(1-\theta)^{b-1} \cdot \theta^{h}(1-\theta)^{n-h}`, is proportional to the
    :math:`\mathrm{Beta}(a + h, b + n - h)` density.
    """

    family = "Beta"

    def _reset(self):
        self.n_ones_, self.n_zeros_ = 0, 0

    def partial_fit(self, y):
        """Add the observations ``y`` (array of 0/1 of shape (n,)) to the counts."""
        y = as_float_vector(y, "y")
        if not np.isin(y, (0.0, 1.0)).all():
            raise ValueError(f"observations must be 0 or 1, got values {np.unique(y)[:5]}")
        self.n_ones_ += int(y.sum())
        self.n_zeros_ += int(len(y) - y.sum())
        return self

    @property
    def a_(self):
        return self.a + self.n_ones_

    @property
    def b_(self):
        return self.b + self.n_zeros_

    @property
    def mle_(self):
        """Maximum-likelihood estimate :math:`h / n` (undefined before any observation)."""
        n = self.n_ones_ + self.n_zeros_
        self._require_observations(n)
        return self.n_ones_ / n

    @property
    def map_(self):
        r"""Posterior mode :math:`(a_N - 1)/(a_N + b_N - 2)`, the maximiser of the posterior density on :math:`[0, 1]`.

        Defined when the density is bounded and has a single maximiser, that is when :math:`a_N \ge 1` and
        :math:`b_N \ge 1`, not both equal to 1. Inside :math:`(0, 1)` when both exceed 1; on the boundary when one
        of them is 1 (e.g. :math:`\mathrm{Beta}(4, 1)`, density :math:`4\theta^3`, has its mode at 1).

        Raises
        ------
        ValueError
            If :math:`a_N < 1` or :math:`b_N < 1` (the density is unbounded at 0 or 1, so no point maximises
            it) or :math:`a_N = b_N = 1` (the uniform density: every point is a mode).
        """
        a, b = self.a_, self.b_
        if a < 1 or b < 1:
            raise ValueError(f"the posterior Beta({a:g}, {b:g}) has a parameter below 1: its density is unbounded "
                             "at 0 or 1, so there is no MAP estimate (it needs a_N >= 1 and b_N >= 1)")
        if a == 1 and b == 1:
            raise ValueError("the posterior Beta(1, 1) is uniform: every point is a mode, so there is no unique "
                             "MAP estimate")
        return (a - 1) / (a + b - 2)

    @property
    def posterior_mean_(self):
        """Posterior mean :math:`a_N / (a_N + b_N)`."""
        return self.a_ / (self.a_ + self.b_)

    def posterior(self):
        """The posterior as a frozen ``scipy.stats.beta`` distribution."""
        return stats.beta(self.a_, self.b_)

    def predict_proba(self):
        """Posterior predictive probability that the next observation is 1 (the posterior mean)."""
        return self.posterior_mean_

    def predictive(self):
        """The posterior predictive distribution of the next observation, a frozen ``scipy.stats.bernoulli``."""
        return stats.bernoulli(self.posterior_mean_)


class GammaPoisson(_PseudoCountPrior):
    r"""Gamma prior on the rate :math:`\lambda` of Poisson counts, updated by counting.

    Parameters
    ----------
    a : float > 0, default 1
        Prior shape (a pseudo-count of events).
    b : float > 0, default 1
        Prior rate (a pseudo-number of observations); the prior mean of :math:`\lambda` is ``a / b``.

    Attributes
    ----------
    a_, b_ : float
        Posterior shape :math:`a + \sum_i k_i` and rate :math:`b + n`.
    n_, total_ : int
        Number of counts seen and their sum.

    Notes
    -----
    Derived in chapter 11, *Probabilistic regression*: prior times likelihood,
    :math:`\lambda^{a-1}e^{-b\lambda} \cdot \lambda^{\sum_i k_i} e^{-n\lambda}`, is proportional to the
    :math:`\mathrm{Gamma}(a + \sum_i k_i,\ b + n)` density. The predictive probability of a count :math:`k` is
    :math:`\frac{\Gamma(a_N + k)}{k!\,\Gamma(a_N)} \big(\frac{b_N}{b_N + 1}\big)^{a_N} \big(\frac{1}{b_N+1}\big)^{k}`,
    the negative binomial with ``n = a_N`` and ``p = b_N / (b_N + 1)`` in scipy's parametrisation.
    """

    family = "Gamma"

    def _reset(self):
        self.n_, self.total_ = 0, 0

    def partial_fit(self, k):
        """Add the counts ``k`` (non-negative integers, array of shape (n,))."""
        k = as_float_vector(k, "k")
        if (k < 0).any() or not np.array_equal(k, np.round(k)):
            raise ValueError(f"counts must be non-negative integers, got values {np.unique(k)[:5]}")
        self.n_ += len(k)
        self.total_ += int(k.sum())
        return self

    @property
    def a_(self):
        return self.a + self.total_

    @property
    def b_(self):
        return self.b + self.n_

    @property
    def mle_(self):
        r"""Maximum-likelihood estimate :math:`\bar k` (undefined before any observation)."""
        self._require_observations(self.n_)
        return self.total_ / self.n_

    @property
    def map_(self):
        r"""Posterior mode :math:`(a_N - 1)/b_N`, the maximiser of the posterior density on :math:`[0, \infty)`.

        Inside :math:`(0, \infty)` when :math:`a_N > 1`; at the boundary 0 when :math:`a_N = 1` (the exponential
        density :math:`b_N e^{-b_N \lambda}`, largest at 0).

        Raises
        ------
        ValueError
            If :math:`a_N < 1`: the density is unbounded at 0, so no point maximises it.
        """
        if self.a_ < 1:
            raise ValueError(f"the posterior Gamma({self.a_:g}, {self.b_:g}) has shape below 1: its density is "
                             "unbounded at 0, so there is no MAP estimate (it needs a_N >= 1)")
        return (self.a_ - 1) / self.b_

    @property
    def posterior_mean_(self):
        """Posterior mean :math:`a_N / b_N`."""
        return self.a_ / self.b_

    def posterior(self):
        """The posterior as a frozen ``scipy.stats.gamma`` distribution (shape ``a_``, scale ``1 / b_``)."""
        return stats.gamma(self.a_, scale=1.0 / self.b_)

    def predictive(self):
        """The posterior predictive distribution of the next count, a frozen ``scipy.stats.nbinom``."""
        return stats.nbinom(self.a_, self.b_ / (self.b_ + 1.0))


class GaussianMean(_Conjugate):
    r"""Gaussian prior on the mean :math:`\mu` of Gaussian observations with known variance.

    Parameters
    ----------
    prior_mean : float, default 0
        :math:`m_0`.
    prior_var : float > 0, default 1
        :math:`s_0^2`.
    noise_var : float > 0, default 1
        :math:`\sigma^2`, the known variance of each observation.

    Attributes
    ----------
    mean_, var_ : float
        Posterior mean :math:`m_n` and variance :math:`s_n^2`.
    n_, total_ : int, float
        Number of observations seen and their sum.

    Notes
    -----
    Derived in chapter 11, *Probabilistic regression*:

    .. math::
        \frac{1}{s_n^2} = \frac{1}{s_0^2} + \frac{n}{\sigma^2}, \qquad
        m_n = s_n^2 \Big(\frac{m_0}{s_0^2} + \frac{\sum_i x_i}{\sigma^2}\Big).

    It is Bayesian linear regression with the single feature 1
    (:class:`~mlnotes.bayes.BayesianLinearRegression` with ``fit_intercept=False``). The posterior is
    symmetric, so its mean is also the MAP estimate.
    """

    def __init__(self, prior_mean=0.0, prior_var=1.0, noise_var=1.0):
        self.prior_mean = check_scalar(prior_mean, "prior_mean")
        self.prior_var = check_scalar(prior_var, "prior_var", low=0, include_low=False)
        self.noise_var = check_scalar(noise_var, "noise_var", low=0, include_low=False)
        self._reset()

    def _reset(self):
        self.n_, self.total_ = 0, 0.0

    def partial_fit(self, x):
        """Add the observations ``x`` (array of shape (n,))."""
        x = as_float_vector(x, "x")
        self.n_ += len(x)
        self.total_ += float(x.sum())
        return self

    @property
    def var_(self):
        return 1.0 / (1.0 / self.prior_var + self.n_ / self.noise_var)

    @property
    def mean_(self):
        return self.var_ * (self.prior_mean / self.prior_var + self.total_ / self.noise_var)

    @property
    def mle_(self):
        r"""Maximum-likelihood estimate :math:`\bar x` (undefined before any observation)."""
        self._require_observations(self.n_)
        return self.total_ / self.n_

    @property
    def map_(self):
        """Posterior mode, equal to the posterior mean."""
        return self.mean_

    @property
    def posterior_mean_(self):
        return self.mean_

    def posterior(self):
        """The posterior as a frozen ``scipy.stats.norm`` distribution."""
        return stats.norm(self.mean_, np.sqrt(self.var_))

    def predictive(self):
        r"""The predictive distribution of the next observation, :math:`\mathcal N(m_n, s_n^2 + \sigma^2)`."""
        return stats.norm(self.mean_, np.sqrt(self.var_ + self.noise_var))

    def __repr__(self):
        return (f"GaussianMean(prior_mean={self.prior_mean:g}, prior_var={self.prior_var:g}, "
                f"noise_var={self.noise_var:g}) with posterior N({self.mean_:.4g}, {self.var_:.4g})")
