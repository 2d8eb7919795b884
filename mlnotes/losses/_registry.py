r"""The one registry of the library's losses: :data:`LOSSES`, name -> :class:`Loss`.

A loss is a function of one argument: the residual :math:`r = y - a` for regression losses, the margin
:math:`m = y\,a` (labels :math:`y \in \{-1, +1\}`, real score :math:`a`) for classification losses. Each
entry carries that function, its derivative (a subgradient at a kink), and the pointwise loss
:math:`\ell(a, y)` of an action :math:`a` for an outcome :math:`y` (calling the entry), which is what decision
theory (chapter 4, :mod:`mlnotes.risk`) uses. The 0-1 loss is one entry: :math:`\mathbb 1[m \le 0]` of the
margin and :math:`\mathbb 1[a \ne y]` of an action and a class label (the same for labels and predictions
in :math:`\{-1, +1\}`; the second also holds for any number of classes).
"""

from dataclasses import dataclass
from typing import Callable, Optional

import numpy as np

from ._margin import (exponential, exponential_grad, hinge, hinge_grad, logistic, logistic_grad, square_margin,
                      square_margin_grad, squared_hinge, squared_hinge_grad, zero_one, zero_one_grad)
from ..utils.validation import check_linear_problem, check_option, check_scalar
from ._regression import absolute, absolute_grad, huber, huber_grad, square, square_grad

ARGUMENTS = ("residual", "margin")


@dataclass(frozen=True)
class Loss:
    r"""A loss of the registry.

    Attributes
    ----------
    name : str
    argument : {"residual", "margin"}
        What ``value`` is a function of: :math:`r = y - a` or :math:`m = y\,a`.
    value, grad : callable
        The loss and its derivative as functions of that argument, vectorised.
    compare : callable, optional
        ``compare(a, y)`` for a loss whose pointwise form is not ``value`` of the argument (the 0-1 loss
        of class labels, :math:`\mathbb 1[a \ne y]`).
    """

    name: str
    argument: str
    value: Callable
    grad: Callable
    compare: Optional[Callable] = None

    def __call__(self, a, y):
        r"""The pointwise loss :math:`\ell(a, y)` of actions ``a`` for outcomes ``y`` (broadcast)."""
        if self.compare is not None:
            return self.compare(a, y)
        a, y = np.asarray(a, dtype=float), np.asarray(y, dtype=float)
        return self.value(y - a) if self.argument == "residual" else self.value(y * a)


def _labels_differ(a, y):
    a, y = np.asarray(a, dtype=float), np.asarray(y, dtype=float)
    return (a != y).astype(float)


#: Every loss of the library by name.
LOSSES = {loss.name: loss for loss in (
    Loss("square", "residual", square, square_grad),
    Loss("absolute", "residual", absolute, absolute_grad),
    Loss("huber", "residual", huber, huber_grad),
    Loss("zero_one", "margin", zero_one, zero_one_grad, compare=_labels_differ),
    Loss("hinge", "margin", hinge, hinge_grad),
    Loss("squared_hinge", "margin", squared_hinge, squared_hinge_grad),
    Loss("logistic", "margin", logistic, logistic_grad),
    Loss("exponential", "margin", exponential, exponential_grad),
    Loss("square_margin", "margin", square_margin, square_margin_grad),
)}

#: The names of the regression losses (functions of the residual), in the order chapter 5 plots them.
REGRESSION_LOSSES = tuple(name for name, loss in LOSSES.items() if loss.argument == "residual")

#: The margin losses as ``name: (phi, phi_grad)``, for plots and tests (a view of :data:`LOSSES`).
MARGIN_LOSSES = {name: (loss.value, loss.grad) for name, loss in LOSSES.items() if loss.argument == "margin"}


def regression_risk(X, y, w, b=0.0, loss="square", *, delta=1.0):
    r"""The empirical risk :math:`\frac1n\sum_i \psi(y_i - w^\top x_i - b)` of a linear model.

    Parameters
    ----------
    X : array of shape (n_samples, n_features)
    y : array of shape (n_samples,)
    w : array of shape (n_features,)
    b : float, default 0
        Intercept.
    loss : {"square", "absolute", "huber"}
    delta : float > 0, default 1
        Huber's threshold (ignored by the other losses).

    Returns
    -------
    risk : float
    """
    X, y, w = check_linear_problem(X, y, w)
    b = check_scalar(b, "b")
    psi = LOSSES[check_option(loss, "loss", REGRESSION_LOSSES)].value
    r = y - X @ w - b
    return float(np.mean(psi(r, delta) if loss == "huber" else psi(r)))
