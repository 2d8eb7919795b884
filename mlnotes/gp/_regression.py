r"""Gaussian-process regression (chapter 17, *Gaussian processes*)."""

import warnings
from numbers import Integral, Real

import numpy as np
from sklearn.base import BaseEstimator, RegressorMixin
from sklearn.exceptions import ConvergenceWarning
from sklearn.utils.validation import check_is_fitted, validate_data

from ..optim import minimize
from ..kernels import check_kernel_matrix, rbf_kernel, squared_euclidean_distances
from ..kernels._ridge import PSD_TOL
from ..utils.validation import check_bool, check_option, check_scalar
from ._posterior import gp_cholesky, gp_lml_gradient, gp_log_marginal_likelihood, gp_predict, gp_weights

#: The hyperparameters, in the order of ``theta`` (scikit-learn's order for ``C * RBF + WhiteKernel``).
HYPERPARAMETERS = ("amplitude", "length_scale", "noise_level")
#: The stopping rule of the hyperparameter search: the Euclidean norm of the projected gradient of the log
#: marginal likelihood in theta, and the most L-BFGS iterations (scikit-learn's fmin_l_bfgs_b defaults).
LML_TOL = 1e-5
LML_MAX_ITER = 15000


# where l**2 and 1/l**2 are normal floats: outside it exp(-D/(2 l^2)) gives 0 * inf = NaN or gamma = 0
LENGTH_SCALE_RANGE = (1e-150, 1e150)


def _check_bounds(bounds, name):
    """``"fixed"`` or a pair ``(low, high)`` with ``0 < low <= high < inf``; returned as a float array or None."""
    if isinstance(bounds, str):
        check_option(bounds, name, ("fixed",))
        return None
    try:
        low, high = bounds
    except (TypeError, ValueError):
        raise TypeError(f"{name} must be 'fixed' or a pair (low, high), got {bounds!r}") from None
    low = check_scalar(low, f"{name}[0]", Real, min_val=0, include_boundaries="neither")
    high = check_scalar(high, f"{name}[1]", Real, min_val=low)
    return np.array([low, high])


