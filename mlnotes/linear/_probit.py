r"""Probit regression: the Bernoulli GLM with the probit link (chapter 12, *Linear classification*, GLMs).

The probability of the positive class is the standard normal CDF of the score,
:math:`p(y = 1 \mid x) = \Phi(z)` with :math:`z = w^\top x + b`, instead of the logistic
:math:`\sigma(z)`. With the labels coded :math:`q_i = 2y_i - 1 \in \{-1, +1\}` and :math:`u_i = q_i z_i`,
the negative log-likelihood of a sample is :math:`-\log\Phi(u_i)`, and the objective is scaled as
:class:`LogisticRegression`'s (the same ``C``):

.. math::
    F(w, b) = \frac1S \sum_i s_i \big(-\log\Phi(u_i)\big) + \frac{1}{2CS}\|w\|^2 .

With the inverse Mills ratio :math:`r(u) = \varphi(u) / \Phi(u)`, the derivative of a sample's loss in
:math:`z` is :math:`-q_i\,r(u_i)` and the second derivative is :math:`r(u_i)\,(u_i + r(u_i)) > 0`
(:math:`\Phi` is log-concave), so the objective is convex; the link is not the canonical one, so the
gradient is not :math:`X^\top(p - y)` as for the logistic model.
"""

import numpy as np
from scipy.special import erfcx, log_ndtr, ndtr

from ..utils.validation import to_float_array
from ._glm import GLMClassifier, Link, split_params
from ._logistic import _check_glm_arguments, _penalty

_SQRT_2_OVER_PI = np.sqrt(2.0 / np.pi)


def inverse_mills_ratio(u):
    r"""The ratio :math:`r(u) = \varphi(u) / \Phi(u)` of the standard normal density and CDF, computed stably.

    Parameters
    ----------
    u : array of any shape

    Returns
    -------
    array of the shape of ``u``
        Positive; :math:`r(u) \approx -u` as :math:`u \to -\infty` and :math:`r(u) \to 0` as :math:`u \to \infty`.

    Notes
    -----
    With the scaled complementary error function :math:`\operatorname{erfcx}(t) = e^{t^2}\operatorname{erfc}(t)`,
    :math:`\Phi(u) = \tfrac12 \operatorname{erfcx}(-u/\sqrt2)\, e^{-u^2/2}`, and the Gaussian factors cancel
    exactly: :math:`r(u) = \sqrt{2/\pi} / \operatorname{erfcx}(-u/\sqrt2)`. No :math:`0/0` occurs in the far left
    tail, and for large :math:`u` the denominator overflows to infinity, giving the limit 0.
    """
    u = to_float_array(u, "u", "a number or an array")
    with np.errstate(over="ignore"):
        return _SQRT_2_OVER_PI / erfcx(-u / np.sqrt(2.0))


def _scores(w, X, Y, fit_intercept):
    """Scores z (n,), signed labels q = 2y - 1 (n,) and u = q z, for the one-output layout of w."""
    W, b = split_params(w, X.shape[1], 1, fit_intercept)
    z = X @ W[0] + b[0]
    q = 2.0 * Y[:, 0] - 1.0
    return W, q, q * z


def probit_objective(w, X, Y, sample_weight, C, fit_intercept=True):
    r"""Value and gradient of the penalised probit negative log-likelihood.

    Parameters
    ----------
    w : array of shape (n_features + fit_intercept,)
        The weights followed by the intercept.
    X : array of shape (n_samples, n_features)
    Y : array of shape (n_samples, 1)
        0/1 labels of the positive class.
    sample_weight : array of shape (n_samples,)
    C : float > 0 or inf
        Inverse penalty strength (``inf``: no penalty).
    fit_intercept : bool

    Returns
    -------
    value : float
    gradient : array of shape (n_features + fit_intercept,)
        :math:`\frac1S \tilde X^\top \operatorname{diag}(s)\,(-q \odot r(u)) + w / (CS)`.

    Raises
    ------
    ValueError
        If the shapes do not fit together, an entry is not finite, a label is outside [0, 1], a
        weight is negative (or all are 0), or ``C`` is not a positive number or ``inf``.
    """
    return _probit_objective(*_check_glm_arguments(w, X, Y, sample_weight, C, fit_intercept, n_outputs=1))


