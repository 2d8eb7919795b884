"""Loss functions and their (sub)gradients, vectorised (chapter 5, *Loss functions*).

Every loss is registered once in :data:`LOSSES` (name -> :class:`Loss`: the function, its derivative and
the pointwise loss of an action); :data:`REGRESSION_LOSSES` and :data:`MARGIN_LOSSES` are views of it.
Three families, each a function of the quantity the loss depends on:

- regression losses of the residual ``r = y - y_pred``: :func:`square`, :func:`absolute`, :func:`huber`;
- classification losses of the margin ``m = y * f(x)`` with ``y`` in {-1, +1}: :func:`zero_one`,
  :func:`hinge`, :func:`squared_hinge`, :func:`logistic`, :func:`exponential`, :func:`square_margin`,
  and :func:`margin` to form ``m``;
- cross-entropy from scores: :func:`binary_cross_entropy` (labels 0/1) and :func:`softmax_cross_entropy`.

Every loss ``name`` has ``name_grad``, its derivative with respect to its argument (a subgradient at kinks).

Around the losses, the tools of the same chapter: :func:`regression_risk` (the empirical risk of a line
under a regression loss; the line that minimises it is fitted by :func:`mlnotes.linear.fit_linear`),
:func:`importance_weights` and
:func:`class_priors` (reweighting the loss for a change of class priors), and :func:`threshold_errors`,
:func:`best_threshold`, :func:`label_shift_threshold` (choosing a decision threshold).
"""

from ._margin import (exponential, exponential_grad, hinge, hinge_grad, logistic, logistic_grad,
                      margin, square_margin, square_margin_grad, squared_hinge, squared_hinge_grad, zero_one,
                      zero_one_grad)
from ._probabilistic import (binary_cross_entropy, binary_cross_entropy_grad, softmax_cross_entropy,
                             softmax_cross_entropy_grad)
from ._registry import LOSSES, MARGIN_LOSSES, REGRESSION_LOSSES, Loss, regression_risk
from ._regression import absolute, absolute_grad, huber, huber_grad, square, square_grad
from ._reweighting import class_priors, importance_weights
from ._threshold import best_threshold, label_shift_threshold, threshold_errors

__all__ = ["square", "square_grad", "absolute", "absolute_grad", "huber", "huber_grad",
           "margin", "zero_one", "zero_one_grad", "hinge", "hinge_grad", "squared_hinge", "squared_hinge_grad",
           "logistic", "logistic_grad", "exponential", "exponential_grad", "square_margin", "square_margin_grad",
           "MARGIN_LOSSES", "binary_cross_entropy", "binary_cross_entropy_grad",
           "softmax_cross_entropy", "softmax_cross_entropy_grad",
           "LOSSES", "Loss", "REGRESSION_LOSSES", "regression_risk", "class_priors", "importance_weights",
           "threshold_errors", "best_threshold", "label_shift_threshold"]
