r"""Kernel principal component analysis (chapter 16, *Kernel methods*; an addition: the notes name it only)."""

from numbers import Integral, Real

import numpy as np
from scipy import linalg
from sklearn.base import BaseEstimator, ClassNamePrefixFeaturesOutMixin, TransformerMixin
from sklearn.utils.validation import check_is_fitted

from ..kernels import KernelMixin
from ..utils.validation import as_float_matrix, as_float_vector, check_scalar


def center_kernel(K, K_fit_rows=None, K_fit_all=None):
    r"""Centre a kernel matrix in feature space: the Gram matrix of :math:`\varphi(x) - \bar\varphi`.

    Parameters
    ----------
    K : array-like of shape (n_test, n_samples)
        The kernel between points and the ``n_samples`` training points; when the two optional arguments are
        None, the (square) training Gram matrix itself. A float64 array is overwritten with the result; other
        input is converted (a new array).
    K_fit_rows : array-like of shape (n_samples,), optional
        The column means of the training Gram matrix; default the column means of ``K``. Give it with ``K_fit_all``.
    K_fit_all : float, optional
        The mean of the training Gram matrix; default the mean of ``K``. Give it with ``K_fit_rows``.

    Returns
    -------
    K : ndarray of shape (n_test, n_samples)
        :math:`\tilde K_{ij} = K_{ij} - \tfrac1n\sum_l K_{il} - \tfrac1n\sum_l K^{\text{fit}}_{lj}
        + \tfrac1{n^2}\sum_{l, m} K^{\text{fit}}_{lm}`, i.e. :math:`\tilde K = (I - \tfrac1n\mathbf 1\mathbf 1^\top)
        K (I - \tfrac1n\mathbf 1\mathbf 1^\top)` on the training points. Chapter 16.

    Raises
    ------
    ValueError
        ``K`` not 2-D, empty, or with NaN or infinity; a training matrix (no means given) that is not square; only
        one of ``K_fit_rows`` and ``K_fit_all`` given; ``K_fit_rows`` of a length other than the columns of ``K``,
        or not finite.
    TypeError
        Non-numeric input.
    """
    K = as_float_matrix(K, "K")                            # the same array if it is a finite float64 matrix
    if (K_fit_rows is None) != (K_fit_all is None):
        raise ValueError("give both K_fit_rows and K_fit_all (the column means and the mean of the training Gram "
                         "matrix), or neither (K is then the training Gram matrix)")
    if K_fit_rows is None:
        if K.shape[0] != K.shape[1]:
            raise ValueError(f"K must be the square training Gram matrix when K_fit_rows and K_fit_all are not given, "
                             f"got shape {K.shape}")
        K_fit_rows = K.mean(axis=0)
        K_fit_all = K_fit_rows.mean()
    else:
        K_fit_rows = as_float_vector(K_fit_rows, "K_fit_rows")
        if K_fit_rows.shape[0] != K.shape[1]:
            raise ValueError(f"K_fit_rows has {K_fit_rows.shape[0]} entries but K has {K.shape[1]} columns (one per "
                             f"training point)")
        K_fit_all = check_scalar(K_fit_all, "K_fit_all", Real)
    K_pred_cols = K.sum(axis=1) / K_fit_rows.shape[0]
    K -= K_fit_rows
    K -= K_pred_cols[:, None]
    K += K_fit_all
    return K


def _clean_eigenvalues(eigenvalues):
    """Rounding below zero set to 0; a significantly negative eigenvalue is an error (not a kernel).

    An eigenvalue is significantly negative when it is below ``-1e-5`` times the largest magnitude among those
    computed and below ``-1e-10``: what rounding leaves of a zero eigenvalue (about ``-1e-16`` times the scale of
    the matrix) is neither, and is set to 0."""
    scale = np.abs(eigenvalues).max()
    smallest = eigenvalues.min()
    if smallest < -1e-5 * scale and smallest < -1e-10:
        raise ValueError(f"the centred kernel matrix has the eigenvalue {smallest:.6g} ({-smallest / scale:.3g} of the "
                         f"largest magnitude): it is not positive semidefinite, so not the Gram matrix of a kernel "
                         f"(Mercer's condition, chapter 15)")
    largest = max(eigenvalues.max(), 0.0)
    eigenvalues = np.where(eigenvalues < 0, 0.0, eigenvalues)
    eigenvalues[(eigenvalues > 0) & (eigenvalues < 1e-12 * largest)] = 0.0     # below rounding: scikit-learn's rule
    return eigenvalues


