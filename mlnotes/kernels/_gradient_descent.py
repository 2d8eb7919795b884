r"""Kernelised gradient descent (chapter 16, *Kernel methods*; note 003): least squares and logistic regression.

Gradient descent on the weights :math:`\theta` of explicit features :math:`\Phi` (rows :math:`\varphi(x_i)`),
started at :math:`\theta_0 = 0`, keeps :math:`\theta_t = \Phi^\top\beta_t` in the span of the training features,
and the update of :math:`\theta` is an update of :math:`\beta` that needs only :math:`K = \Phi\Phi^\top`:

.. math::
    \theta_{t+1} = \theta_t - \eta\big(\tfrac1n\Phi^\top r(\Phi\theta_t) + \alpha\,\theta_t\big)
    \quad\Longleftrightarrow\quad
    \beta_{t+1} = \beta_t - \eta\big(\tfrac1n r(K\beta_t) + \alpha\,\beta_t\big),

with the residual :math:`r(z) = z - y` (least squares) or :math:`r(z) = \sigma(z) - y` (logistic, :math:`y \in
\{0, 1\}`). The iterates are the same functions :math:`f_t(x) = \theta_t^\top\varphi(x) = \sum_i \beta_{t,i}
k(x_i, x)`. The steps run in :func:`mlnotes.optim.gradient_descent`.
"""

import warnings
from numbers import Integral, Real

import numpy as np
from scipy import linalg
from scipy.special import expit
from sklearn.base import BaseEstimator, ClassifierMixin, RegressorMixin
from sklearn.exceptions import ConvergenceWarning

from ..optim import gradient_descent
from ..utils.validation import as_float_vector, check_classes, check_option, check_scalar
from ._base import KernelMixin
from ._validation import check_kernel_matrix

#: The largest second derivative of each loss in its argument: 1 for the squared loss (halved), 1/4 for the
#: logistic loss; the gradient of the objective in theta is then Lipschitz with L = c lambda_max(K) / n + alpha.
CURVATURE = {"squared": 1.0, "logistic": 0.25}


def kernel_gd_direction(beta, K, y, alpha=0.0, loss="squared"):
    r"""The kernelised gradient step direction :math:`g = \tfrac1n r(K\beta) + \alpha\beta`, with
    :math:`\nabla_\theta J(\Phi^\top\beta) = \Phi^\top g`.

    Parameters
    ----------
    beta : ndarray of shape (n_samples,)
    K : ndarray of shape (n_samples, n_samples)
        The Gram matrix of the training points.
    y : ndarray of shape (n_samples,)
        Targets (``"squared"``) or labels in {0, 1} (``"logistic"``).
    alpha : float >= 0, default 0
        The penalty :math:`\tfrac\alpha2\lVert\theta\rVert^2`.
    loss : {"squared", "logistic"}, default "squared"
        :math:`J(\theta) = \tfrac1{2n}\lVert\Phi\theta - y\rVert^2` or the mean logistic loss
        :math:`\tfrac1n\sum_i \log(1 + e^{\varphi_i^\top\theta}) - y_i\varphi_i^\top\theta`, plus the penalty.

    Returns
    -------
    g : ndarray of shape (n_samples,)
        :math:`\beta_{t+1} = \beta_t - \eta g`.

    Raises
    ------
    ValueError
        An unknown ``loss``, NaN or infinity in ``beta``, ``K`` or ``y``, a ``K`` that is not square (n, n) with
        ``n = len(y)``, a ``beta`` of another length, a negative ``alpha``.

    Notes
    -----
    The residual is :math:`r(z) = z - y` or :math:`\sigma(z) - y` (the logistic function applied entrywise to
    :math:`K\beta`: note 003's :math:`g(k\beta)`, line 121, with the Gram matrix :math:`K` and labels in {0, 1}).
    Chapter 16.
    """
    loss = check_option(loss, "loss", tuple(CURVATURE))
    y = as_float_vector(y, "y")
    beta = as_float_vector(beta, "beta", len(y))
    K = check_kernel_matrix(K, "K", shape=(len(y), len(y)), require_psd=False)
    alpha = check_scalar(alpha, "alpha", Real, min_val=0)
    return _direction(beta, K, y, alpha, loss)


