"""Bayesian models with conjugate priors (chapter 11, *Probabilistic regression*):
:class:`BayesianLinearRegression` (Gaussian prior, known noise) and :class:`BetaBernoulli` (the coin)."""

from ._conjugate import BetaBernoulli
from ._linear import BayesianLinearRegression, gaussian_posterior

__all__ = ["BayesianLinearRegression", "BetaBernoulli", "gaussian_posterior"]
