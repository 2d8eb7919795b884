"""Generative classifiers (chapter 13): class-conditional densities and the Bayes classifier.

:func:`gaussian_mle` (full, diagonal, spherical), :class:`LinearDiscriminantAnalysis`,
:class:`QuadraticDiscriminantAnalysis`, :class:`GaussianNB`, :class:`CategoricalNB`; missing features:
:func:`class_gaussians`, :func:`marginal_log_posterior` (integrate them out), :func:`impute_conditional_mean`.
"""

from ._categorical import CategoricalNB
from ._discriminant import GaussianNB, LinearDiscriminantAnalysis, QuadraticDiscriminantAnalysis
from ._missing import class_gaussians, impute_conditional_mean, marginal_log_posterior
from ._mle import gaussian_mle

__all__ = ["gaussian_mle", "LinearDiscriminantAnalysis", "QuadraticDiscriminantAnalysis", "GaussianNB",
           "CategoricalNB", "class_gaussians", "marginal_log_posterior", "impute_conditional_mean"]
