r"""Random Fourier features of the Gaussian kernel (Rahimi and Recht, 2007; chapter 15).

By Bochner's theorem a continuous shift-invariant kernel :math:`k(x - y)` with :math:`k(0) = 1` is positive
semidefinite exactly when it is the Fourier transform of a probability density :math:`p(w)`. For the
Gaussian kernel :math:`\exp(-\gamma\lVert\delta\rVert^2)` that density is :math:`\mathcal N(0, 2\gamma I)`,
so a Monte Carlo average over :math:`D` frequencies gives features whose inner product approximates the kernel.
"""

from numbers import Integral, Real

import numpy as np
from sklearn.base import BaseEstimator, ClassNamePrefixFeaturesOutMixin, TransformerMixin
from sklearn.utils.validation import check_is_fitted, validate_data

from ..utils.validation import check_scalar


class RBFSampler(ClassNamePrefixFeaturesOutMixin, TransformerMixin, BaseEstimator):
    r"""Random Fourier features :math:`z(x) = \sqrt{2/D}\,\cos(W^\top x + b)` approximating the RBF kernel.

    Same interface as :class:`sklearn.kernel_approximation.RBFSampler` and the same distribution of the
    random weights; the numbers drawn differ (numpy's ``default_rng`` here, ``RandomState`` there).

    Parameters
    ----------
    gamma : float or "scale", default 1.0
        The kernel :math:`\exp(-\gamma\lVert x - y\rVert^2)` to approximate, :math:`\gamma > 0`.
        ``"scale"`` uses :math:`\gamma = 1/(d\,\operatorname{Var}(X))` with the variance of all entries of
        the training ``X`` (as scikit-learn).
    n_components : int, default 100
        The number :math:`D \ge 1` of random features.
    random_state : int, numpy Generator or None, default None
        Seed of ``np.random.default_rng`` for the frequencies and offsets.

    Attributes
    ----------
    random_weights_ : ndarray of shape (n_features, n_components)
        The frequencies :math:`W`, columns :math:`w_j \sim \mathcal N(0, 2\gamma I_d)` independently.
    random_offset_ : ndarray of shape (n_components,)
        The phases :math:`b_j \sim \mathcal U(0, 2\pi)` independently.
    n_features_in_ : int
        Number of features seen in ``fit``.

    Notes
    -----
    For :math:`w \sim \mathcal N(0, 2\gamma I)` and :math:`b \sim \mathcal U(0, 2\pi)` independent,

    .. math::
        \mathbb E\big[2\cos(w^\top x + b)\cos(w^\top y + b)\big]
        = \mathbb E\big[\cos(w^\top(x - y))\big] = e^{-\gamma\lVert x - y\rVert^2},

    (the first by :math:`2\cos A\cos B = \cos(A - B) + \cos(A + B)`, the :math:`A + B` term averaging to 0
    over :math:`b`; the second is the characteristic function of the Gaussian). So
    :math:`z(x)^\top z(y) = \frac1D\sum_{j=1}^D 2\cos(w_j^\top x + b_j)\cos(w_j^\top y + b_j)` is an unbiased
    estimate of :math:`k(x, y)`, an average of :math:`D` bounded independent terms: its error has standard
    deviation of order :math:`1/\sqrt D` (chapter 15 measures it). Feature map and kernel of chapter 15.

    Examples
    --------
    >>> import numpy as np
    >>> X = np.random.default_rng(0).normal(size=(5, 3))
    >>> Z = RBFSampler(gamma=0.5, n_components=10_000, random_state=0).fit_transform(X)
    >>> Z.shape
    (5, 10000)
    """

    def __init__(self, gamma=1.0, n_components=100, random_state=None):
        self.gamma = gamma
        self.n_components = n_components
        self.random_state = random_state

    def _gamma(self, X):
        if isinstance(self.gamma, str):
            if self.gamma != "scale":
                raise ValueError(f"gamma must be a positive number or 'scale', got {self.gamma!r}")
            variance = X.var()
            if variance == 0:
                raise ValueError("gamma='scale' needs X with non-zero variance (1 / (n_features * X.var())); "
                                 "every entry of X is the same")
            return 1.0 / (X.shape[1] * variance)
        return check_scalar(self.gamma, "gamma", Real, min_val=0, include_boundaries="neither")

    def fit(self, X, y=None):
        """Draw the random frequencies and phases for ``X``'s number of features.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Only its number of features (and, for ``gamma="scale"``, its variance) is used.
        y : ignored

        Returns
        -------
        self : RBFSampler
        """
        X = validate_data(self, X, dtype=np.float64)
        gamma = self._gamma(X)
        n_components = check_scalar(self.n_components, "n_components", Integral, min_val=1)
        rng = np.random.default_rng(self.random_state)
        self.random_weights_ = rng.normal(scale=np.sqrt(2 * gamma), size=(X.shape[1], n_components))
        self.random_offset_ = rng.uniform(0, 2 * np.pi, size=n_components)
        self._n_features_out = n_components
        return self

    def transform(self, X):
        r"""The random features :math:`Z = \sqrt{2/D}\,\cos(XW + \mathbf 1 b^\top)`.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)

        Returns
        -------
        Z : ndarray of shape (n_samples, n_components)
            :math:`ZZ^\top \approx` ``rbf_kernel(X, gamma=gamma)``.
        """
        check_is_fitted(self)
        X = validate_data(self, X, reset=False, dtype=np.float64)
        Z = X @ self.random_weights_
        Z += self.random_offset_
        np.cos(Z, out=Z)
        Z *= np.sqrt(2 / self.random_weights_.shape[1])
        return Z


