r"""Logistic regression, binary and multinomial, by L-BFGS or Newton's method (chapter 12, *Linear classification*).

The objective is scikit-learn's, divided by :math:`C\,S` with :math:`S = \sum_i s_i` (the same minimiser):

.. math::
    F(W, b) = \frac{1}{S}\sum_{i=1}^n s_i\,\ell\big(y_i, W x_i + b\big) + \frac{1}{2CS}\|W\|_F^2 ,

with the cross-entropy :math:`\ell` of the sigmoid (two classes, one weight vector) or of the softmax
(:math:`K > 2` classes, one weight vector per class), and an unpenalised intercept. Its gradient is
:math:`\frac1S X^\top \operatorname{diag}(s)(P - Y) + W / (CS)` where :math:`P` holds the predicted
probabilities: the derivation of the chapter.
"""

from numbers import Real

import numpy as np
from scipy.special import expit, softmax

from ..losses import softmax_cross_entropy, softmax_cross_entropy_grad
from ..losses._probabilistic import _binary_cross_entropy, _binary_cross_entropy_grad
from ..utils.validation import as_finite_array, as_float_matrix, check_bool, check_sample_weight, check_scalar
from ._glm import GLMClassifier, Link, split_params


def _penalty(C, S):
    """The coefficient 1/(CS) of the penalty ||W||^2 / 2 (0 for C = inf)."""
    return 0.0 if np.isinf(C) else 1.0 / (C * S)


def _check_glm_arguments(w, X, Y, sample_weight, C, fit_intercept, *, n_outputs=None):
    """Validate the arguments of the objective and Hessian functions of the classification GLMs.

    Light checks (shapes, finite values, ranges), so that a wrong call fails with a clear message
    instead of a numpy broadcasting error or a silent NaN. ``n_outputs`` fixes the number of columns
    of ``Y`` (1 for the probit model). Returns the arguments as float arrays.
    """
    X = as_float_matrix(X)
    n, d = X.shape
    Y = as_finite_array(Y, "Y")
    if Y.ndim != 2 or Y.shape[0] != n or (n_outputs is not None and Y.shape[1] != n_outputs):
        cols = "K" if n_outputs is None else str(n_outputs)
        raise ValueError(f"Y must have shape (n_samples, {cols}) = ({n}, {cols}), got shape {Y.shape}")
    if ((Y < 0) | (Y > 1)).any():
        raise ValueError("Y must hold labels in [0, 1] (0/1 labels, or one-hot rows)")
    sample_weight = check_sample_weight(sample_weight, n)
    C = check_scalar(C, "C", Real, min_val=0, include_boundaries="neither", allow_inf=True)
    fit_intercept = check_bool(fit_intercept, "fit_intercept")
    w = as_finite_array(w, "w")
    size = Y.shape[1] * (d + int(fit_intercept))
    if w.shape != (size,):
        raise ValueError(f"w must have shape ({size},): one row [w_k{', b_k' if fit_intercept else ''}] of "
                         f"{d + int(fit_intercept)} entries for each of the {Y.shape[1]} output(s), got shape "
                         f"{w.shape}")
    return w, X, Y, sample_weight, C, fit_intercept


def logistic_objective(w, X, Y, sample_weight, C, fit_intercept=True):
    r"""Value and gradient of the (binary or multinomial) logistic regression objective.

    Parameters
    ----------
    w : array of shape (K * (n_features + fit_intercept),)
        One row :math:`[w_k, b_k]` per output, concatenated.
    X : array of shape (n_samples, n_features)
    Y : array of shape (n_samples, K)
        ``K = 1``: the 0/1 labels of the positive class (sigmoid model); ``K > 2``: one-hot labels
        (softmax model).
    sample_weight : array of shape (n_samples,)
    C : float > 0 or inf
        Inverse penalty strength (``inf``: no penalty).
    fit_intercept : bool

    Returns
    -------
    value : float
    gradient : array of the shape of ``w``

    Raises
    ------
    ValueError
        If the shapes do not fit together, an entry is not finite, a label is outside [0, 1], a
        weight is negative (or all are 0), or ``C`` is not a positive number or ``inf``.
    """
    return _logistic_objective(*_check_glm_arguments(w, X, Y, sample_weight, C, fit_intercept))


