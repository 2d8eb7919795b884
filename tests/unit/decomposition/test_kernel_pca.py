"""KernelPCA: parity with scikit-learn's dense solver up to sign (1e-8), PCA with a linear kernel, the centring in
feature space, and the errors."""

import numpy as np
import pytest
import sklearn.decomposition
from sklearn.base import clone

from mlnotes.decomposition import KernelPCA, center_kernel
from mlnotes.kernels import pairwise_kernels, polynomial_features_map, polynomial_kernel, sigmoid_kernel


def _data(n=70, d=4, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, d)) @ rng.normal(size=(d, d)) + rng.normal(size=d)
    return X, rng.normal(size=(25, d))


def _align(A, B):
    """B with each column's sign flipped to A's."""
    return B * np.where((A * B).sum(axis=0) < 0, -1.0, 1.0)


CASES = [dict(kernel="linear"), dict(kernel="rbf", gamma=0.2), dict(kernel="rbf"),
         dict(kernel="poly", degree=2, coef0=1.0), dict(kernel="poly", degree=3, gamma=0.3, coef0=0.5),
         dict(kernel="sigmoid", gamma=0.01, coef0=0.1)]


@pytest.mark.parametrize("params", CASES, ids=lambda p: "-".join(f"{v}" for v in p.values()))
@pytest.mark.parametrize("n_components", [1, 3, None])
def test_parity_with_sklearn_dense_up_to_sign(params, n_components):
    X, X_test = _data()
    ours = KernelPCA(n_components, **params)
    ref = sklearn.decomposition.KernelPCA(n_components, eigen_solver="dense", **params)
    if params["kernel"] == "sigmoid" and n_components is None:
        # every eigenvalue computed: this sigmoid Gram matrix has one of -0.02 times the largest; both refuse it
        for model in (ours, ref):
            with pytest.raises(ValueError, match="negative eigenvalue|not positive semidefinite"):
                model.fit(X)
        return
    Z, Z_ref = ours.fit_transform(X), ref.fit_transform(X)
    assert Z.shape == Z_ref.shape
    scale = np.abs(Z_ref).max()
    np.testing.assert_allclose(ours.eigenvalues_, ref.eigenvalues_, rtol=0, atol=1e-8 * ref.eigenvalues_[0])
    # the leading components (distinct eigenvalues) are unique up to sign; a null space is not compared
    top = min(Z.shape[1], 3)
    np.testing.assert_allclose(Z[:, :top], _align(Z[:, :top], Z_ref[:, :top]), rtol=0, atol=1e-8 * scale)
    T, T_ref = ours.transform(X_test)[:, :top], ref.transform(X_test)[:, :top]
    np.testing.assert_allclose(T, _align(T, T_ref), rtol=0, atol=1e-8 * scale)


def test_linear_kernel_is_pca():
    X, X_test = _data()
    ours = KernelPCA(3).fit(X)
    pca = sklearn.decomposition.PCA(3, svd_solver="full").fit(X)
    Z, Z_pca = ours.transform(X_test), pca.transform(X_test)
    np.testing.assert_allclose(Z, _align(Z, Z_pca), rtol=0, atol=1e-10)
    np.testing.assert_allclose(ours.eigenvalues_ / len(X), pca.explained_variance_ * (len(X) - 1) / len(X), rtol=1e-10)


def test_centring_in_feature_space_and_explicit_features():
    X, X_test = _data(d=2)
    params = dict(degree=3, gamma=0.5, coef0=1.0)
    Phi, Phi_test = polynomial_features_map(X, **params), polynomial_features_map(X_test, **params)
    mean = Phi.mean(axis=0)
    K = polynomial_kernel(X, **params)
    np.testing.assert_allclose(center_kernel(K.copy()), (Phi - mean) @ (Phi - mean).T, atol=1e-9 * np.abs(K).max())
    K_test = polynomial_kernel(X_test, X, **params)
    np.testing.assert_allclose(center_kernel(K_test.copy(), K.mean(axis=0), K.mean()), (Phi_test - mean) @ (Phi - mean).T,
                               atol=1e-9 * np.abs(K).max())
    # kernel PCA = PCA of the explicit features
    ours = KernelPCA(4, kernel="poly", **params).fit(X)
    pca = sklearn.decomposition.PCA(4, svd_solver="full").fit(Phi)
    Z, Z_pca = ours.transform(X_test), pca.transform(Phi_test)
    np.testing.assert_allclose(Z, _align(Z, Z_pca), rtol=0, atol=1e-8 * np.abs(Z_pca).max())
    # precomputed: the same scores
    pre = KernelPCA(4, kernel="precomputed").fit(K)
    np.testing.assert_allclose(pre.transform(K_test), Z, rtol=0, atol=1e-12 * np.abs(Z).max())
    np.testing.assert_array_equal(K_test, polynomial_kernel(X_test, X, **params))   # the input is not overwritten