def _direction(beta, K, y, alpha, loss):
    """:func:`kernel_gd_direction` without the validation (the estimators validate once, before the loop)."""
    z = K @ beta
    residual = (z if loss == "squared" else expit(z)) - y
    return residual / len(y) + alpha * beta


def _fit_kernel_gd(estimator, K, y, loss):
    """Run kernelised gradient descent on ``K``, ``y``; sets ``dual_coef_``, ``n_iter_``, ``step_size_``."""
    alpha = check_scalar(estimator.alpha, "alpha", Real, min_val=0)
    max_iter = check_scalar(estimator.max_iter, "max_iter", Integral, min_val=1)
    tol = check_scalar(estimator.tol, "tol", Real, min_val=0)
    n = K.shape[0]
    if estimator.step_size is None:
        # 1/L, L = c lambda_max(K) / n + alpha: the largest fixed step with a guaranteed decrease
        lambda_max = max(linalg.eigvalsh(K, subset_by_index=(n - 1, n - 1))[0], 0.0)
        L = CURVATURE[loss] * lambda_max / n + alpha
        step_size = 1.0 / L if L > 0 else 1.0
    else:
        step_size = check_scalar(estimator.step_size, "step_size", Real, min_val=0, include_boundaries="neither")
    with np.errstate(over="ignore", invalid="ignore"):      # an overflow ends the run: reported below
        result = gradient_descent(None, lambda beta: _direction(beta, K, y, alpha, loss), np.zeros(n),
                                  step_size=step_size, tol=tol, max_iter=max_iter, warn=False)
    if result.message.startswith("diverged"):
        # a diverged run has no model to return (its last good iterate is an arbitrary early one)
        raise ValueError(f"{type(estimator).__name__}: {result.message} after {result.n_iter} steps: the step size "
                         f"{step_size:g} is too large for this kernel matrix (a fixed step converges only below "
                         f"2/L, L = {CURVATURE[loss]:g} lambda_max(K)/n + alpha; the default step_size=None is 1/L), "
                         f"or the targets are too large to represent their squares; decrease step_size or rescale y")
    if not result.converged and tol > 0:
        warnings.warn(f"{type(estimator).__name__}: {result.message} (the norm of the step direction g; tol = "
                      f"{tol:g}); increase max_iter or step_size", ConvergenceWarning, stacklevel=3)
    estimator.dual_coef_ = result.x
    estimator.n_iter_ = result.n_iter
    estimator.step_size_ = step_size
    return estimator


_PARAMETERS_DOC = r"""
    Parameters
    ----------
    step_size : float > 0, optional
        The fixed step :math:`\eta`; None means :math:`1/L` with :math:`L = c\,\lambda_{\max}(K)/n + \alpha`
        the Lipschitz constant of :math:`\nabla_\theta J` (:math:`c = 1` least squares, :math:`1/4` logistic).
    max_iter : int >= 1, default 1000
        Number of steps at most.
    tol : float >= 0, default 1e-4
        Stop when :math:`\lVert g\rVert_2 \le` ``tol`` (the stopping rule of :func:`mlnotes.optim.gradient_descent`
        on the step direction :math:`g` of :func:`kernel_gd_direction`); 0 runs exactly ``max_iter`` steps (and
        does not warn). Otherwise stopping at ``max_iter`` warns (``ConvergenceWarning``).
    alpha : float >= 0, default 0
        Penalty :math:`\tfrac\alpha2\lVert\theta\rVert^2` (0: plain least squares / logistic regression).
    kernel, gamma, degree, coef0, kernel_params
        As in :class:`KernelRidge` (default kernel ``"rbf"``).

    Attributes
    ----------
    dual_coef_ : ndarray of shape (n_samples,)
        :math:`\beta`, with :math:`\theta = \Phi^\top\beta` and :math:`f(x) = \sum_i \beta_i k(x_i, x)`.
    n_iter_ : int
        Steps taken.
    step_size_ : float
        The step used.
    X_fit_ : ndarray of shape (n_samples, n_features), or None for a precomputed kernel
    n_features_in_ : int

    Raises
    ------
    ValueError
        NaN or infinity, a non-positive ``gamma`` or ``step_size``, a Gram matrix that is not positive
        semidefinite (precomputed, callable, sigmoid or polynomial with :math:`c_0 < 0`: gradient descent then
        diverges along the directions of negative curvature), or a run that diverged (the iterates overflowed: a
        ``step_size`` above :math:`2/L`, or targets too large).
"""


