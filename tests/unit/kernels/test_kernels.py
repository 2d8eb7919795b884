"""mlnotes.kernels (chapter 15): kernel matrices equal to scikit-learn's, the polynomial feature map equal to
its kernel, random Fourier features agreeing with the RBF kernel statistically, kernel-matrix validation and
the errors on bad input."""

import math
from itertools import product

import numpy as np
import pytest
from scipy import stats
from scipy.spatial.distance import cdist
from sklearn import kernel_approximation as sk_approx
from sklearn.metrics import pairwise as skp

from mlnotes.kernels import (
    KERNEL_PARAMS,
    RBFSampler,
    check_kernel_matrix,
    laplacian_kernel,
    linear_kernel,
    pairwise_kernels,
    polynomial_features_map,
    polynomial_kernel,
    rbf_kernel,
    sigmoid_kernel,
    squared_euclidean_distances,
)

RTOL = ATOL = 1e-12

# (mlnotes function, scikit-learn function, parameter sets)
KERNEL_CASES = [
    (linear_kernel, skp.linear_kernel, [{}]),
    (polynomial_kernel, skp.polynomial_kernel,
     [{}, {"degree": 2}, {"degree": 1, "gamma": 0.3, "coef0": -2.0}, {"degree": 5, "gamma": 2.0, "coef0": 0.0}]),
    (rbf_kernel, skp.rbf_kernel, [{}, {"gamma": 0.01}, {"gamma": 7.0}]),
    (laplacian_kernel, skp.laplacian_kernel, [{}, {"gamma": 0.01}, {"gamma": 7.0}]),
    (sigmoid_kernel, skp.sigmoid_kernel, [{}, {"gamma": 0.05, "coef0": -1.0}, {"gamma": 3.0, "coef0": 0.0}]),
]
PARAM_CASES = [(f, sk_f, params) for f, sk_f, sets in KERNEL_CASES for params in sets]


def datasets():
    """(label, X, Y or None): random data and the awkward cases."""
    rng = np.random.default_rng(0)
    X = rng.normal(size=(40, 6))
    return [
        ("normal", X, None),
        ("Y different", X, rng.normal(size=(25, 6))),
        ("one sample", X[:1], None),
        ("one sample vs many", X[:1], X[5:]),
        ("one feature", X[:, :1], None),
        ("one feature, Y different", X[:, :1], rng.normal(size=(7, 1))),
        ("large scale", 1e3 * X, 1e3 * X[::-1]),
        ("small scale", 1e-8 * X, None),
        ("far from the origin", X + 1e6, None),
        ("integer", rng.integers(-5, 6, size=(30, 4)), rng.integers(-5, 6, size=(10, 4))),
    ]


DATASETS = datasets()


@pytest.mark.parametrize("label, X, Y", DATASETS, ids=[d[0] for d in DATASETS])
@pytest.mark.parametrize("f, sk_f, params", PARAM_CASES,
                         ids=[f"{f.__name__}{params}" for f, _, params in PARAM_CASES])
def test_kernels_equal_scikit_learn(f, sk_f, params, label, X, Y):
    K = f(X, Y, **params)
    K_ref = sk_f(X, Y, **params)
    assert K.shape == K_ref.shape == (len(X), len(X) if Y is None else len(Y))
    assert K.dtype == np.float64
    np.testing.assert_allclose(K, K_ref, rtol=RTOL, atol=ATOL)


@pytest.mark.parametrize("label, X, Y", DATASETS, ids=[d[0] for d in DATASETS])
def test_pairwise_kernels_equal_scikit_learn_for_every_name(label, X, Y):
    names = {"linear": {}, "poly": {"degree": 2, "coef0": 0.5}, "polynomial": {"gamma": 0.2},
             "rbf": {"gamma": 0.3}, "laplacian": {"gamma": 0.3}, "sigmoid": {"coef0": 0.1}}
    for name, params in names.items():
        np.testing.assert_allclose(pairwise_kernels(X, Y, metric=name, **params),
                                   skp.pairwise_kernels(X, Y, metric=name, **params), rtol=RTOL, atol=ATOL)