class GaussianProcessRegressor(RegressorMixin, BaseEstimator):
    r"""Gaussian-process regression with a scaled RBF kernel (or a fixed kernel) and Gaussian noise.

    The prior is :math:`f \sim \mathcal{GP}(0, k)` with

    .. math:: k(x, x') = a \exp\!\Big(-\frac{\lVert x - x'\rVert^2}{2\ell^2}\Big) + s\,[x \text{ and } x'
        \text{ are the same training sample}],

    (amplitude :math:`a`, length scale :math:`\ell`, noise level :math:`s`), and the observations are
    :math:`y_i = f(x_i) + \varepsilon_i` with :math:`\varepsilon_i \sim \mathcal N(0, \sigma^2)`, :math:`\sigma^2`
    = ``alpha``.

    Parameters
    ----------
    kernel : "rbf" or callable, default "rbf"
        ``"rbf"``: :math:`a \exp(-\lVert x - x'\rVert^2 / (2\ell^2))`, evaluated with
        :func:`mlnotes.kernels.rbf_kernel` (``gamma`` :math:`= 1/(2\ell^2)`). A callable
        ``kernel(X, Y) -> K`` of shape (n_X, n_Y) is a fixed kernel :math:`k_0`, scaled to :math:`a\,k_0`
        (e.g. :math:`\phi(x)^\top \Sigma_p \phi(x')`, the weight-space view); ``length_scale`` is then unused.
    amplitude : float > 0, default 1.0
        :math:`a` (scikit-learn's ``ConstantKernel(constant_value)``): the prior variance of :math:`f(x)`.
    length_scale : float in [1e-150, 1e150], default 1.0
        :math:`\ell` (scikit-learn's ``RBF(length_scale)``, a scalar: one length scale for all features). The
        range (also that of ``length_scale_bounds``) keeps :math:`\ell^2` and :math:`1/\ell^2` normal floats.
    noise_level : float >= 0, default 0.0
        :math:`s` (scikit-learn's ``WhiteKernel(noise_level)``); 0 means no such term. Unlike ``alpha``, it is a
        hyperparameter (optimised when positive) and it is part of the predicted ``std``/``cov``.
    alpha : float >= 0 or array of shape (n_samples,), default 1e-10
        :math:`\sigma^2`, added to the diagonal of the training kernel matrix: the noise variance of the
        observations, or a jitter that keeps the Cholesky factorisation possible (scikit-learn's ``alpha``).
        It is not added to the predicted variances (they are those of :math:`f`, as in scikit-learn): add it
        for the variance of a new observation :math:`y_\star`.
    amplitude_bounds, length_scale_bounds, noise_level_bounds : pair of float or "fixed", default (1e-5, 1e5)
        Bounds of each hyperparameter for the optimiser; ``"fixed"`` keeps it at its value.
    optimizer : "lbfgs" or None, default "lbfgs"
        ``"lbfgs"``: maximise the log marginal likelihood over :math:`\theta` (the logs of the free
        hyperparameters) by L-BFGS-B within the bounds, with the analytic gradient. None: keep the given values.
    n_restarts_optimizer : int >= 0, default 0
        Further runs of the optimiser from starts drawn log-uniformly within the bounds; the best is kept.
    normalize_y : bool, default False
        Standardise ``y`` (mean 0, standard deviation 1) before fitting; predictions are transformed back. The
        log marginal likelihood is that of the standardised targets (as in scikit-learn).
    random_state : int, numpy Generator or None, default None
        Seeds the restarts' starting points (``np.random.default_rng``).

    Attributes
    ----------
    X_train_ : ndarray of shape (n_samples, n_features)
    y_train_ : ndarray of shape (n_samples,)
        The targets fitted (standardised if ``normalize_y``).
    y_train_mean_, y_train_std_ : float
        The standardisation (0 and 1 without ``normalize_y``).
    amplitude_, length_scale_, noise_level_ : float
        The hyperparameters of the fitted model (optimised or as given).
    hyperparameter_names_ : list of str
        The free hyperparameters, the order of ``theta_`` and of the gradient.
    theta_ : ndarray of shape (n_hyperparameters,)
        Their logarithms.
    bounds_ : ndarray of shape (n_hyperparameters, 2)
        The log bounds.
    L_ : ndarray of shape (n_samples, n_samples)
        Lower Cholesky factor of :math:`K + \sigma^2 I`.
    alpha_ : ndarray of shape (n_samples,)
        :math:`(K + \sigma^2 I)^{-1} y`.
    log_marginal_likelihood_value_ : float
    n_features_in_ : int

    Notes
    -----
    Posterior at test points :math:`X_\star` (Rasmussen and Williams, Algorithm 2.1), with :math:`K = k(X, X)`,
    :math:`K_\star = k(X_\star, X)`, :math:`L L^\top = K + \sigma^2 I`, :math:`\alpha = L^{-\top} L^{-1} y`,
    :math:`v = L^{-1} K_\star^\top`:

    .. math::
        \bar f_\star = K_\star \alpha, \qquad \operatorname{cov}(f_\star) = k(X_\star, X_\star) - v^\top v,

        \log p(y \mid X, \theta) = -\tfrac12 y^\top \alpha - \textstyle\sum_i \log L_{ii} - \tfrac n2 \log 2\pi,
        \qquad \frac{\partial \log p}{\partial \theta_j} = \tfrac12 \operatorname{tr}\Big((\alpha\alpha^\top -
        (K + \sigma^2 I)^{-1}) \frac{\partial K}{\partial \theta_j}\Big).

    **Mapping to scikit-learn.** ``GaussianProcessRegressor(amplitude=a, length_scale=l, noise_level=s,
    alpha=alpha, ...)`` is :class:`sklearn.gaussian_process.GaussianProcessRegressor` with
    ``kernel=ConstantKernel(a, amplitude_bounds) * RBF(l, length_scale_bounds) + WhiteKernel(s,
    noise_level_bounds)`` (without the ``WhiteKernel`` term when ``s = 0``) and the same ``alpha``,
    ``normalize_y``, ``n_restarts_optimizer``; ``optimizer="lbfgs"`` is its ``"fmin_l_bfgs_b"``. ``theta_`` is
    its ``kernel_.theta`` (the same order), so the log marginal likelihood and its gradient agree at every
    ``theta``. Differences: ``predict`` before ``fit`` raises (scikit-learn predicts from the prior), ``y``
    must be 1-D, the restarts draw from ``np.random.default_rng`` (other starts than scikit-learn's for the
    same seed), and a fixed-kernel ``fit`` factorises :math:`K + \sigma^2 I` once (scikit-learn twice).

    Jitter policy: ``alpha`` is the only number added to the diagonal; a matrix that is not positive definite
    raises ``ValueError`` (during optimisation such a :math:`\theta` has log marginal likelihood
    :math:`-\infty`). Negative predicted variances from rounding are set to 0. Chapter 17.
    """

    def __init__(self, kernel="rbf", *, amplitude=1.0, length_scale=1.0, noise_level=0.0, alpha=1e-10,
                 amplitude_bounds=(1e-5, 1e5), length_scale_bounds=(1e-5, 1e5), noise_level_bounds=(1e-5, 1e5),
                 optimizer="lbfgs", n_restarts_optimizer=0, normalize_y=False, random_state=None):
        self.kernel = kernel
        self.amplitude = amplitude
        self.length_scale = length_scale
        self.noise_level = noise_level
        self.alpha = alpha
        self.amplitude_bounds = amplitude_bounds
        self.length_scale_bounds = length_scale_bounds
        self.noise_level_bounds = noise_level_bounds
        self.optimizer = optimizer
        self.n_restarts_optimizer = n_restarts_optimizer
        self.normalize_y = normalize_y
        self.random_state = random_state

    # ----------------------------------------------------------------- hyperparameters
    def _check_params(self, n_samples):
        if not (callable(self.kernel) or isinstance(self.kernel, str)):
            raise TypeError(f"kernel must be 'rbf' or a callable kernel(X, Y), got {self.kernel!r}")
        if isinstance(self.kernel, str):
            check_option(self.kernel, "kernel", ("rbf",))
        values = {"amplitude": check_scalar(self.amplitude, "amplitude", Real, min_val=0,
                                            include_boundaries="neither"),
                  "length_scale": check_scalar(self.length_scale, "length_scale", Real,
                                               min_val=LENGTH_SCALE_RANGE[0], max_val=LENGTH_SCALE_RANGE[1]),
                  "noise_level": check_scalar(self.noise_level, "noise_level", Real, min_val=0)}
        bounds = {name: _check_bounds(getattr(self, f"{name}_bounds"), f"{name}_bounds") for name in HYPERPARAMETERS}
        if bounds["length_scale"] is not None:
            for end, value in enumerate(bounds["length_scale"]):
                check_scalar(value, f"length_scale_bounds[{end}]", Real,
                             min_val=LENGTH_SCALE_RANGE[0], max_val=LENGTH_SCALE_RANGE[1])
        if np.ndim(self.alpha) == 0:
            noise = check_scalar(self.alpha, "alpha", Real, min_val=0)
        else:
            noise = np.asarray(self.alpha, dtype=float)
            if noise.shape != (n_samples,) or not np.isfinite(noise).all() or (noise < 0).any():
                raise ValueError(f"alpha must be a number >= 0 or {n_samples} finite numbers >= 0 (one per sample), "
                                 f"got an array of shape {noise.shape}")
        check_option(self.optimizer, "optimizer", ("lbfgs", None))
        check_scalar(self.n_restarts_optimizer, "n_restarts_optimizer", Integral, min_val=0)
        check_bool(self.normalize_y, "normalize_y")
        free = [name for name in HYPERPARAMETERS
                if bounds[name] is not None
                and not (name == "length_scale" and callable(self.kernel))
                and not (name == "noise_level" and values["noise_level"] == 0)]
        return values, bounds, noise, free

    def _values(self, theta):
        """Hyperparameter name -> value at ``theta`` (the free ones from ``exp(theta)``, the rest fixed)."""
        values = dict(self._fixed_values)
        values.update(zip(self.hyperparameter_names_, np.exp(theta)))
        return values

    # ----------------------------------------------------------------- kernel matrices
    def _base_train(self, X):
        """What the training kernel needs and does not depend on theta: squared distances (rbf) or k0(X, X)."""
        if callable(self.kernel):
            n = X.shape[0]
            return check_kernel_matrix(self.kernel(X, X), "kernel(X, X)", shape=(n, n), tol=PSD_TOL)
        # distances are translation invariant: centre first, else ||x||^2 + ||y||^2 - 2 x.y cancels
        # catastrophically on inputs far from the origin (offset >> length_scale)
        return squared_euclidean_distances(X - X.mean(axis=0))

    def _train_kernel(self, base, values, eval_gradient=False):
        r"""``K = a k0 + s I`` (without ``alpha``), and the derivatives in ``hyperparameter_names_`` order."""
        if callable(self.kernel):
            K0 = base
        else:
            # the RBF kernel of mlnotes.kernels.rbf_kernel, from the cached squared distances D
            K0 = np.exp(base * (-0.5 / values["length_scale"] ** 2))
        K = values["amplitude"] * K0
        if not eval_gradient:
            if values["noise_level"] > 0:
                K[np.diag_indices_from(K)] += values["noise_level"]
            return K
        dK = []
        for name in self.hyperparameter_names_:
            if name == "amplitude":               # d(a k0)/d log a = a k0
                dK.append(K.copy())
            elif name == "length_scale":          # d(a exp(-D/(2 l^2)))/d log l = a k0 D / l^2
                dK.append(K * base / values["length_scale"] ** 2)
            else:                                 # d(s I)/d log s = s I, as its diagonal
                dK.append(np.full(K.shape[0], values["noise_level"]))
        if values["noise_level"] > 0:
            K[np.diag_indices_from(K)] += values["noise_level"]
        return K, dK

    def _cross_kernel(self, X, Y, values):
        """``a k0(X, Y)`` (the noise term is 0 between distinct samples)."""
        if callable(self.kernel):
            K0 = check_kernel_matrix(self.kernel(X, Y), "kernel(X, Y)", shape=(X.shape[0], Y.shape[0]),
                                     require_psd=False)
        else:
            centre = Y.mean(axis=0)               # as in _base_train: exact differences far from the origin
            K0 = rbf_kernel(X - centre, Y - centre, gamma=0.5 / values["length_scale"] ** 2)
        return values["amplitude"] * K0

    def _test_diag(self, X, values):
        """The diagonal of ``k(X, X)``: ``a k0(x, x) + s`` (a callable kernel is evaluated on all pairs)."""
        if callable(self.kernel):
            diag = np.diag(self._cross_kernel(X, X, {"amplitude": 1.0}))
        else:
            diag = np.ones(X.shape[0])
        return values["amplitude"] * diag + values["noise_level"]

    # ----------------------------------------------------------------- the likelihood
    def _lml(self, base, y, theta, noise, eval_gradient):
        values = self._values(theta)
        if eval_gradient:
            K, dK = self._train_kernel(base, values, eval_gradient=True)
        else:
            K = self._train_kernel(base, values)
        try:
            L = gp_cholesky(K, noise, check_input=False)
        except ValueError:
            return (-np.inf, np.zeros_like(theta)) if eval_gradient else -np.inf
        alpha = gp_weights(L, y, check_input=False)
        lml = gp_log_marginal_likelihood(L, y, alpha, check_input=False)
        if eval_gradient:
            return lml, gp_lml_gradient(L, alpha, dK, check_input=False)
        return lml

    def _maximise(self, base, y, noise):
        """Maximise the log marginal likelihood over theta from the given start and the restarts."""
        def objective(theta):
            lml, grad = self._lml(base, y, theta, noise, eval_gradient=True)
            return -lml, -grad

        starts = [self.theta_]
        rng = np.random.default_rng(self.random_state)
        starts += [rng.uniform(self.bounds_[:, 0], self.bounds_[:, 1]) for _ in range(self.n_restarts_optimizer)]
        best = None
        for theta0 in starts:
            # L-BFGS-B within the log bounds; converged when the projected gradient's norm is at most
            # LML_TOL (scikit-learn's fmin_l_bfgs_b stops at 1e-5 on its largest entry)
            result = minimize(objective, theta0, method="lbfgs", tol=LML_TOL, max_iter=LML_MAX_ITER,
                              bounds=self.bounds_, warn=False)
            if not result.converged:
                warnings.warn(f"lbfgs did not converge maximising the log marginal likelihood: {result.message}",
                              ConvergenceWarning, stacklevel=3)
            if best is None or result.fun < best.fun:
                best = result
        return best.x, -float(best.fun)

    # ----------------------------------------------------------------- the estimator
    def fit(self, X, y):
        """Fit the Gaussian process: choose the hyperparameters (``optimizer``) and factorise the kernel matrix.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
        y : array-like of shape (n_samples,)

        Returns
        -------
        self : object

        Raises
        ------
        ValueError
            On NaN/inf, bad hyperparameters, or a kernel matrix :math:`K + \\sigma^2 I` that is not positive
            definite at the final hyperparameters.
        """
        X, y = validate_data(self, X, y, y_numeric=True, dtype=np.float64)
        y = np.asarray(y, dtype=np.float64)
        values, bounds, noise, free = self._check_params(X.shape[0])
        if self.normalize_y:
            self.y_train_mean_ = float(np.mean(y))
            std = float(np.std(y))
            self.y_train_std_ = 1.0 if std < 10 * np.finfo(float).eps else std
        else:
            self.y_train_mean_, self.y_train_std_ = 0.0, 1.0
        y = (y - self.y_train_mean_) / self.y_train_std_
        self.X_train_, self.y_train_ = X, y
        self.hyperparameter_names_ = free
        self._fixed_values = {name: values[name] for name in HYPERPARAMETERS}
        self.theta_ = np.log([values[name] for name in free])
        self.bounds_ = np.log(np.array([bounds[name] for name in free])).reshape(-1, 2)
        base = self._base_train(X)
        if self.optimizer is not None and free:
            self.theta_, _ = self._maximise(base, y, noise)
        fitted = self._values(self.theta_)
        self.amplitude_, self.length_scale_, self.noise_level_ = (float(fitted[name]) for name in HYPERPARAMETERS)
        K = self._train_kernel(base, fitted)
        del base
        self.L_ = gp_cholesky(K, noise, check_input=False)
        self.alpha_ = gp_weights(self.L_, y, check_input=False)
        self.log_marginal_likelihood_value_ = gp_log_marginal_likelihood(self.L_, y, self.alpha_, check_input=False)
        return self

    def log_marginal_likelihood(self, theta=None, eval_gradient=False):
        r"""The log marginal likelihood :math:`\log p(y \mid X, \theta)` of the training data, and its gradient.

        Parameters
        ----------
        theta : array-like of shape (n_hyperparameters,), optional
            Logarithms of the free hyperparameters, in the order of ``hyperparameter_names_`` (scikit-learn's
            ``kernel_.theta``); None: the fitted ``theta_``.
        eval_gradient : bool, default False
            Also return the gradient with respect to ``theta``.

        Returns
        -------
        lml : float
            :math:`-\infty` where :math:`K + \sigma^2 I` is not positive definite.
        grad : ndarray of shape (n_hyperparameters,), if ``eval_gradient``
            :math:`\tfrac12 \operatorname{tr}((\alpha\alpha^\top - K_y^{-1})\, \partial K_y/\partial\theta_j)`.
        """
        check_is_fitted(self)
        eval_gradient = check_bool(eval_gradient, "eval_gradient")
        if theta is None:
            if not eval_gradient:
                return self.log_marginal_likelihood_value_
            theta = self.theta_
        theta = np.asarray(theta, dtype=float)
        if theta.shape != self.theta_.shape or not np.isfinite(theta).all():
            raise ValueError(f"theta must hold {self.theta_.size} finite numbers (the logs of "
                             f"{self.hyperparameter_names_}), got {theta!r}")
        _, _, noise, _ = self._check_params(self.X_train_.shape[0])
        return self._lml(self._base_train(self.X_train_), self.y_train_, theta, noise, eval_gradient)

    def predict(self, X, return_std=False, return_cov=False):
        r"""The posterior predictive mean, and its standard deviation or covariance.

        Parameters
        ----------
        X : array-like of shape (n_queries, n_features)
        return_std : bool, default False
            Also return the standard deviation of :math:`f(x_\star)` (plus the noise level :math:`s`, not ``alpha``).
        return_cov : bool, default False
            Also return the covariance matrix of :math:`f(X_\star)` (plus :math:`s I`).

        Returns
        -------
        y_mean : ndarray of shape (n_queries,)
            :math:`K_\star\alpha`, transformed back if ``normalize_y``.
        y_std : ndarray of shape (n_queries,), if ``return_std``
        y_cov : ndarray of shape (n_queries, n_queries), if ``return_cov``
        """
        check_is_fitted(self)
        if check_bool(return_std, "return_std") and check_bool(return_cov, "return_cov"):
            raise ValueError("ask for at most one of return_std and return_cov")
        X = validate_data(self, X, reset=False, dtype=np.float64)
        values = self._values(self.theta_)
        K_star = self._cross_kernel(X, self.X_train_, values)
        scale = self.y_train_std_
        if return_cov:
            K_star_star = self._cross_kernel(X, X, values)
            K_star_star[np.diag_indices_from(K_star_star)] += values["noise_level"]
            mean, cov = gp_predict(self.L_, self.alpha_, K_star, K_star_star=K_star_star, check_input=False)
            return scale * mean + self.y_train_mean_, scale ** 2 * cov
        if return_std:
            mean, var = gp_predict(self.L_, self.alpha_, K_star, K_star_star_diag=self._test_diag(X, values),
                                   check_input=False)
            return scale * mean + self.y_train_mean_, scale * np.sqrt(np.maximum(var, 0.0))
        return scale * gp_predict(self.L_, self.alpha_, K_star, check_input=False) + self.y_train_mean_

    def sample_y(self, X, n_samples=1, random_state=0):
        r"""Draw functions from the posterior at ``X``.

        Parameters
        ----------
        X : array-like of shape (n_queries, n_features)
        n_samples : int >= 1, default 1
        random_state : int, numpy Generator or None, default 0

        Returns
        -------
        y_samples : ndarray of shape (n_queries, n_samples)
            Column ``j`` is one draw of :math:`f(X_\star)` (plus the noise level term).

        Notes
        -----
        With the eigendecomposition :math:`\operatorname{cov} = U \Lambda U^\top` (negative rounding
        eigenvalues set to 0), a draw is :math:`\bar f_\star + U \Lambda^{1/2} z`, :math:`z \sim \mathcal N(0, I)`,
        which needs no jitter even where the covariance is singular (at the training points of an interpolating
        model).
        """
        n_samples = check_scalar(n_samples, "n_samples", Integral, min_val=1)
        mean, cov = self.predict(X, return_cov=True)
        eigenvalues, U = np.linalg.eigh(cov)
        rng = np.random.default_rng(random_state)
        z = rng.standard_normal((len(mean), n_samples))
        return mean[:, None] + (U * np.sqrt(np.maximum(eigenvalues, 0.0))) @ z