def test_signs_are_deterministic_and_training_scores_agree_with_transform():
    X, _ = _data()
    model = KernelPCA(3, kernel="rbf", gamma=0.3).fit(X)
    V = model.eigenvectors_
    assert np.all(V[np.abs(V).argmax(axis=0), np.arange(3)] > 0)
    np.testing.assert_allclose(model.transform(X), clone(model).fit_transform(X), rtol=0, atol=1e-10)


def test_errors():
    X, _ = _data()
    with pytest.raises(ValueError, match="n_components must be an integer >= 1"):
        KernelPCA(0).fit(X)
    with pytest.raises(ValueError, match="gamma must be > 0"):
        KernelPCA(kernel="rbf", gamma=0.0).fit(X)
    K = pairwise_kernels(X, metric="rbf")
    with pytest.raises(ValueError, match="not symmetric"):
        KernelPCA(kernel="precomputed").fit(K + np.triu(np.ones_like(K), 1))
    # a sigmoid kernel far from PSD: a significantly negative eigenvalue among those asked for
    with pytest.raises(ValueError, match="not positive semidefinite"):
        KernelPCA(kernel="sigmoid", gamma=2.0, coef0=-1.0).fit(X)
    assert np.linalg.eigvalsh(sigmoid_kernel(X, gamma=2.0, coef0=-1.0))[0] < -1.0
    X_bad = X.copy()
    X_bad[0, 0] = np.inf
    with pytest.raises(ValueError, match="infinity"):
        KernelPCA().fit(X_bad)
    model = KernelPCA(2).fit(X)
    with pytest.raises(ValueError, match="4 features"):
        model.transform(X[:, :3])


def test_a_kernel_that_is_not_psd_is_named_by_its_negative_eigenvalue_not_by_rounding():
    # centred, 0.01 - I has the eigenvalue 0 (eigenvector 1) and -1 (n - 1 times): the two largest are 0 (computed
    # as about -1e-16) and -1; the error must report the eigenvalue -1, not "all eigenvalues negative (-1e-16)"
    K = 0.01 - np.eye(10)
    with pytest.raises(ValueError, match=r"has the eigenvalue -1 \(1 of the largest magnitude\).*not positive semidefinite"):
        KernelPCA(2, kernel="precomputed").fit(K)
    # a PSD kernel whose centred matrix is zero up to rounding (all points alike) is no error: no component
    X = np.full((6, 2), 0.1) + np.array([1e-17, 0.0])
    model = KernelPCA(kernel="rbf", gamma=0.3).fit(X)
    assert model.eigenvalues_.shape == (0,) and model.transform(X).shape == (6, 0)


def test_center_kernel_validates_its_arguments():
    # review F8: NaN came back as NaN, lists and integers failed inside numpy, mismatched means passed or broke
    with pytest.raises(ValueError, match="K contains NaN"):
        center_kernel(np.array([[1.0, np.nan], [np.nan, 1.0]]))
    with pytest.raises(ValueError, match="give both K_fit_rows and K_fit_all"):
        center_kernel(np.eye(3), K_fit_rows=np.ones(3))
    with pytest.raises(ValueError, match="K_fit_rows has 4 entries but K has 3 columns"):
        center_kernel(np.eye(3), K_fit_rows=np.ones(4), K_fit_all=1.0)
    with pytest.raises(ValueError, match="square training Gram matrix"):
        center_kernel(np.ones((3, 2)))
    with pytest.raises(TypeError, match="numeric"):
        center_kernel([["a", "b"], ["c", "d"]])
    centred = [[0.5, -0.5], [-0.5, 0.5]]
    np.testing.assert_allclose(center_kernel([[1.0, 0.0], [0.0, 1.0]]), centred, rtol=0, atol=1e-15)
    np.testing.assert_allclose(center_kernel(np.eye(2, dtype=int)), centred, rtol=0, atol=1e-15)
    K = np.eye(3)
    assert center_kernel(K) is K                              # a float64 matrix is centred in place, as documented


def test_kernel_pca_feature_names_and_set_output_as_sklearn():
    import sklearn.decomposition

    X = np.random.default_rng(8).normal(size=(30, 4))
    ours = KernelPCA(3, kernel="rbf", gamma=0.2).fit(X)
    theirs = sklearn.decomposition.KernelPCA(3, kernel="rbf", gamma=0.2).fit(X)
    np.testing.assert_array_equal(ours.get_feature_names_out(), theirs.get_feature_names_out())
    assert ours.set_output(transform="default") is ours
    assert ours.transform(X).shape == (30, 3)