def test_kernels_match_their_definitions_pair_by_pair():
    # independent of scikit-learn: each entry from the formula for one pair
    rng = np.random.default_rng(1)
    X, Y = rng.normal(size=(6, 3)), rng.normal(size=(4, 3))
    gamma, coef0, degree = 0.7, 0.4, 3
    for i, j in product(range(6), range(4)):
        x, y = X[i], Y[j]
        assert linear_kernel(X, Y)[i, j] == pytest.approx(x @ y, rel=1e-13)
        assert polynomial_kernel(X, Y, degree, gamma, coef0)[i, j] == pytest.approx((gamma * x @ y + coef0) ** degree,
                                                                                       rel=1e-13)
        assert rbf_kernel(X, Y, gamma)[i, j] == pytest.approx(np.exp(-gamma * np.sum((x - y) ** 2)), rel=1e-13)
        assert laplacian_kernel(X, Y, gamma)[i, j] == pytest.approx(np.exp(-gamma * np.sum(np.abs(x - y))), rel=1e-13)
        assert sigmoid_kernel(X, Y, gamma, coef0)[i, j] == pytest.approx(np.tanh(gamma * x @ y + coef0), rel=1e-13)


def test_gamma_none_is_one_over_n_features():
    X = np.random.default_rng(2).normal(size=(10, 4))
    for f in (rbf_kernel, laplacian_kernel, polynomial_kernel, sigmoid_kernel):
        np.testing.assert_array_equal(f(X), f(X, gamma=0.25))
        assert not np.array_equal(f(X), f(X, gamma=0.5))