def johnson_lindenstrauss_min_dim(n_samples, eps=0.1):
    r"""A number of random Gaussian projections that keeps all pairwise distances of ``n_samples`` points
    within a factor :math:`1 \pm \varepsilon` with positive probability (Johnson and Lindenstrauss, 1984).

    Parameters
    ----------
    n_samples : int
        The number :math:`n \ge 1` of points.
    eps : float, default 0.1
        The distortion :math:`0 < \varepsilon < 1`.

    Returns
    -------
    k : int
        :math:`\big\lfloor 4 \ln n / (\varepsilon^2/2 - \varepsilon^3/3) \big\rfloor`, scikit-learn's
        ``johnson_lindenstrauss_min_dim``.

    Raises
    ------
    TypeError, ValueError
        If ``n_samples`` is not a positive integer or ``eps`` not in :math:`(0, 1)`.

    Notes
    -----
    The bound of Dasgupta and Gupta's proof: for one pair the probability that the squared distance is
    distorted by more than :math:`\varepsilon` is at most :math:`2\exp\!\big(-k(\varepsilon^2/2 -
    \varepsilon^3/3)/2\big)`, and a union bound over the :math:`n(n-1)/2` pairs stays below 1 for this
    :math:`k`. It does not depend on the dimension of the data. Chapter 15.
    """
    n_samples = check_scalar(n_samples, "n_samples", Integral, min_val=1)
    eps = check_scalar(eps, "eps", Real, min_val=0, max_val=1, include_boundaries="neither")
    return int(4 * np.log(n_samples) / (eps**2 / 2 - eps**3 / 3))


class GaussianRandomProjection(ClassNamePrefixFeaturesOutMixin, TransformerMixin, BaseEstimator):
    r"""Random projection :math:`x \mapsto Rx` with independent entries :math:`R_{ij} \sim \mathcal N(0, 1/k)`.

    Same interface as :class:`sklearn.random_projection.GaussianRandomProjection` (without the inverse
    transform) and the same distribution of the matrix; the numbers drawn differ (numpy's ``default_rng``).

    Parameters
    ----------
    n_components : int or "auto", default "auto"
        The target dimension :math:`k \ge 1`; ``"auto"`` takes :func:`johnson_lindenstrauss_min_dim` of the
        number of training samples and ``eps``.
    eps : float, default 0.1
        The distortion used by ``"auto"``, :math:`0 < \varepsilon < 1`.
    random_state : int, numpy Generator or None, default None
        Seed of ``np.random.default_rng``.

    Attributes
    ----------
    n_components_ : int
        The target dimension :math:`k`.
    components_ : ndarray of shape (n_components_, n_features)
        The matrix :math:`R`.
    n_features_in_ : int
        Number of features seen in ``fit``.

    Notes
    -----
    With the variance :math:`1/k`, :math:`\mathbb E[R^\top R] = I_d`, so for fixed :math:`x, y`

    .. math:: \mathbb E\big[(Rx)^\top (Ry)\big] = x^\top y, \qquad
        \mathbb E\,\lVert Rx\rVert^2 = \lVert x\rVert^2, \qquad
        \operatorname{Var}\big(\lVert Rx\rVert^2\big) = \tfrac{2}{k}\lVert x\rVert^4 :

    inner products and norms are preserved on average, with relative errors of order :math:`1/\sqrt k`.
    :math:`R^\top R` itself is a :math:`d \times d` matrix of rank at most :math:`k`, never close to
    :math:`I_d` when :math:`k < d`; only its action on a fixed finite set of points is. Chapter 15.

    Examples
    --------
    >>> import numpy as np
    >>> X = np.random.default_rng(0).normal(size=(10, 1000))
    >>> GaussianRandomProjection(n_components=50, random_state=0).fit_transform(X).shape
    (10, 50)
    """

    def __init__(self, n_components="auto", *, eps=0.1, random_state=None):
        self.n_components = n_components
        self.eps = eps
        self.random_state = random_state

    def fit(self, X, y=None):
        """Draw the projection matrix for ``X``'s number of features.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Only its shape is used.
        y : ignored

        Returns
        -------
        self : GaussianRandomProjection

        Raises
        ------
        ValueError
            If ``n_components`` is neither a positive integer nor ``"auto"``, or ``"auto"`` asks for more
            components than ``X`` has features (then a projection does not reduce anything), or
            ``"auto"`` is fit on one sample (the bound gives dimension 0; scikit-learn raises too).
        """
        X = validate_data(self, X, dtype=np.float64)
        n_samples, n_features = X.shape
        if isinstance(self.n_components, str):
            if self.n_components != "auto":
                raise ValueError(f"n_components must be a positive integer or 'auto', got {self.n_components!r}")
            k = johnson_lindenstrauss_min_dim(n_samples, self.eps)
            if k < 1:
                raise ValueError(f"eps={self.eps} and n_samples={n_samples} lead to a target dimension of {k}, "
                                 f"which is invalid: the Johnson-Lindenstrauss bound needs n_samples >= 2 "
                                 f"(or pass an integer n_components)")
            if k > n_features:
                raise ValueError(f"eps={self.eps} and n_samples={n_samples} need n_components={k} (the "
                                 f"Johnson-Lindenstrauss bound), more than the n_features={n_features} of X")
        else:
            k = check_scalar(self.n_components, "n_components", Integral, min_val=1)
        rng = np.random.default_rng(self.random_state)
        self.n_components_ = k
        self.components_ = rng.normal(scale=1 / np.sqrt(k), size=(k, n_features))
        self._n_features_out = k
        return self

    def transform(self, X):
        r"""The projected data :math:`XR^\top`.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)

        Returns
        -------
        X_new : ndarray of shape (n_samples, n_components_)
        """
        check_is_fitted(self)
        X = validate_data(self, X, reset=False, dtype=np.float64)
        return X @ self.components_.T
