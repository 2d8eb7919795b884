"""Lasso and ElasticNet by coordinate descent: agreement with scikit-learn (same alpha, l1_ratio,
objective) on seeded data including correlated columns, sample weights and paths; the optimality
conditions the chapter derives; clear errors."""

import warnings

import numpy as np
import pytest
import sklearn.linear_model as sk
from sklearn.datasets import load_diabetes
from sklearn.exceptions import ConvergenceWarning

from mlnotes.linear import (ElasticNet, Lasso, alpha_max, coordinate_descent, duality_gap, enet_path, lasso_path,
                            lasso_qp, soft_threshold)

TIGHT = dict(tol=1e-12, max_iter=100_000)


def make_data(n=120, d=8, correlated=False, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, d))
    if correlated:                                   # two near-duplicate columns and a near-linear combination
        X[:, 1] = X[:, 0] + 0.05 * rng.normal(size=n)
        X[:, 2] = 0.5 * X[:, 0] - X[:, 3] + 0.05 * rng.normal(size=n)
    w = np.zeros(d)
    w[: d // 2] = rng.normal(scale=2, size=d // 2)
    return X, X @ w + rng.normal(size=n) + 1.5


CASES = [(alpha, l1_ratio, correlated, fit_intercept)
         for alpha in (0.01, 0.1, 1.0) for l1_ratio in (1.0, 0.5, 0.1) for correlated in (False, True)
         for fit_intercept in (True, False)]


@pytest.mark.parametrize("alpha, l1_ratio, correlated, fit_intercept", CASES)
def test_elastic_net_agrees_with_sklearn(alpha, l1_ratio, correlated, fit_intercept):
    X, y = make_data(correlated=correlated)
    ours = ElasticNet(alpha, l1_ratio=l1_ratio, fit_intercept=fit_intercept, **TIGHT).fit(X, y)
    ref = sk.ElasticNet(alpha=alpha, l1_ratio=l1_ratio, fit_intercept=fit_intercept, **TIGHT).fit(X, y)
    np.testing.assert_allclose(ours.coef_, ref.coef_, atol=1e-8)
    np.testing.assert_allclose(ours.intercept_, ref.intercept_, atol=1e-8)
    np.testing.assert_allclose(ours.predict(X), ref.predict(X), atol=1e-7)


@pytest.mark.parametrize("alpha", [0.01, 0.3])
def test_lasso_agrees_with_sklearn_on_diabetes_and_wide_data(alpha):
    X, y = load_diabetes(return_X_y=True)
    np.testing.assert_allclose(Lasso(alpha, **TIGHT).fit(X, y).coef_, sk.Lasso(alpha=alpha, **TIGHT).fit(X, y).coef_,
                               atol=1e-6 * np.abs(sk.Lasso(alpha=alpha, **TIGHT).fit(X, y).coef_).max())
    X, y = make_data(n=20, d=50, seed=2)                         # more features than samples
    np.testing.assert_allclose(Lasso(alpha, **TIGHT).fit(X, y).coef_, sk.Lasso(alpha=alpha, **TIGHT).fit(X, y).coef_,
                               atol=1e-7)


@pytest.mark.parametrize("fit_intercept", [True, False])
def test_sample_weights_agree_with_sklearn_and_with_repeated_rows(fit_intercept):
    X, y = make_data(n=60, correlated=True, seed=3)
    t = np.random.default_rng(3).integers(0, 4, size=60).astype(float)
    ours = ElasticNet(0.05, l1_ratio=0.7, fit_intercept=fit_intercept, **TIGHT).fit(X, y, sample_weight=t)
    ref = sk.ElasticNet(alpha=0.05, l1_ratio=0.7, fit_intercept=fit_intercept, **TIGHT).fit(X, y, sample_weight=t)
    np.testing.assert_allclose(ours.coef_, ref.coef_, atol=1e-8)
    np.testing.assert_allclose(ours.intercept_, ref.intercept_, atol=1e-8)
    repeated = ElasticNet(0.05, l1_ratio=0.7, fit_intercept=fit_intercept, **TIGHT).fit(
        np.repeat(X, t.astype(int), axis=0), np.repeat(y, t.astype(int)))
    np.testing.assert_allclose(ours.coef_, repeated.coef_, atol=1e-8)


def test_paths_agree_with_sklearn():
    X, y = make_data(correlated=True, seed=4)
    X, y = X - X.mean(axis=0), y - y.mean()
    alphas, coefs, gaps = lasso_path(X, y, n_alphas=30, tol=1e-12, max_iter=100_000)
    ref_alphas, ref_coefs, _ = sk.lasso_path(X, y, alphas=30, tol=1e-12, max_iter=100_000)
    np.testing.assert_allclose(alphas, ref_alphas, rtol=1e-12)
    np.testing.assert_allclose(coefs, ref_coefs, atol=1e-8)
    assert (gaps <= 1e-12 * (y @ y) / len(y) + 1e-15).all()
    alphas, coefs, _ = enet_path(X, y, l1_ratio=0.3, alphas=[0.5, 0.05, 0.2], tol=1e-12, max_iter=100_000)
    ref_alphas, ref_coefs, _ = sk.enet_path(X, y, l1_ratio=0.3, alphas=[0.5, 0.2, 0.05], tol=1e-12, max_iter=100_000)
    np.testing.assert_allclose(alphas, [0.5, 0.2, 0.05])
    np.testing.assert_allclose(coefs, ref_coefs, atol=1e-8)


def test_alpha_max_is_where_every_coefficient_becomes_zero():
    X, y = make_data(seed=5)
    Xc, yc = X - X.mean(axis=0), y - y.mean()
    for l1_ratio in (1.0, 0.4):
        a_max = alpha_max(Xc, yc, l1_ratio=l1_ratio)
        assert not ElasticNet(a_max * 1.0001, l1_ratio=l1_ratio, **TIGHT).fit(X, y).coef_.any()
        assert ElasticNet(a_max * 0.99, l1_ratio=l1_ratio, **TIGHT).fit(X, y).coef_.any()


def test_solution_satisfies_the_subgradient_optimality_conditions():
    # 0 in dP(w): c_j - (Qw)_j - alpha(1-rho) w_j = alpha rho sign(w_j) where w_j != 0, and |.| <= alpha rho where 0
    X, y = make_data(correlated=True, seed=6)
    model = ElasticNet(0.2, l1_ratio=0.6, **TIGHT).fit(X, y)
    Xc, yc, n = X - X.mean(axis=0), y - y.mean(), len(y)
    correlation = Xc.T @ (yc - Xc @ model.coef_) / n - 0.2 * 0.4 * model.coef_
    nonzero = model.coef_ != 0
    assert nonzero.any() and (~nonzero).any()
    np.testing.assert_allclose(correlation[nonzero], 0.2 * 0.6 * np.sign(model.coef_[nonzero]), atol=1e-9)
    assert (np.abs(correlation[~nonzero]) <= 0.2 * 0.6 + 1e-9).all()


def test_duality_gap_bounds_the_suboptimality_and_vanishes_at_the_optimum():
    X, y = make_data(seed=7)
    n = len(y)
    Q, c, yy = X.T @ X / n, X.T @ y / n, y @ y / n
    objective = lambda w: 0.5 * (yy - 2 * c @ w + w @ Q @ w) + 0.1 * np.abs(w).sum()
    w_star, gap, _ = coordinate_descent(Q, c, yy, 0.1, 0.0, tol=1e-14, max_iter=100_000)
    assert 0 <= gap <= 1e-13
    for w in np.random.default_rng(7).normal(size=(20, X.shape[1])):
        assert duality_gap(Q, c, yy, w, 0.1, 0.0) >= objective(w) - objective(w_star) - 1e-12


def test_soft_threshold():
    z = np.array([-3.0, -1.0, -0.5, 0.0, 0.5, 1.0, 3.0])
    np.testing.assert_array_equal(soft_threshold(z, 1.0), [-2.0, 0.0, 0.0, 0.0, 0.0, 0.0, 2.0])
    # the minimiser of (w - z)^2 / 2 + t |w|, on a fine grid
    grid = np.linspace(-5, 5, 100_001)
    for zi in z:
        best = grid[np.argmin(0.5 * (grid - zi) ** 2 + 1.0 * np.abs(grid))]
        assert abs(soft_threshold(zi, 1.0) - best) <= 1e-4


def test_constant_feature_gets_zero_weight_and_warm_start_matches_cold_start():
    X, y = make_data(seed=8)
    X[:, 2] = 3.0
    model = Lasso(0.05, **TIGHT).fit(X, y)
    assert model.coef_[2] == 0.0
    np.testing.assert_allclose(model.coef_, sk.Lasso(alpha=0.05, **TIGHT).fit(X, y).coef_, atol=1e-8)
    warm = Lasso(0.5, warm_start=True, **TIGHT).fit(X, y)
    warm.set_params(alpha=0.05).fit(X, y)
    np.testing.assert_allclose(warm.coef_, model.coef_, atol=1e-9)


def test_not_converging_warns():
    X, y = make_data(correlated=True, seed=9)
    with pytest.warns(ConvergenceWarning, match="did not converge"):
        Lasso(0.001, tol=1e-14, max_iter=2).fit(X, y)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        Lasso(0.1).fit(X, y)


@pytest.mark.parametrize("params, match", [({"alpha": 0.0}, "LinearRegression"), ({"alpha": -1.0}, "alpha"),
                                           ({"l1_ratio": 1.5}, "l1_ratio"), ({"max_iter": 0}, "max_iter"),
                                           ({"tol": -1.0}, "tol"), ({"alpha": np.nan}, "finite")])
def test_bad_parameters_are_rejected(params, match):
    X, y = make_data()
    with pytest.raises(ValueError, match=match):
        ElasticNet(**params).fit(X, y)


def test_bad_data_is_rejected():
    X, y = make_data()
    with pytest.raises(ValueError, match="NaN"):
        Lasso().fit(np.where(X > 2, np.nan, X), y)
    with pytest.raises(ValueError, match="inconsistent numbers of samples"):
        Lasso().fit(X, y[:-1])
    with pytest.raises(ValueError, match="negative"):
        Lasso().fit(X, y, sample_weight=-np.ones(len(y)))
    with pytest.raises(ValueError, match="features"):
        Lasso().fit(X, y).predict(X[:, :3])
    with pytest.raises(ValueError, match="> 0"):
        lasso_path(np.zeros((5, 2)), np.ones(5))
    with pytest.raises(ValueError, match="t must be >= 0"):
        soft_threshold([1.0], -1.0)


# ---------------------------------------------------------------------------------------------
# the lasso as a QP in the positive and negative parts (chapter 10), by projected gradient
# ---------------------------------------------------------------------------------------------

@pytest.mark.parametrize("accelerated", [True, False])
@pytest.mark.parametrize("alpha, correlated, shape", [(0.05, False, (120, 8)), (0.3, True, (120, 8)),
                                                      (0.1, False, (20, 30)), (0.02, True, (60, 8))])
def test_lasso_qp_agrees_with_coordinate_descent_and_sklearn(accelerated, alpha, correlated, shape):
    X, y = make_data(*shape, correlated=correlated, seed=10)
    X, y = X - X.mean(axis=0), y - y.mean()
    a, b, gaps = lasso_qp(X, y, alpha, accelerated=accelerated, tol=1e-13, max_iter=200_000)
    assert (a >= 0).all() and (b >= 0).all()
    assert not (a * b).any()                                    # a_j b_j = 0: one part is exactly zero
    ref = sk.Lasso(alpha=alpha, fit_intercept=False, **TIGHT).fit(X, y).coef_
    np.testing.assert_allclose(a - b, ref, atol=1e-6)
    np.testing.assert_allclose(a - b, Lasso(alpha, fit_intercept=False, **TIGHT).fit(X, y).coef_, atol=1e-6)
    assert gaps[-1] <= 1e-13 * (y @ y) / len(y) and gaps[0] >= gaps[-1]


def test_lasso_qp_agrees_with_scipy_bounded_solver():
    from scipy.optimize import minimize
    X, y = make_data(n=40, d=5, correlated=True, seed=11)
    n, d, alpha = 40, 5, 0.2

    def f(z):
        a, b = z[:d], z[d:]
        r = y - X @ (a - b)
        return r @ r / (2 * n) + alpha * z.sum()

    def grad(z):
        g = X.T @ (X @ (z[:d] - z[d:]) - y) / n
        return np.concatenate([g + alpha, alpha - g])

    ref = minimize(f, np.zeros(2 * d), jac=grad, method="L-BFGS-B", bounds=[(0, None)] * (2 * d),
                   options={"ftol": 1e-15, "gtol": 1e-12, "maxiter": 10_000})
    a, b, _ = lasso_qp(X, y, alpha, tol=1e-14)
    np.testing.assert_allclose(a - b, ref.x[:d] - ref.x[d:], atol=1e-6)
    assert f(np.concatenate([a, b])) <= ref.fun + 1e-12


def test_lasso_qp_edge_cases():
    X, y = make_data(n=30, d=3, seed=12)
    a_max = alpha_max(X, y)
    a, b, gaps = lasso_qp(X, y, 1.01 * a_max)                   # above alpha_max: w = 0 from the start
    assert not a.any() and not b.any() and len(gaps) == 1
    a, b, _ = lasso_qp(X[:, :1], y, 0.1, tol=1e-14)             # one feature: the soft-thresholded slope
    x = X[:, 0]
    np.testing.assert_allclose(a - b, soft_threshold(x @ y / 30, 0.1) / (x @ x / 30), atol=1e-6)
    a, b, gaps = lasso_qp(np.zeros((5, 2)), np.ones(5), 0.1)     # X = 0: nothing to fit
    assert not (a - b).any() and len(gaps) == 1


def test_lasso_qp_warns_and_rejects_bad_input():
    X, y = make_data(correlated=True, seed=13)
    with pytest.warns(ConvergenceWarning, match="did not converge"):
        lasso_qp(X, y, 0.001, tol=1e-15, max_iter=3)
    with pytest.raises(ValueError, match="alpha must be > 0"):
        lasso_qp(X, y, 0.0)
    with pytest.raises(ValueError, match="max_iter"):
        lasso_qp(X, y, 0.1, max_iter=0)
    with pytest.raises(ValueError, match="NaN"):
        lasso_qp(np.where(X > 2, np.nan, X), y, 0.1)
    with pytest.raises(ValueError, match="entries but X has"):
        lasso_qp(X, y[:-1], 0.1)


# ---------------------------------------------------------------------------------------------
# the Gram-level functions: the derived update, the inner tolerance, clear errors
# ---------------------------------------------------------------------------------------------

def gram(seed=14, correlated=True):
    X, y = make_data(n=50, d=6, correlated=correlated, seed=seed)
    X, y = X - X.mean(axis=0), y - y.mean()
    return X.T @ X / 50, X.T @ y / 50, y @ y / 50


@pytest.mark.parametrize("alpha_l1, alpha_l2", [(0.1, 0.0), (0.05, 0.2), (0.0, 0.3)])
def test_one_sweep_is_the_soft_thresholding_update(alpha_l1, alpha_l2):
    Q, c, yy = gram()
    w = np.zeros(len(c))
    for j in range(len(c)):                                     # w_j <- S(rho_j, alpha_l1) / (Q_jj + alpha_l2)
        rho = c[j] - Q[j] @ w + Q[j, j] * w[j]
        w[j] = soft_threshold(rho, alpha_l1) / (Q[j, j] + alpha_l2)
    w_lib, gap, n_iter = coordinate_descent(Q, c, yy, alpha_l1, alpha_l2, max_iter=1)
    np.testing.assert_allclose(w_lib, w, rtol=1e-13, atol=1e-15)
    assert n_iter == 1
    np.testing.assert_allclose(gap, duality_gap(Q, c, yy, w_lib, alpha_l1, alpha_l2), rtol=1e-12)


def test_soft_threshold_gives_positive_zeros_and_matches_the_piecewise_formula():
    z = np.random.default_rng(15).uniform(-3, 3, size=1000)
    expected = np.where(z > 0.7, z - 0.7, np.where(z < -0.7, z + 0.7, 0.0))
    np.testing.assert_array_equal(soft_threshold(z, 0.7), expected)
    assert not np.signbit(soft_threshold(z, 0.7)[np.abs(z) <= 0.7]).any()     # 0, never -0
    assert soft_threshold(-2.5, 1.0) == -1.5 and soft_threshold(0.3, 0.0) == 0.3


def test_change_tol_changes_the_work_not_the_limit():
    # max_iter 2000: about six times the sweeps the converging settings take (336 here); change_tol = 0 never
    # stops the inner loop, so it runs every sweep allowed (100 000 cost 6 s and tested nothing more)
    Q, c, yy = gram(seed=16)
    results = {ct: coordinate_descent(Q, c, yy, 0.02, 0.0, tol=1e-13, max_iter=2000, change_tol=ct)
               for ct in (0.0, 1e-13, 0.5)}
    for w, gap, _ in results.values():
        assert gap <= 1e-13 * yy
        np.testing.assert_allclose(w, results[1e-13][0], atol=1e-7)
    # the default is tol, scikit-learn's choice
    w_default, _, n_default = coordinate_descent(Q, c, yy, 0.02, 0.0, tol=1e-13, max_iter=2000)
    np.testing.assert_array_equal(w_default, results[1e-13][0])
    assert n_default == results[1e-13][2]
    assert len({n for _, _, n in results.values()}) > 1          # the inner tolerance does change the sweeps


BAD_GRAM = [
    (lambda Q, c, yy, w: ((Q, c, yy, w, -0.1, 0.0), {}), "alpha_l1 must be >= 0"),
    (lambda Q, c, yy, w: ((Q, c, yy, w, 0.1, -0.5), {}), "alpha_l2 must be >= 0"),
    (lambda Q, c, yy, w: ((Q, c, yy, w, 0.0, 0.0), {}), "both 0"),
    (lambda Q, c, yy, w: ((Q[:, :-1], c, yy, w, 0.1, 0.0), {}), "shape"),
    (lambda Q, c, yy, w: ((Q, c[:, None], yy, w, 0.1, 0.0), {}), "1-D"),
    (lambda Q, c, yy, w: ((Q, c, yy, w[:-1], 0.1, 0.0), {}), "w must have shape"),
    (lambda Q, c, yy, w: ((np.where(Q > 0.5, np.nan, Q), c, yy, w, 0.1, 0.0), {}), "NaN"),
    (lambda Q, c, yy, w: ((Q + np.triu(np.ones_like(Q), 1), c, yy, w, 0.1, 0.0), {}), "symmetric"),
    (lambda Q, c, yy, w: ((Q - 10 * np.eye(len(c)), c, yy, w, 0.1, 0.0), {}), "diagonal"),
    (lambda Q, c, yy, w: ((Q, c, -1.0, w, 0.1, 0.0), {}), "yy must be >= 0"),
    (lambda Q, c, yy, w: ((Q, c, np.inf, w, 0.1, 0.0), {}), "finite"),
]


@pytest.mark.parametrize("make_args, match", BAD_GRAM)
def test_duality_gap_rejects_bad_input(make_args, match):
    Q, c, yy = gram()
    args, _ = make_args(Q, c, yy, np.zeros(len(c)))
    with pytest.raises(ValueError, match=match):
        duality_gap(*args)


@pytest.mark.parametrize("make_args, match", [b for b in BAD_GRAM if "w must" not in b[1]])
def test_coordinate_descent_rejects_bad_input(make_args, match):
    Q, c, yy = gram()
    (Q_, c_, yy_, _, a1, a2), _ = make_args(Q, c, yy, np.zeros(len(c)))
    with pytest.raises(ValueError, match=match):
        coordinate_descent(Q_, c_, yy_, a1, a2)


@pytest.mark.parametrize("kwargs, match", [({"tol": -1.0}, "tol"), ({"max_iter": 0}, "max_iter"),
                                           ({"max_iter": 2.5}, "max_iter"), ({"change_tol": -1e-3}, "change_tol"),
                                           ({"w0": np.zeros(3)}, "w0 must have shape"), ({"w0": [np.nan] * 6}, "NaN")])
def test_coordinate_descent_rejects_bad_options(kwargs, match):
    Q, c, yy = gram()
    with pytest.raises((ValueError, TypeError), match=match):
        coordinate_descent(Q, c, yy, 0.1, 0.0, **kwargs)


def test_duality_gap_is_non_negative_and_bounds_the_suboptimality_for_the_elastic_net():
    Q, c, yy = gram(seed=17)
    objective = lambda w: 0.5 * (yy - 2 * c @ w + w @ Q @ w) + 0.05 * np.abs(w).sum() + 0.1 / 2 * w @ w
    w_star, _, _ = coordinate_descent(Q, c, yy, 0.05, 0.1, tol=1e-14, max_iter=100_000)
    for w in np.random.default_rng(17).normal(size=(30, len(c))):
        gap = duality_gap(Q, c, yy, w, 0.05, 0.1)
        assert gap >= objective(w) - objective(w_star) - 1e-12 >= -1e-12