class _KernelGD(KernelMixin, BaseEstimator):
    def __init__(self, *, step_size=None, max_iter=1000, tol=1e-4, alpha=0.0, kernel="rbf", gamma=None, degree=3,
                 coef0=1, kernel_params=None):
        self.step_size = step_size
        self.max_iter = max_iter
        self.tol = tol
        self.alpha = alpha
        super().__init__(kernel, gamma, degree, coef0, kernel_params)

    def _f(self, X):
        return self._predict_kernel(X) @ self.dual_coef_


class KernelGDRegressor(RegressorMixin, _KernelGD):
    __doc__ = r"""Least squares by kernelised gradient descent (note 003): the iterates of gradient descent on explicit
    features, computed with the kernel only.

    Minimises :math:`J(\theta) = \tfrac1{2n}\lVert\Phi\theta - y\rVert^2 + \tfrac\alpha2\lVert\theta\rVert^2`
    from :math:`\theta_0 = 0` by :math:`\beta_{t+1} = \beta_t - \eta(\tfrac1n(K\beta_t - y) + \alpha\beta_t)`.
    """ + _PARAMETERS_DOC + r"""
    Notes
    -----
    :math:`\theta_t = \Phi^\top\beta_t` equals the :math:`t`-th iterate of gradient descent on the explicit
    features (the tests check it with the polynomial feature map). With :math:`\alpha = 0` and :math:`K`
    invertible the iterates tend to :math:`\beta = K^{-1}y`, the interpolant (``KernelRidge`` as
    :math:`\alpha \to 0`); with :math:`\alpha > 0`, to ``KernelRidge(alpha = n alpha)``. No intercept. Chapter 16.
    """

    def fit(self, X, y):
        """Fit on ``X`` (n_samples, n_features) or a precomputed Gram matrix, and ``y`` (n_samples,)."""
        K, y = self._fit_kernel(X, y, y_numeric=True, require_psd=True)
        return _fit_kernel_gd(self, K, y, "squared")

    def predict(self, X):
        r""":math:`f(x) = \sum_i \beta_i k(x_i, x)`, shape (n_test,)."""
        return self._f(X)


class KernelGDClassifier(ClassifierMixin, _KernelGD):
    __doc__ = r"""Logistic regression by kernelised gradient descent (note 003), for two classes.

    Minimises the mean logistic loss of :math:`f = \Phi\theta` plus :math:`\tfrac\alpha2\lVert\theta\rVert^2`
    from :math:`\theta_0 = 0` by :math:`\beta_{t+1} = \beta_t - \eta(\tfrac1n(\sigma(K\beta_t) - y) +
    \alpha\beta_t)`, with :math:`y_i = 1` for ``classes_[1]`` and 0 for ``classes_[0]``.
    """ + _PARAMETERS_DOC + r"""    classes_ : ndarray of shape (2,)

    Notes
    -----
    The iterates equal those of gradient descent on the explicit features, as for :class:`KernelGDRegressor`.
    :math:`P(y = \text{classes\_[1]} \mid x) = \sigma(f(x))`; ``predict`` takes ``classes_[1]`` when
    :math:`f(x) > 0`. With :math:`\alpha = 0` on separable data the weights grow without bound (no minimiser):
    the step count is then the regulariser. Chapter 16.
    """

    def fit(self, X, y):
        """Fit on ``X`` (n_samples, n_features) or a precomputed Gram matrix, and two-class labels ``y``."""
        self._kernel_args = self._check_kernel_params()
        _, _, codes = check_classes(self, X, y, binary=True, dtype=np.float64)
        K, _ = self._fit_kernel(X, y, require_psd=True)
        return _fit_kernel_gd(self, K, codes.astype(float), "logistic")

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.classifier_tags.multi_class = False
        return tags

    def decision_function(self, X):
        r""":math:`f(x) = \sum_i \beta_i k(x_i, x)`, shape (n_test,); positive for ``classes_[1]``."""
        return self._f(X)

    def predict_proba(self, X):
        r""":math:`[1 - \sigma(f(x)), \sigma(f(x))]`, shape (n_test, 2)."""
        p = expit(self._f(X))
        return np.column_stack([1 - p, p])

    def predict(self, X):
        """The predicted labels, shape (n_test,)."""
        positive = self._f(X) > 0
        return self.classes_[positive.astype(int)]