def test_squared_distances_are_clipped_and_exactly_zero_on_the_diagonal():
    rng = np.random.default_rng(3)
    X = 1e6 + rng.normal(scale=1e-3, size=(50, 5))   # the expansion cancels: ~1e12 - 1e12
    D = squared_euclidean_distances(X)
    assert (D >= 0).all()
    np.testing.assert_array_equal(np.diag(D), 0.0)
    np.testing.assert_array_equal(np.diag(rbf_kernel(X, gamma=1e6)), 1.0)
    Z = rng.normal(size=(30, 4)), rng.normal(size=(20, 4))
    np.testing.assert_allclose(squared_euclidean_distances(*Z), cdist(*Z, "sqeuclidean"), rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(squared_euclidean_distances(Z[0]), cdist(Z[0], Z[0], "sqeuclidean"), atol=1e-12)


def test_pairwise_kernels_filter_params_precomputed_and_errors():
    rng = np.random.default_rng(4)
    X, Y = rng.normal(size=(8, 3)), rng.normal(size=(5, 3))
    all_params = {"gamma": 0.5, "degree": 2, "coef0": 1.5}
    for name in ("linear", "rbf", "laplacian", "sigmoid", "poly"):
        np.testing.assert_array_equal(pairwise_kernels(X, Y, metric=name, filter_params=True, **all_params),
                                      skp.pairwise_kernels(X, Y, metric=name, filter_params=True, **all_params))
    assert KERNEL_PARAMS["rbf"] == ("gamma",) and KERNEL_PARAMS["poly"] == ("degree", "gamma", "coef0")
    with pytest.raises(TypeError, match="'rbf' kernel takes the parameters"):
        pairwise_kernels(X, metric="rbf", degree=2)
    with pytest.raises(ValueError, match="metric must be one of"):
        pairwise_kernels(X, metric="gaussian")
    with pytest.raises(TypeError, match="metric must be a kernel name or a callable"):
        pairwise_kernels(X, metric=3)
    K = rbf_kernel(X, Y)
    np.testing.assert_array_equal(pairwise_kernels(K, Y, metric="precomputed"), K)
    np.testing.assert_array_equal(pairwise_kernels(rbf_kernel(X), metric="precomputed"),
                                  skp.pairwise_kernels(rbf_kernel(X), metric="precomputed"))
    with pytest.raises(ValueError, match="must be square"):
        pairwise_kernels(K, metric="precomputed")
    with pytest.raises(ValueError, match=r"shape \(n_samples_X, n_samples_Y\) = \(8, 4\)"):
        pairwise_kernels(K, Y[:4], metric="precomputed")
    with pytest.raises(TypeError, match="precomputed kernel takes no parameters"):
        pairwise_kernels(rbf_kernel(X), metric="precomputed", gamma=1.0)


def test_pairwise_kernels_with_a_callable_equals_scikit_learn():
    rng = np.random.default_rng(5)
    X, Y = rng.normal(size=(7, 3)), rng.normal(size=(4, 3))

    def min_kernel(x, y, scale=1.0):
        return scale * np.minimum(np.abs(x), np.abs(y)).sum()

    calls = []

    def counted(x, y):
        calls.append(1)
        return float(x @ y)

    for Y_ in (None, Y):
        np.testing.assert_allclose(pairwise_kernels(X, Y_, metric=min_kernel, scale=2.0),
                                   skp.pairwise_kernels(X, Y_, metric=min_kernel, scale=2.0), rtol=RTOL, atol=ATOL)
    pairwise_kernels(X, metric=counted)
    assert len(calls) == 7 * 6 // 2 + 7     # the upper triangle and the diagonal only
    np.testing.assert_allclose(pairwise_kernels(X, metric=counted), linear_kernel(X), rtol=1e-13)


# ---------------------------------------------------------------- the polynomial feature map

MAP_CASES = [(degree, gamma, coef0) for degree in (1, 2, 3, 4) for gamma in (None, 0.3, 2.0)
             for coef0 in (0.0, 0.5, 1.0, 3.0)]


@pytest.mark.parametrize("degree, gamma, coef0", MAP_CASES)
def test_polynomial_feature_map_reproduces_the_kernel(degree, gamma, coef0):
    rng = np.random.default_rng(degree)
    X, Y = rng.normal(size=(12, 3)), rng.normal(scale=2.0, size=(9, 3))
    Phi_X = polynomial_features_map(X, degree, gamma, coef0)
    Phi_Y = polynomial_features_map(Y, degree, gamma, coef0)
    for A, B, Phi_A, Phi_B in ((X, X, Phi_X, Phi_X), (X, Y, Phi_X, Phi_Y)):
        K = polynomial_kernel(A, B, degree=degree, gamma=gamma, coef0=coef0)
        # error relative to the Cauchy-Schwarz bound sqrt(k(x,x) k(y,y)) of each entry (the size of its terms)
        scale = np.sqrt(np.outer(np.diag(polynomial_kernel(A, degree=degree, gamma=gamma, coef0=coef0)),
                                 np.diag(polynomial_kernel(B, degree=degree, gamma=gamma, coef0=coef0))))
        assert np.all(np.abs(Phi_A @ Phi_B.T - K) <= 1e-10 * scale)


@pytest.mark.parametrize("d, degree", [(1, 1), (1, 4), (2, 2), (3, 2), (4, 3), (5, 4), (2, 6)])
def test_polynomial_feature_count_is_the_binomial_coefficient(d, degree):
    X = np.random.default_rng(0).normal(size=(3, d))
    # brute force: the exponent vectors k in {0..p}^d with |k| <= p (all) and |k| = p (homogeneous)
    exponents = list(product(range(degree + 1), repeat=d))
    n_all = sum(1 for k in exponents if sum(k) <= degree)
    n_exact = sum(1 for k in exponents if sum(k) == degree)
    Phi, powers = polynomial_features_map(X, degree, 1.0, 1.0, return_powers=True)
    assert Phi.shape[1] == n_all == math.comb(d + degree, degree)
    assert polynomial_features_map(X, degree, 1.0, 0.0).shape[1] == n_exact == math.comb(d + degree - 1, degree)
    # the notes' C(M+d-1, d-1) counts only the monomials of degree exactly M (erratum 001:E13.1)
    assert math.comb(degree + d - 1, d - 1) == n_exact
    assert powers.shape == (n_all, d) and (powers.sum(axis=1) <= degree).all()
    assert len({tuple(k) for k in powers}) == n_all       # every monomial once


def test_polynomial_feature_map_needs_the_multinomial_weights():
    # (x.y)^2 in d = 2: phi = (x1^2, sqrt(2) x1 x2, x2^2); without sqrt(2) the inner product is another function
    X = np.array([[1.0, 2.0], [3.0, -1.0]])
    Phi, powers = polynomial_features_map(X, 2, 1.0, 0.0, return_powers=True)
    np.testing.assert_array_equal(powers, [[2, 0], [1, 1], [0, 2]])
    np.testing.assert_allclose(Phi, [[1, 2 * np.sqrt(2), 4], [9, -3 * np.sqrt(2), 1]], rtol=1e-15)
    unweighted = np.column_stack([X[:, 0] ** 2, X[:, 0] * X[:, 1], X[:, 1] ** 2])
    K = polynomial_kernel(X, degree=2, gamma=1.0, coef0=0.0)
    assert np.abs(unweighted @ unweighted.T - K).max() > 1.0
    np.testing.assert_allclose(Phi @ Phi.T, K, rtol=1e-14)


# ---------------------------------------------------------------- random Fourier features


def _mean_gram_error(make, X, K, n_components, seeds):
    errors = []
    for seed in seeds:
        Z = make(n_components, seed).fit_transform(X)
        errors.append(np.abs(Z @ Z.T - K).mean())
    return float(np.mean(errors))


def test_rbf_sampler_error_decays_like_one_over_sqrt_d():
    X = np.random.default_rng(6).normal(size=(60, 5))
    gamma = 0.2
    K = rbf_kernel(X, gamma=gamma)
    errors = [_mean_gram_error(lambda D, s: RBFSampler(gamma=gamma, n_components=D, random_state=s), X, K, D,
                               range(8)) for D in (100, 400, 1600)]
    ratios = [errors[0] / errors[1], errors[1] / errors[2]]
    # quadrupling D halves the error (1/sqrt(D)); measured with fixed seeds
    assert all(1.6 < r < 2.5 for r in ratios), (errors, ratios)
    slope = np.polyfit(np.log([100, 400, 1600]), np.log(errors), 1)[0]
    assert -0.6 < slope < -0.4, slope


def test_rbf_sampler_agrees_with_scikit_learn_statistically():
    rng = np.random.default_rng(7)
    X = rng.normal(size=(50, 4))
    gamma, D = 0.5, 400
    K = rbf_kernel(X, gamma=gamma)
    ours = _mean_gram_error(lambda D, s: RBFSampler(gamma=gamma, n_components=D, random_state=s), X, K, D, range(10))
    theirs = _mean_gram_error(lambda D, s: sk_approx.RBFSampler(gamma=gamma, n_components=D, random_state=s), X, K, D,
                              range(10))
    assert 0.8 < ours / theirs < 1.25, (ours, theirs)
    # the same distributions: W ~ N(0, 2 gamma), b ~ U(0, 2 pi), compared with scikit-learn's draws
    mine = RBFSampler(gamma=gamma, n_components=5000, random_state=0).fit(X)
    ref = sk_approx.RBFSampler(gamma=gamma, n_components=5000, random_state=0).fit(X)
    assert mine.random_weights_.shape == ref.random_weights_.shape == (4, 5000)
    assert mine.random_offset_.shape == ref.random_offset_.shape == (5000,)
    assert stats.ks_2samp(mine.random_weights_.ravel(), ref.random_weights_.ravel()).pvalue > 0.01
    assert stats.ks_2samp(mine.random_offset_, ref.random_offset_).pvalue > 0.01
    assert stats.kstest(mine.random_weights_.ravel() / np.sqrt(2 * gamma), "norm").pvalue > 0.01
    assert stats.kstest(mine.random_offset_, "uniform", args=(0, 2 * np.pi)).pvalue > 0.01


def test_rbf_sampler_transform_is_scikit_learns_formula():
    rng = np.random.default_rng(8)
    X, X_new = rng.normal(size=(20, 3)), rng.normal(size=(6, 3))
    mine = RBFSampler(gamma=0.7, n_components=50, random_state=1).fit(X)
    ref = sk_approx.RBFSampler(gamma=0.7, n_components=50, random_state=1).fit(X)
    ref.random_weights_, ref.random_offset_ = mine.random_weights_, mine.random_offset_
    np.testing.assert_allclose(mine.transform(X_new), ref.transform(X_new), rtol=1e-13, atol=1e-15)
    expected = np.sqrt(2 / 50) * np.cos(X_new @ mine.random_weights_ + mine.random_offset_)
    np.testing.assert_allclose(mine.transform(X_new), expected, rtol=1e-13, atol=1e-15)
    np.testing.assert_array_equal(mine.get_feature_names_out(), ref.get_feature_names_out())
    np.testing.assert_array_equal(RBFSampler(gamma=0.7, n_components=50, random_state=1).fit(X).random_weights_,
                                  mine.random_weights_)
    assert not np.array_equal(RBFSampler(gamma=0.7, n_components=50, random_state=2).fit(X).random_weights_,
                              mine.random_weights_)


def test_rbf_sampler_gamma_scale_is_scikit_learns():
    X = np.random.default_rng(9).normal(scale=3.0, size=(40, 3))
    expected = 1 / (3 * X.var())
    # scikit-learn draws sqrt(2 gamma) * RandomState(0).normal(...): recover its gamma from the draws
    ref = sk_approx.RBFSampler(gamma="scale", n_components=20, random_state=0).fit(X)
    sk_gamma = (ref.random_weights_ / np.random.RandomState(0).normal(size=(3, 20)))[0, 0] ** 2 / 2
    mine = RBFSampler(gamma="scale", n_components=20, random_state=0).fit(X)
    my_gamma = (mine.random_weights_ / np.random.default_rng(0).normal(size=(3, 20)))[0, 0] ** 2 / 2
    assert my_gamma == pytest.approx(expected, rel=1e-12) and sk_gamma == pytest.approx(expected, rel=1e-12)


def test_rbf_sampler_errors():
    X = np.random.default_rng(10).normal(size=(10, 3))
    for gamma in (0, -1.0):
        with pytest.raises(ValueError, match="gamma must be > 0"):
            RBFSampler(gamma=gamma).fit(X)
    with pytest.raises(ValueError, match="gamma must be a positive number or 'scale'"):
        RBFSampler(gamma="auto").fit(X)
    with pytest.raises(ValueError, match="non-zero variance"):
        RBFSampler(gamma="scale").fit(np.ones((5, 2)))
    with pytest.raises(ValueError, match="n_components must be an integer >= 1"):
        RBFSampler(n_components=0).fit(X)
    with pytest.raises(TypeError, match="n_components must be an integer"):
        RBFSampler(n_components=2.5).fit(X)
    with pytest.raises(ValueError, match="NaN"):
        RBFSampler().fit(np.array([[1.0, np.nan]]))
    with pytest.raises(ValueError, match="3 features"):
        RBFSampler().fit(X).transform(X[:, :2])


# ---------------------------------------------------------------- kernel-matrix validation


def test_check_kernel_matrix_accepts_gram_matrices_of_kernels():
    rng = np.random.default_rng(11)
    X = rng.normal(size=(200, 3))
    for K in (rbf_kernel(X), linear_kernel(X), polynomial_kernel(X, degree=4), laplacian_kernel(X),
              np.zeros((4, 4)), rbf_kernel(np.repeat(X[:5], 3, axis=0))):   # singular Gram matrices included
        np.testing.assert_array_equal(check_kernel_matrix(K), K)
    K_test = rbf_kernel(X[:7], X)
    assert check_kernel_matrix(K_test, shape=(None, 200), require_psd=False) is not None


def test_check_kernel_matrix_rejects_what_is_not_a_gram_matrix():
    rng = np.random.default_rng(12)
    X = rng.normal(size=(30, 2))
    with pytest.raises(ValueError, match=r"not positive semidefinite: its smallest eigenvalue is -1 "):
        check_kernel_matrix(np.array([[1.0, 2.0], [2.0, 1.0]]))
    # the Euclidean distance is no kernel (003's toggle), nor in general the sigmoid kernel
    with pytest.raises(ValueError, match="not positive semidefinite"):
        check_kernel_matrix(np.sqrt(squared_euclidean_distances(X)), name="D")
    with pytest.raises(ValueError, match="not positive semidefinite"):
        check_kernel_matrix(sigmoid_kernel(X, gamma=2.0, coef0=-1.0))
    with pytest.raises(ValueError, match=r"K is not symmetric: \|K\[0, 1\] - K\[1, 0\]\| = 0.5"):
        check_kernel_matrix(np.array([[1.0, 0.5], [0.0, 1.0]]))
    check_kernel_matrix(np.array([[1.0, 0.5], [0.0, 1.0]]), require_psd=False)   # no requirement asked
    with pytest.raises(ValueError, match=r"must be a square kernel matrix .* got shape \(2, 3\)"):
        check_kernel_matrix(np.ones((2, 3)))
    with pytest.raises(ValueError, match=r"K_test must have shape \(any, 5\), got \(2, 3\)"):
        check_kernel_matrix(np.ones((2, 3)), "K_test", shape=(None, 5), require_psd=False)
    with pytest.raises(ValueError, match="NaN"):
        check_kernel_matrix(np.array([[1.0, np.nan], [np.nan, 1.0]]))
    with pytest.raises(ValueError, match="infinity"):
        check_kernel_matrix(np.array([[np.inf]]))
    with pytest.raises(ValueError, match="2-D"):
        check_kernel_matrix(np.ones(3))
    with pytest.raises(TypeError, match="shape must be a tuple"):
        check_kernel_matrix(np.eye(2), shape=[2, 2])
    with pytest.raises(ValueError, match="tol must be >= 0"):
        check_kernel_matrix(np.eye(2), tol=-1.0)


def test_check_kernel_matrix_tolerates_rounding_only():
    K = rbf_kernel(np.random.default_rng(13).normal(size=(40, 3)))
    w, V = np.linalg.eigh(K)
    lowest = w[0]
    for shift, ok in ((0.5 * 1e-10 * w[-1], True), (1e-6 * w[-1], False)):
        shifted = (V * (w - lowest - shift)) @ V.T       # smallest eigenvalue -shift
        shifted = (shifted + shifted.T) / 2
        if ok:
            check_kernel_matrix(shifted)
        else:
            with pytest.raises(ValueError, match="smallest eigenvalue is -"):
                check_kernel_matrix(shifted)


# ---------------------------------------------------------------- bad input to every public function

FUNCTIONS = [linear_kernel, polynomial_kernel, rbf_kernel, laplacian_kernel, sigmoid_kernel,
             squared_euclidean_distances, pairwise_kernels, polynomial_features_map]
TWO_SETS = FUNCTIONS[:-1]   # those taking a Y


@pytest.mark.parametrize("f", FUNCTIONS, ids=lambda f: f.__name__)
def test_bad_data_raises_clear_errors(f):
    good = np.ones((3, 2))
    for bad, error, message in [
        (np.array([[1.0, np.nan]]), ValueError, "X contains NaN"),
        (np.array([[1.0, np.inf]]), ValueError, "X contains infinity"),
        (np.empty((0, 2)), ValueError, "X is empty"),
        (np.ones(3), ValueError, "X must be 2-D"),
        (None, TypeError, "X must be an array, got None"),
        ([["a", "b"]], TypeError, "X must be numeric"),
    ]:
        with pytest.raises(error, match=message):
            f(bad)
    if f in TWO_SETS:
        with pytest.raises(ValueError, match="same number of features, got X with 2 and Y with 3"):
            f(good, np.ones((4, 3)))
        with pytest.raises(ValueError, match="Y contains NaN"):
            f(good, np.array([[0.0, np.nan]]))


@pytest.mark.parametrize("f", [polynomial_kernel, rbf_kernel, laplacian_kernel, sigmoid_kernel,
                               polynomial_features_map], ids=lambda f: f.__name__)
def test_non_positive_gamma_raises(f):
    X = np.ones((3, 2))
    for gamma in (0, -0.5):
        with pytest.raises(ValueError, match="gamma must be > 0"):
            f(X, gamma=gamma)
    with pytest.raises(ValueError, match="gamma must be finite"):
        f(X, gamma=np.nan)
    with pytest.raises(TypeError, match="gamma must be a real number"):
        f(X, gamma="1")


@pytest.mark.parametrize("f", [polynomial_kernel, polynomial_features_map], ids=lambda f: f.__name__)
def test_degree_must_be_a_positive_integer(f):
    X = np.ones((3, 2))
    minimum = 0 if f is polynomial_kernel else 1
    with pytest.raises(ValueError, match=f"degree must be an integer >= {minimum}, got {minimum - 1}"):
        f(X, degree=minimum - 1)
    for degree in (2.5, 2.0, True):
        with pytest.raises(TypeError, match="degree must be an integer"):
            f(X, degree=degree)
    np.testing.assert_array_equal(f(X, degree=np.int64(2)), f(X, degree=2))


def test_feature_map_needs_a_non_negative_coef0_and_a_bool_return_powers():
    with pytest.raises(ValueError, match="coef0 must be >= 0"):
        polynomial_features_map(np.ones((2, 2)), coef0=-1.0)
    with pytest.raises(TypeError, match="return_powers must be True or False"):
        polynomial_features_map(np.ones((2, 2)), return_powers=1)


# ---------------------------------------------------------------------------------------------
# the MIPS transform and Gaussian random projections (chapter 15's last section)
# ---------------------------------------------------------------------------------------------

def test_mips_transform_makes_cosine_equal_to_the_inner_product():
    from mlnotes.kernels import mips_transform

    rng = np.random.default_rng(3)
    X, Y = rng.normal(size=(30, 5)), rng.normal(size=(12, 5))
    X /= np.linalg.norm(X, axis=1).max()
    Y /= np.linalg.norm(Y, axis=1).max()          # one row of each has norm exactly 1: padding 0
    P, Q = mips_transform(X, Y)
    assert P.shape == (30, 7) and Q.shape == (12, 7)
    np.testing.assert_allclose(np.linalg.norm(P, axis=1), 1, rtol=1e-14)
    np.testing.assert_allclose(np.linalg.norm(Q, axis=1), 1, rtol=1e-14)
    cosine = 1 - cdist(P, Q, "cosine")
    np.testing.assert_allclose(cosine, X @ Y.T, atol=1e-14)
    # so the best cosine is the best inner product, for every query
    np.testing.assert_array_equal(np.argmax(cosine, axis=0), np.argmax(X @ Y.T, axis=0))
    np.testing.assert_array_equal(P[:, [-1]], 0)
    np.testing.assert_array_equal(Q[:, [0]], 0)


def test_mips_transform_errors():
    from mlnotes.kernels import mips_transform

    X = np.array([[0.6, 0.8], [0.3, 0.1]])
    with pytest.raises(ValueError, match=r"row 1 of Y .*|every row of Y must have norm at most 1, row 1"):
        mips_transform(X, np.array([[0.1, 0.1], [1.0, 0.5]]))
    with pytest.raises(ValueError, match="every row of X must have norm at most 1, row 0 has norm 2"):
        mips_transform(2 * X, X)
    with pytest.raises(ValueError, match="same number of features"):
        mips_transform(X, X[:, :1])
    with pytest.raises(ValueError):
        mips_transform(np.array([[np.nan, 0.0]]), X)
    P, Q = mips_transform(X * (1 + 5e-13), X)      # rounding above norm 1 is accepted, padded with 0
    assert P[0, 0] == 0 and np.all(np.isfinite(P))


def test_johnson_lindenstrauss_min_dim_is_scikit_learns():
    from sklearn.random_projection import johnson_lindenstrauss_min_dim as sk_jl

    from mlnotes.kernels import johnson_lindenstrauss_min_dim

    for n, eps in product([1, 2, 10, 1000, 10**6], [0.05, 0.1, 0.3, 0.9]):
        assert johnson_lindenstrauss_min_dim(n, eps) == int(sk_jl(n, eps=eps))
    for bad in (0.0, 1.0, -0.1):
        with pytest.raises(ValueError, match="eps"):
            johnson_lindenstrauss_min_dim(10, bad)
    with pytest.raises(ValueError, match="n_samples"):
        johnson_lindenstrauss_min_dim(0)
    with pytest.raises(TypeError, match="n_samples"):
        johnson_lindenstrauss_min_dim(10.5)


def test_gaussian_random_projection_distribution_and_interface():
    from sklearn.random_projection import GaussianRandomProjection as SkGRP

    from mlnotes.kernels import GaussianRandomProjection

    rng = np.random.default_rng(4)
    X = rng.normal(size=(20, 300))
    grp = GaussianRandomProjection(n_components=40, random_state=0).fit(X)
    assert grp.components_.shape == (40, 300) and grp.n_components_ == 40 and grp.n_features_in_ == 300
    np.testing.assert_allclose(grp.transform(X), X @ grp.components_.T, rtol=1e-14)
    # entries N(0, 1/k): 12,000 draws, mean and variance within a few standard errors
    R = grp.components_.ravel()
    assert abs(R.mean()) < 4 * np.sqrt(1 / 40 / R.size)
    assert abs(R.var() * 40 - 1) < 4 * np.sqrt(2 / R.size)
    # E||Rx||^2 = ||x||^2 with relative standard deviation sqrt(2/k): over 400 projections
    x = X[0]
    ratios = np.array([np.sum(GaussianRandomProjection(n_components=40, random_state=s).fit(X).transform(x[None])**2)
                       for s in range(1000, 1400)]) / (x @ x)   # seeds unlike the data's
    assert abs(ratios.mean() - 1) < 4 * np.sqrt(2 / 40 / 400)
    assert abs(ratios.std() - np.sqrt(2 / 40)) < 0.2 * np.sqrt(2 / 40)
    # "auto" picks scikit-learn's dimension, and refuses to project up
    X_wide = rng.normal(size=(50, 4000))
    ours = GaussianRandomProjection(eps=0.5, random_state=0).fit(X_wide)
    assert ours.n_components_ == SkGRP(eps=0.5, random_state=0).fit(X_wide).n_components_
    assert list(ours.get_feature_names_out()) == [f"gaussianrandomprojection{i}" for i in range(ours.n_components_)]
    with pytest.raises(ValueError, match="n_components=.*more than the n_features=300"):
        GaussianRandomProjection(eps=0.1).fit(X)
    with pytest.raises(ValueError, match="positive integer or 'auto'"):
        GaussianRandomProjection(n_components="many").fit(X)
    with pytest.raises(ValueError, match="n_components"):
        GaussianRandomProjection(n_components=0).fit(X)
    with pytest.raises(ValueError, match="features"):
        grp.transform(X[:, :10])


def test_polynomial_kernel_degree_zero_is_the_constant_one_kernel_as_sklearn():
    """Review F4: SVC/SVR accept degree >= 0 (as scikit-learn's, whose libsvm kernel is then the constant 1), so the
    kernel must too. scikit-learn's own polynomial_kernel (1.x) rejects degree=0; here it is the constant 1."""
    X = np.random.default_rng(0).normal(size=(5, 3))
    K = polynomial_kernel(X, degree=0)
    np.testing.assert_array_equal(K, np.ones((5, 5)))
    with pytest.raises(ValueError, match="degree"):
        polynomial_kernel(X, degree=-1)


def test_gaussian_random_projection_auto_on_one_sample_raises_as_sklearn():
    """Review F19: n_components='auto' on one sample gave n_components_ = 0 and scale 1/sqrt(0)."""
    from mlnotes.kernels import GaussianRandomProjection

    with pytest.raises(ValueError, match="target dimension of 0"):
        GaussianRandomProjection(n_components="auto").fit(np.ones((1, 5)))


def test_kernel_matrix_and_check_kernel_params_are_exported():
    import mlnotes.kernels as kernels

    assert {"kernel_matrix", "check_kernel_params"} <= set(kernels.__all__)
    assert callable(kernels.kernel_matrix) and callable(kernels.check_kernel_params)


@pytest.mark.parametrize("f", [linear_kernel, polynomial_kernel, rbf_kernel], ids=lambda f: f.__name__)
def test_complex_input_is_an_error_as_sklearn(f):
    """Review F6: complex X or Y silently lost its imaginary part; scikit-learn's check_array raises."""
    X = np.ones((3, 2)) + 1j
    with pytest.raises(ValueError, match="X is complex"):
        f(X)
    with pytest.raises(ValueError, match="Y is complex"):
        f(np.ones((3, 2)), [[1 + 2j, 0]])
    with pytest.raises(ValueError, match="Complex data not supported"):
        skp.linear_kernel(X)