def _logistic_objective(w, X, Y, sample_weight, C, fit_intercept=True):
    """:func:`logistic_objective` without the checks (called at every iteration of the solvers)."""
    n_features, K = X.shape[1], Y.shape[1]
    W, b = split_params(w, n_features, K, fit_intercept)
    Z = X @ W.T + b                                             # scores, (n, K)
    if K == 1:
        z = Z[:, 0]
        if not np.isfinite(z).all():    # X @ W overflowed: the error the checked cross-entropy gives
            as_finite_array(z, "z")
        # the labels were checked once, by the caller: the unchecked losses (the same arithmetic)
        losses = _binary_cross_entropy(Y[:, 0], z)
        R = _binary_cross_entropy_grad(Y[:, 0], z)[:, None]     # dloss/dz = sigma(z) - y
    else:
        losses = softmax_cross_entropy(Y, Z)
        R = softmax_cross_entropy_grad(Y, Z)                        # softmax(Z) - Y
    S = sample_weight.sum()
    penalty = _penalty(C, S)
    value = sample_weight @ losses / S + 0.5 * penalty * np.sum(W * W)
    sR = R * (sample_weight / S)[:, None]
    grad_W = sR.T @ X + penalty * W
    grad = np.column_stack([grad_W, sR.sum(axis=0)]) if fit_intercept else grad_W
    return float(value), grad.ravel()


def logistic_hessian(w, X, Y, sample_weight, C, fit_intercept=True):
    r"""Hessian of :func:`logistic_objective`, of shape (len(w), len(w)).

    With :math:`\tilde X = [X, 1]` (or :math:`X` without intercept) and :math:`P` the predicted
    probabilities, the block of outputs :math:`(k, l)` is
    :math:`\frac1S \tilde X^\top \operatorname{diag}(s_i p_{ik}(\delta_{kl} - p_{il})) \tilde X`, plus
    :math:`I/(CS)` on the weights. For the sigmoid model (one output) that is
    :math:`\frac1S \tilde X^\top \operatorname{diag}(s_i p_i(1-p_i)) \tilde X + I/(CS)`: positive definite
    for finite C, so the objective is strictly convex. The arguments are those of
    :func:`logistic_objective`, checked the same way.
    """
    return _logistic_hessian(*_check_glm_arguments(w, X, Y, sample_weight, C, fit_intercept))


def _logistic_hessian(w, X, Y, sample_weight, C, fit_intercept=True):
    """:func:`logistic_hessian` without the checks."""
    n_features, K = X.shape[1], Y.shape[1]
    W, b = split_params(w, n_features, K, fit_intercept)
    Xt = np.column_stack([X, np.ones(X.shape[0])]) if fit_intercept else X
    S = sample_weight.sum()
    s = sample_weight / S
    Z = X @ W.T + b
    if K == 1:
        p = expit(Z[:, 0])
        A = Xt * np.sqrt(s * p * (1 - p))[:, None]
        H = A.T @ A                                             # a symmetric rank-n update (BLAS syrk)
    else:
        P = softmax(Z, axis=1)
        H = np.block([[Xt.T @ (Xt * (s * P[:, k] * ((k == m) - P[:, m]))[:, None]) for m in range(K)]
                      for k in range(K)])
    weights = np.tile(np.arange(Xt.shape[1]) < n_features, K)   # the weight entries (not intercepts) of w
    H[weights, weights] += _penalty(C, S)
    return H


class LogisticRegression(GLMClassifier):
    r"""Logistic regression with an L2 penalty: binary (sigmoid) or multinomial (softmax).

    Minimises scikit-learn's objective :math:`C\sum_i s_i\,\ell_i + \tfrac12\|W\|^2` (the intercept is
    not penalised), so ``C`` means what it means in scikit-learn and the solutions agree.

    Parameters
    ----------
    C : float > 0, default 1
        Inverse regularisation strength; ``np.inf`` fits without penalty. On linearly separable data the
        unpenalised likelihood has no maximiser: the fit then warns (``ConvergenceWarning``).
    fit_intercept : bool, default True
    solver : {"lbfgs", "newton"}, default "lbfgs"
        ``"lbfgs"``: scipy's L-BFGS-B on :func:`logistic_objective`, with the weights rescaled by the size
        of the features; ``"newton"``: :func:`mlnotes.optim.newton` (IRLS for two classes) with the exact
        :func:`logistic_hessian` and the Armijo line search.
    tol : float > 0, default 1e-4
        Converged when the Euclidean norm of the objective's gradient is at most ``tol`` (checked on the
        result, whatever the solver; a ``ConvergenceWarning`` otherwise).
    max_iter : int, default 100

    Attributes
    ----------
    classes_ : array of shape (n_classes,)
    coef_ : array of shape (1, n_features) for two classes, else (n_classes, n_features)
    intercept_ : array of shape (1,) or (n_classes,)
        For the softmax model the intercepts are defined up to a common constant; they are returned
        with sum 0, as scikit-learn's solver produces them.
    n_iter_ : array of shape (1,)
    n_features_in_ : int

    Notes
    -----
    Derived in chapter 12, *Linear classification*: the gradient :math:`X^\top(p - y)` of the negative
    log-likelihood, its Hessian :math:`X^\top \operatorname{diag}(p(1-p)) X`, convexity and Newton/IRLS.
    """

    link = Link("logit", expit, lambda z: -np.logaddexp(0, -z), _logistic_objective, _logistic_hessian,
                multiclass=True)
