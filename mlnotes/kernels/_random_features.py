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