class KernelPCA(ClassNamePrefixFeaturesOutMixin, TransformerMixin, KernelMixin, BaseEstimator):
    r"""Principal component analysis of the features :math:`\varphi(x)` of a kernel, from the centred Gram matrix.

    Parameters
    ----------
    n_components : int >= 1, optional
        Number of components; None keeps every component of non-zero eigenvalue.
    kernel : str or callable, default "linear"
        As in :class:`mlnotes.kernels.KernelRidge`; with ``"linear"`` this is PCA (scores up to sign).
    gamma, degree, coef0, kernel_params
        As in :class:`mlnotes.kernels.KernelRidge`.

    Attributes
    ----------
    eigenvalues_ : ndarray of shape (n_components,)
        The largest eigenvalues :math:`\lambda_1 \ge \lambda_2 \ge \dots` of the centred Gram matrix
        :math:`\tilde K` (:math:`n` times the variances of the components).
    eigenvectors_ : ndarray of shape (n_samples, n_components)
        Unit eigenvectors :math:`v_k`; signs fixed so that the entry of largest magnitude of each is positive.
    K_fit_rows_ : ndarray of shape (n_samples,)
        Column means of the training Gram matrix (for centring new points).
    K_fit_all_ : float
        Mean of the training Gram matrix.
    X_fit_ : ndarray of shape (n_samples, n_features), or None for a precomputed kernel
    n_features_in_ : int

    Raises
    ------
    ValueError
        NaN or infinity, a non-positive ``gamma``, a precomputed matrix that is not square and symmetric, or a
        centred Gram matrix with a significantly negative eigenvalue among those computed (not a kernel).

    Notes
    -----
    Centring in feature space, :math:`\tilde\varphi(x) = \varphi(x) - \tfrac1n\sum_j\varphi(x_j)`, needs only
    :math:`K`: :math:`\tilde K = H K H` with :math:`H = I - \tfrac1n\mathbf 1\mathbf 1^\top` (:func:`center_kernel`).
    The principal directions are :math:`u_k = \tilde\Phi^\top v_k/\sqrt{\lambda_k}` (unit vectors, since
    :math:`\lVert\tilde\Phi^\top v_k\rVert^2 = v_k^\top\tilde K v_k = \lambda_k`), and the score of a point is

    .. math:: z_k(x) = u_k^\top\tilde\varphi(x) = \frac{\tilde k(x)^\top v_k}{\sqrt{\lambda_k}}, \qquad
        z_k(x_i) = \sqrt{\lambda_k}\,(v_k)_i \text{ on the training points}.

    The eigenpairs come from a dense symmetric eigensolver (LAPACK, only the ones asked for); the results are
    scikit-learn's ``KernelPCA(eigen_solver="dense")`` up to the sign of each component, to rounding, with the same
    ``get_feature_names_out`` and ``set_output``. Not here: scikit-learn's pre-image (``fit_inverse_transform``,
    ``inverse_transform``, a kernel ridge regression from the scores back to the inputs), its iterative eigensolvers
    (``eigen_solver``, ``tol``, ``max_iter``) and ``remove_zero_eig`` (with ``n_components=None`` zero components are
    always removed). An addition to the notes. Chapter 16.
    """

    def __init__(self, n_components=None, *, kernel="linear", gamma=None, degree=3, coef0=1, kernel_params=None):
        self.n_components = n_components
        super().__init__(kernel, gamma, degree, coef0, kernel_params)

    @property
    def _n_features_out(self):
        """The number of components (names ``kernelpca0``, ``kernelpca1``, ... of ``get_feature_names_out``)."""
        return self.eigenvalues_.shape[0]

    def fit(self, X, y=None):
        """Fit on ``X`` (n_samples, n_features) or a precomputed Gram matrix; ``y`` is ignored. Returns ``self``."""
        if self.n_components is not None:
            check_scalar(self.n_components, "n_components", Integral, min_val=1)
        K, _ = self._fit_kernel(X)
        n = K.shape[0]
        self.K_fit_rows_ = K.mean(axis=0)
        self.K_fit_all_ = self.K_fit_rows_.mean()
        K = center_kernel(K, self.K_fit_rows_, self.K_fit_all_)
        n_components = n if self.n_components is None else min(n, self.n_components)
        eigenvalues, eigenvectors = linalg.eigh(K, subset_by_index=(n - n_components, n - 1), overwrite_a=True,
                                                check_finite=False)
        eigenvalues = _clean_eigenvalues(eigenvalues)
        largest = np.abs(eigenvectors).argmax(axis=0)
        eigenvectors *= np.sign(eigenvectors[largest, np.arange(eigenvectors.shape[1])])
        order = eigenvalues.argsort()[::-1]
        eigenvalues, eigenvectors = eigenvalues[order], eigenvectors[:, order]
        if self.n_components is None:
            keep = eigenvalues > 0
            eigenvalues, eigenvectors = eigenvalues[keep], eigenvectors[:, keep]
        self.eigenvalues_ = eigenvalues
        self.eigenvectors_ = eigenvectors
        return self

    def fit_transform(self, X, y=None):
        r"""Fit and return the training scores :math:`\sqrt{\lambda_k}(v_k)_i`, shape (n_samples, n_components)."""
        self.fit(X)
        return self.eigenvectors_ * np.sqrt(self.eigenvalues_)

    def transform(self, X):
        r"""The scores :math:`z_k(x) = \tilde k(x)^\top v_k/\sqrt{\lambda_k}` of new points, shape (n_test, n_components).

        ``X`` is (n_test, n_features), or the (n_test, n_samples) kernel against the training points if
        precomputed. A component of zero eigenvalue scores 0.
        """
        check_is_fitted(self)
        K = center_kernel(np.array(self._predict_kernel(X), dtype=float), self.K_fit_rows_, self.K_fit_all_)
        scaled = np.zeros_like(self.eigenvectors_)
        positive = self.eigenvalues_ > 0
        scaled[:, positive] = self.eigenvectors_[:, positive] / np.sqrt(self.eigenvalues_[positive])
        return K @ scaled
