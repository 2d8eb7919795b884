"""Bayesian models with conjugate priors (chapter 11, *Probabilistic regression*):
:class:`BayesianLinearRegression` (Gaussian prior, known noise) and the conjugate pairs
:class:`BetaBernoulli` (the coin), :class:`GammaPoisson` (counts) and :class:`GaussianMean` (a mean)."""

from ._conjugate import BetaBernoulli, GammaPoisson, GaussianMean
from ._linear import BayesianLinearRegression, gaussian_posterior

__all__ = ["BayesianLinearRegression", "BetaBernoulli", "GammaPoisson", "GaussianMean", "gaussian_posterior"]