def _probit_objective(w, X, Y, sample_weight, C, fit_intercept=True):
    """:func:`probit_objective` without the checks (called at every iteration of the solvers)."""
    W, q, u = _scores(w, X, Y, fit_intercept)
    S = sample_weight.sum()
    penalty = _penalty(C, S)
    value = sample_weight @ (-log_ndtr(u)) / S + 0.5 * penalty * np.sum(W * W)
    dz = -q * inverse_mills_ratio(u) * sample_weight / S          # d(loss)/dz, weighted
    grad_w = X.T @ dz + penalty * W[0]
    grad = np.append(grad_w, dz.sum()) if fit_intercept else grad_w
    return float(value), grad


def probit_hessian(w, X, Y, sample_weight, C, fit_intercept=True):
    r"""Hessian of :func:`probit_objective`, shape (len(w), len(w)).

    :math:`\frac1S \tilde X^\top \operatorname{diag}\big(s_i\, r(u_i)(u_i + r(u_i))\big) \tilde X + I/(CS)` on
    the weights. The curvature :math:`r(u)(u + r(u))` lies in :math:`(0, 1)`; it is clipped at 0 against
    rounding in the far left tail, so the matrix is always positive semi-definite. The arguments are
    those of :func:`probit_objective`, checked the same way.
    """
    return _probit_hessian(*_check_glm_arguments(w, X, Y, sample_weight, C, fit_intercept, n_outputs=1))


def _probit_hessian(w, X, Y, sample_weight, C, fit_intercept=True):
    """:func:`probit_hessian` without the checks."""
    W, q, u = _scores(w, X, Y, fit_intercept)
    Xt = np.column_stack([X, np.ones(X.shape[0])]) if fit_intercept else X
    S = sample_weight.sum()
    r = inverse_mills_ratio(u)
    curvature = np.maximum(r * (u + r), 0.0)
    A = Xt * np.sqrt(sample_weight / S * curvature)[:, None]
    H = A.T @ A
    idx = np.arange(X.shape[1])
    H[idx, idx] += _penalty(C, S)
    return H


class ProbitRegression(GLMClassifier):
    r"""Probit regression with an L2 penalty, for two classes: :math:`p(y = 1 \mid x) = \Phi(w^\top x + b)`.

    The generalised linear model of :class:`~mlnotes.linear.GLMClassifier` with the standard normal CDF
    :math:`\Phi` as the inverse link (where :class:`LogisticRegression` has the sigmoid); ``C`` has the
    same meaning (the objective is :math:`C\sum_i s_i\,\ell_i + \tfrac12\|w\|^2` with :math:`\ell_i = -\log\Phi(q_i z_i)`).

    Parameters
    ----------
    C : float > 0, default 1
        Inverse regularisation strength; ``np.inf`` fits the plain maximum-likelihood model.
    fit_intercept : bool, default True
    solver : {"lbfgs", "newton"}, default "lbfgs"
        ``"newton"`` uses the exact :func:`probit_hessian`.
    tol : float > 0, default 1e-4
    max_iter : int, default 100

    Attributes
    ----------
    classes_ : array of shape (2,)
    coef_ : array of shape (1, n_features)
    intercept_ : array of shape (1,)
    n_iter_ : array of shape (1,)
    n_features_in_ : int

    Notes
    -----
    Derived in chapter 12, *Linear classification* (generalised linear models): the gradient
    :math:`-\sum_i q_i\, r(q_i z_i)\, x_i` with the inverse Mills ratio :math:`r = \varphi/\Phi`.
    Fitted coefficients are close to the logistic ones divided by about 1.6-1.8, because
    :math:`\sigma(z) \approx \Phi(z / 1.7)`.
    """

    link = Link("probit", ndtr, log_ndtr, _probit_objective, _probit_hessian, multiclass=False)

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.classifier_tags.multi_class = False
        return tags
