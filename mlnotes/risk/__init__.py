"""Statistical learning theory (chapter 4): risk, empirical risk, Bayes actions, and the excess-risk
decomposition of polynomial least squares on a known distribution.

- decision theory: :func:`empirical_risk`, :func:`expected_loss` and :func:`bayes_action` for the losses in
  :data:`LOSSES` (square, absolute, 0-1) or any callable ``loss(a, y)``;
- the decomposition: :class:`RegressionProblem` (a known distribution whose risks are integrals),
  :func:`legendre_features`, :func:`fit_polynomial` (least squares or early-stopped gradient descent) and
  :func:`excess_risk_decomposition`, which returns an :class:`ExcessRiskDecomposition`.
"""

from ._decision import LOSSES, bayes_action, empirical_risk, expected_loss
from ._decomposition import (ExcessRiskDecomposition, RegressionProblem, excess_risk_decomposition, fit_polynomial,
                             legendre_features)

__all__ = ["LOSSES", "empirical_risk", "expected_loss", "bayes_action",
           "RegressionProblem", "legendre_features", "fit_polynomial", "ExcessRiskDecomposition",
           "excess_risk_decomposition"]
