r"""The beta-Bernoulli model: a coin with unknown bias :math:`\theta` and a :math:`\mathrm{Beta}(a, b)` prior (chapter 11).

After :math:`h` heads and :math:`n - h` tails the posterior is :math:`\mathrm{Beta}(a + h,\ b + n - h)`; the
maximum-likelihood estimate is :math:`h/n`, the MAP estimate :math:`(a + h - 1)/(a + b + n - 2)`, the
posterior mean :math:`(a + h)/(a + b + n)`, which is also the posterior predictive probability of heads.
"""

import numpy as np
from scipy import stats

from ..utils.validation import as_float_vector, check_scalar


class BetaBernoulli:
    """Beta prior on the probability of 1 of a Bernoulli variable, updated by counting.

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
    """

    def __init__(self, a=1.0, b=1.0):
        self.a = check_scalar(a, "a", low=0, include_low=False)
        self.b = check_scalar(b, "b", low=0, include_low=False)
        self.n_ones_, self.n_zeros_ = 0, 0

    def fit(self, y):
        """Posterior from the observations ``y`` (array of 0/1 of shape (n,)), forgetting earlier ones."""
        self.n_ones_, self.n_zeros_ = 0, 0
        return self.partial_fit(y)

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
        if n == 0:
            raise ValueError("the maximum-likelihood estimate needs at least one observation")
        return self.n_ones_ / n

    @property
    def map_(self):
        """Posterior mode :math:`(a_N - 1)/(a_N + b_N - 2)`, defined when both posterior parameters exceed 1."""
        if self.a_ <= 1 or self.b_ <= 1:
            raise ValueError(f"the posterior Beta({self.a_:g}, {self.b_:g}) has its mode on the boundary or no "
                             "unique mode: the MAP estimate needs a_N > 1 and b_N > 1")
        return (self.a_ - 1) / (self.a_ + self.b_ - 2)

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

    def credible_interval(self, level=0.95):
        """Equal-tailed posterior credible interval for the probability of 1."""
        level = check_scalar(level, "level", low=0, high=1, include_low=False)
        return tuple(float(v) for v in self.posterior().ppf([(1 - level) / 2, (1 + level) / 2]))

    def __repr__(self):
        return f"BetaBernoulli(a={self.a:g}, b={self.b:g}) with posterior Beta({self.a_:g}, {self.b_:g})"
