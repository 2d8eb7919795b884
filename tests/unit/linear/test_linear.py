"""Numerical tests of :mod:`mlnotes.linear` against scikit-learn, numpy and first principles.

Tolerance convention (used everywhere unless a test says otherwise): ``assert_close`` checks
``|actual - expected| <= 1e-8 * max(1, max|expected|)`` elementwise, i.e. an absolute 1e-8 for
the O(1) coefficients of the well-scaled seeded data, and a relative 1e-8 (of the largest entry)
when the reference values are large (ill-conditioned designs, minimum-norm solutions). It is
``np.testing.assert_allclose(actual, expected, rtol=0, atol=1e-8 * scale)`` plus a shape check.

Every reference is computed independently of mlnotes (scikit-learn estimators, ``np.linalg``
solves/pseudo-inverses, ``np.polyfit``, explicit sums), all data come from seeded
``np.random.default_rng`` generators or scikit-learn's bundled ``load_diabetes``.
"""

import numpy as np
import pytest
from sklearn import linear_model as sk
from sklearn.datasets import load_diabetes

from mlnotes.linear import (
    LinearRegression,
    Ridge,
    center,
    least_squares_1d,
    least_squares_loss,
    normal_equations,
    ridge_closed_form,
    ridge_svd,
)
from assertions import close_within

SEEDS = [0, 1, 2]
SHAPES = [(1, 1), (2, 5), (30, 3), (200, 20)]
LR_SOLVERS = ["lstsq", "normal"]
RIDGE_SOLVERS = ["auto", "cholesky", "svd"]
# scikit-learn solver used as the reference for each mlnotes Ridge solver
SK_RIDGE_SOLVER = {"auto": "cholesky", "cholesky": "cholesky", "svd": "svd"}


# --------------------------------------------------------------------------- helpers


assert_close = close_within(1e-8)


def make_regression(seed, n, d, n_targets=None, noise=0.5):
    """Seeded linear data with non-zero column means (so the intercept matters) and noise."""
    rng = np.random.default_rng(seed)
    X = rng.normal(loc=rng.uniform(-3, 3, d), scale=rng.uniform(0.5, 2.0, d), size=(n, d))
    w_shape = (d,) if n_targets is None else (d, n_targets)
    y_shape = (n,) if n_targets is None else (n, n_targets)
    w = rng.standard_normal(w_shape)
    b = rng.uniform(-5, 5, size=() if n_targets is None else (n_targets,))
    y = X @ w + b + noise * rng.standard_normal(y_shape)
    return X, y


def make_weights(seed, n, n_zero=0):
    """Positive random weights with ``n_zero`` of them set to exactly 0."""
    rng = np.random.default_rng(seed + 1000)
    t = rng.uniform(0.1, 3.0, n)
    t[rng.choice(n, size=n_zero, replace=False)] = 0.0
    return t


def assert_same_fit(est, ref):
    """coef_ and intercept_ of two fitted estimators agree (see the module tolerance), with the
    same shapes (``intercept_`` is the scalar 0.0 without an intercept, as in scikit-learn)."""
    assert_close(est.coef_, ref.coef_)
    assert_close(est.intercept_, ref.intercept_)


def weighted_means(X, y, fit_intercept, sample_weight):
    """The weights t (ones by default) and the t-weighted means of X and y (zeros without an intercept)."""
    t = np.ones(X.shape[0]) if sample_weight is None else np.asarray(sample_weight, float)
    if fit_intercept:
        x_bar = (t @ X) / t.sum()
        y_bar = np.tensordot(t, y, axes=1) / t.sum()
    else:
        x_bar, y_bar = np.zeros(X.shape[1]), np.zeros(y.shape[1:])
    return t, x_bar, y_bar


def min_norm_reference(X, y, fit_intercept=True, sample_weight=None):
    """Minimum-norm weighted least squares via np.linalg.pinv on centred, sqrt(t)-scaled data."""
    t, x_bar, y_bar = weighted_means(X, y, fit_intercept, sample_weight)
    s = np.sqrt(t)
    Xc = (X - x_bar) * s[:, None]
    yc = (y - y_bar) * (s if y.ndim == 1 else s[:, None])
    W = np.linalg.pinv(Xc) @ yc
    coef = W if y.ndim == 1 else W.T
    return coef, y_bar - x_bar @ coef.T


def ridge_reference(X, y, alpha, fit_intercept=True, sample_weight=None):
    """Ridge via an explicit primal solve (X^T T X + alpha I) w = X^T T y on centred data."""
    t, x_bar, y_bar = weighted_means(X, y, fit_intercept, sample_weight)
    Xc, yc = X - x_bar, y - y_bar
    Y = yc.reshape(len(yc), -1)
    alphas = np.broadcast_to(np.asarray(alpha, float), (Y.shape[1],))
    G = Xc.T @ (t[:, None] * Xc)
    W = np.column_stack(
        [np.linalg.solve(G + a * np.eye(X.shape[1]), Xc.T @ (t * Y[:, j])) for j, a in enumerate(alphas)]
    )
    coef = W[:, 0] if y.ndim == 1 else W.T
    return coef, y_bar - x_bar @ coef.T


def ridge_gradient(X, y, coef, intercept, alpha, sample_weight=None):
    """Gradient of sum_i t_i (y_i - x_i.w - b)^2 + alpha |w|^2 (single target) w.r.t. (w, b)."""
    t = np.ones(X.shape[0]) if sample_weight is None else sample_weight
    r = y - X @ coef - intercept
    return -2 * X.T @ (t * r) + 2 * alpha * coef, -2 * np.sum(t * r)


def gradient_scale(X, y, sample_weight=None):
    """Size of the individual terms of the gradient, to make "~0" relative."""
    t = np.ones(X.shape[0]) if sample_weight is None else sample_weight
    return 2 * np.sum(t * (np.abs(X).sum(axis=1) + 1) * (np.abs(y) + 1))


# --------------------------------------------------------------------------- LinearRegression


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("fit_intercept", [True, False])
@pytest.mark.parametrize("solver", LR_SOLVERS)
def test_linear_regression_matches_sklearn(solver, fit_intercept, seed):
    X, y = make_regression(seed, 60, 7)
    est = LinearRegression(solver=solver, fit_intercept=fit_intercept).fit(X, y)
    ref = sk.LinearRegression(fit_intercept=fit_intercept).fit(X, y)
    assert_same_fit(est, ref)
    assert isinstance(est.intercept_, float)
    assert est.coef_.shape == (7,)
    if not fit_intercept:
        assert est.intercept_ == 0.0


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("solver", LR_SOLVERS)
def test_linear_regression_zero_weight_equals_dropping_rows(solver, seed):
    X, y = make_regression(seed, 40, 4)
    t = make_weights(seed, 40, n_zero=8)
    # corrupt the zero-weight rows: they must have no influence at all
    X_bad, y_bad = X.copy(), y.copy()
    X_bad[t == 0] = 1e3
    y_bad[t == 0] = -1e3
    est = LinearRegression(solver=solver).fit(X_bad, y_bad, sample_weight=t)
    ref = LinearRegression(solver=solver).fit(X[t > 0], y[t > 0], sample_weight=t[t > 0])
    assert_same_fit(est, ref)


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize(
    "make_est",
    [
        lambda: LinearRegression(),
        lambda: LinearRegression(solver="normal"),
        lambda: Ridge(alpha=2.0),
        lambda: Ridge(alpha=2.0, solver="svd"),
        lambda: LinearRegression(fit_intercept=False),
        lambda: Ridge(alpha=0.5, fit_intercept=False, solver="cholesky"),
    ],
    ids=["lr-lstsq", "lr-normal", "ridge-auto", "ridge-svd", "lr-noint", "ridge-chol-noint"],
)
def test_weight_two_equals_duplicated_row(make_est, seed):
    X, y = make_regression(seed, 30, 4)
    rng = np.random.default_rng(seed)
    dup = rng.choice(30, size=6, replace=False)
    t = np.ones(30)
    t[dup] = 2.0
    weighted = make_est().fit(X, y, sample_weight=t)
    duplicated = make_est().fit(np.vstack([X, X[dup]]), np.concatenate([y, y[dup]]))
    assert_same_fit(weighted, duplicated)


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("fit_intercept", [True, False])
@pytest.mark.parametrize("solver", LR_SOLVERS)
def test_linear_regression_multi_output_matches_sklearn(solver, fit_intercept, seed):
    X, Y = make_regression(seed, 80, 5, n_targets=3)
    t = make_weights(seed, 80, n_zero=4)
    est = LinearRegression(solver=solver, fit_intercept=fit_intercept).fit(X, Y, sample_weight=t)
    ref = sk.LinearRegression(fit_intercept=fit_intercept).fit(X, Y, sample_weight=t)
    assert est.coef_.shape == (3, 5)
    assert np.shape(est.intercept_) == ((3,) if fit_intercept else ())  # 0.0 without intercept, as sklearn
    assert_same_fit(est, ref)
    # each column fitted alone gives the same row of coef_
    for j in range(3):
        single = LinearRegression(solver=solver, fit_intercept=fit_intercept).fit(X, Y[:, j], sample_weight=t)
        assert_close(est.coef_[j], single.coef_)
        assert_close(np.broadcast_to(est.intercept_, (Y.shape[1],))[j], single.intercept_)


def test_linear_regression_column_vector_y_keeps_2d_shapes():
    X, y = make_regression(3, 25, 3)
    est = LinearRegression().fit(X, y[:, None])
    ref = sk.LinearRegression().fit(X, y[:, None])
    assert est.coef_.shape == (1, 3)
    assert_same_fit(est, ref)
    assert est.predict(X).shape == (25, 1)


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("eps", [1e-3, 1e-10])
def test_linear_regression_nearly_collinear_matches_sklearn(eps, seed):
    # eps=1e-3: full rank, condition number ~1e3 (large coefficients, relative tolerance);
    # eps=1e-10: below tol=1e-6, both libraries truncate to rank d-1
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((100, 6))
    X[:, 1] = X[:, 0] + eps * rng.standard_normal(100)
    y = X @ rng.standard_normal(6) + rng.standard_normal(100)
    est = LinearRegression().fit(X, y)
    ref = sk.LinearRegression().fit(X, y)
    assert est.rank_ == ref.rank_ == (6 if eps > 1e-6 else 5)
    assert_same_fit(est, ref)


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("fit_intercept", [True, False])
@pytest.mark.parametrize(
    "make_collinear",
    [
        lambda X, rng: X[:, 0],  # duplicated column
        lambda X, rng: 2.0 * X[:, 1] - 3.0 * X[:, 2],  # combination of two columns
        lambda X, rng: np.zeros(len(X)),  # all-zero column
    ],
    ids=["duplicate", "combination", "zero-column"],
)
def test_rank_deficient_lstsq_is_min_norm_and_normal_raises(make_collinear, fit_intercept, seed):
    X, y = make_regression(seed, 40, 5)
    rng = np.random.default_rng(seed)
    X[:, 4] = make_collinear(X, rng)
    est = LinearRegression(fit_intercept=fit_intercept).fit(X, y)
    coef, intercept = min_norm_reference(X, y, fit_intercept)
    assert_close(est.coef_, coef)
    assert_close(est.intercept_, intercept)
    assert est.rank_ == 4
    ref = sk.LinearRegression(fit_intercept=fit_intercept).fit(X, y)
    assert_same_fit(est, ref)
    assert est.rank_ == ref.rank_
    # the minimum-norm solution is orthogonal to the null space of the (centred) design
    Xc = X - X.mean(axis=0) if fit_intercept else X
    _, s, Vt = np.linalg.svd(Xc)
    null = Vt[s < 1e-10 * s[0]]
    assert null.shape[0] == 1
    assert abs(null @ est.coef_).max() <= 1e-10 * max(1.0, np.abs(est.coef_).max())
    with pytest.raises(ValueError, match="rank"):
        LinearRegression(solver="normal", fit_intercept=fit_intercept).fit(X, y)


def test_rank_deficient_with_weights_is_min_norm():
    X, y = make_regression(7, 30, 4)
    X[:, 3] = X[:, 0] - X[:, 1]
    t = make_weights(7, 30, n_zero=3)
    est = LinearRegression().fit(X, y, sample_weight=t)
    coef, intercept = min_norm_reference(X, y, True, t)
    assert_close(est.coef_, coef)
    assert_close(est.intercept_, intercept)
    with pytest.raises(ValueError, match="rank"):
        LinearRegression(solver="normal").fit(X, y, sample_weight=t)


def test_linear_regression_diabetes_matches_sklearn():
    X, y = load_diabetes(return_X_y=True)
    ref = sk.LinearRegression().fit(X, y)
    for solver in LR_SOLVERS:
        est = LinearRegression(solver=solver).fit(X, y)
        # diabetes coefficients are O(100)-O(1000): the module tolerance is relative here
        assert_same_fit(est, ref)
        assert_close(est.predict(X), ref.predict(X))
        assert est.score(X, y) == pytest.approx(ref.score(X, y), rel=0, abs=1e-12)


def test_ridge_diabetes_matches_sklearn():
    X, y = load_diabetes(return_X_y=True)
    t = make_weights(0, X.shape[0], n_zero=10)
    for solver in RIDGE_SOLVERS:
        for alpha in [1e-3, 0.1, 10.0]:
            est = Ridge(alpha=alpha, solver=solver).fit(X, y, sample_weight=t)
            ref = sk.Ridge(alpha=alpha, solver=SK_RIDGE_SOLVER[solver]).fit(X, y, sample_weight=t)
            assert_same_fit(est, ref)
            assert est.score(X, y) == pytest.approx(ref.score(X, y), rel=0, abs=1e-12)


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize(
    "make_pair",
    [
        lambda: (LinearRegression(), sk.LinearRegression()),
        lambda: (LinearRegression(solver="normal", fit_intercept=False), sk.LinearRegression(fit_intercept=False)),
        lambda: (Ridge(alpha=3.0), sk.Ridge(alpha=3.0)),
        lambda: (Ridge(alpha=0.3, solver="svd", fit_intercept=False), sk.Ridge(alpha=0.3, solver="svd", fit_intercept=False)),
    ],
    ids=["lr", "lr-normal-noint", "ridge", "ridge-svd-noint"],
)
def test_predict_and_score_match_sklearn(make_pair, seed):
    X, y = make_regression(seed, 70, 6)
    X_new, y_new = make_regression(seed + 50, 20, 6)
    est, ref = make_pair()
    est.fit(X, y)
    ref.fit(X, y)
    assert_close(est.predict(X_new), ref.predict(X_new))
    assert est.score(X_new, y_new) == pytest.approx(ref.score(X_new, y_new), rel=0, abs=1e-10)
    # predict is X w + b
    assert_close(est.predict(X_new), X_new @ est.coef_ + est.intercept_)
    # score with weights too
    t = make_weights(seed, 20)
    assert est.score(X_new, y_new, sample_weight=t) == pytest.approx(
        ref.score(X_new, y_new, sample_weight=t), rel=0, abs=1e-10
    )


def test_predict_multi_output_matches_sklearn():
    X, Y = make_regression(4, 50, 4, n_targets=2)
    est = Ridge(alpha=[0.5, 5.0]).fit(X, Y)
    ref = sk.Ridge(alpha=[0.5, 5.0]).fit(X, Y)
    assert est.predict(X).shape == (50, 2)
    assert_close(est.predict(X), ref.predict(X))
    assert est.score(X, Y) == pytest.approx(ref.score(X, Y), rel=0, abs=1e-12)


# --------------------------------------------------------------------------- Ridge


def fit_ridge_and_compare(X, y, alpha, solver, fit_intercept, t=None):
    """Fit mlnotes' Ridge, assert it equals scikit-learn's Ridge and, for 1-D y, the explicit
    closed form :func:`ridge_reference`; return the fitted estimator."""
    est = Ridge(alpha=alpha, solver=solver, fit_intercept=fit_intercept).fit(X, y, sample_weight=t)
    ref = sk.Ridge(alpha=alpha, solver=SK_RIDGE_SOLVER[solver], fit_intercept=fit_intercept).fit(
        X, y, sample_weight=t)
    assert_same_fit(est, ref)
    if np.ndim(y) == 1:
        coef, intercept = ridge_reference(X, y, alpha, fit_intercept, t)
        assert_close(est.coef_, coef)
        assert_close(est.intercept_, intercept)
    return est


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("alpha", [1e-2, 1.0, 100.0])
@pytest.mark.parametrize("fit_intercept", [True, False])
@pytest.mark.parametrize("solver", RIDGE_SOLVERS)
def test_ridge_matches_sklearn(solver, fit_intercept, alpha, seed):
    X, y = make_regression(seed, 60, 8)
    fit_ridge_and_compare(X, y, alpha, solver, fit_intercept)


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("n_zero", [0, 6])
@pytest.mark.parametrize("fit_intercept", [True, False])
@pytest.mark.parametrize("model, solver", [("LinearRegression", s) for s in LR_SOLVERS]
                         + [("Ridge", s) for s in RIDGE_SOLVERS])
def test_sample_weight_matches_sklearn(model, solver, fit_intercept, n_zero, seed):
    X, y = make_regression(seed, 50, 6)
    t = make_weights(seed, 50, n_zero)
    if model == "Ridge":
        fit_ridge_and_compare(X, y, 1.5, solver, fit_intercept, t)      # also against the closed form
    else:
        est = LinearRegression(solver=solver, fit_intercept=fit_intercept).fit(X, y, sample_weight=t)
        assert_same_fit(est, sk.LinearRegression(fit_intercept=fit_intercept).fit(X, y, sample_weight=t))


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("fit_intercept", [True, False])
@pytest.mark.parametrize("solver", RIDGE_SOLVERS)
@pytest.mark.parametrize("alpha", [2.0, [0.1, 1.0, 10.0, 1.0]], ids=["scalar-alpha", "per-target-alpha"])
def test_ridge_multi_output_matches_sklearn(alpha, solver, fit_intercept, seed):
    X, Y = make_regression(seed, 40, 5, n_targets=4)
    t = make_weights(seed, 40, n_zero=2)
    est = fit_ridge_and_compare(X, Y, alpha, solver, fit_intercept, t)
    assert est.coef_.shape == (4, 5)
    # per-target alpha: column j is the single-target fit with alpha[j]
    alphas = np.broadcast_to(alpha, (4,))
    for j in range(4):
        single = Ridge(alpha=alphas[j], solver=solver, fit_intercept=fit_intercept).fit(X, Y[:, j], sample_weight=t)
        assert_close(est.coef_[j], single.coef_)
        assert_close(np.broadcast_to(est.intercept_, (Y.shape[1],))[j], single.intercept_)


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("shape", [(2, 5), (10, 50), (30, 31)])
@pytest.mark.parametrize("fit_intercept", [True, False])
@pytest.mark.parametrize("solver", RIDGE_SOLVERS)
def test_ridge_more_features_than_samples(solver, fit_intercept, shape, seed):
    n, d = shape
    X, y = make_regression(seed, n, d)
    t = make_weights(seed, n)
    fit_ridge_and_compare(X, y, 0.7, solver, fit_intercept, t)


def test_ridge_closed_form_dual_equals_primal():
    rng = np.random.default_rng(11)
    X = rng.standard_normal((8, 30))
    Y = rng.standard_normal((8, 2))
    alphas = np.array([0.3, 4.0])
    W = ridge_closed_form(X, Y, alphas)
    primal = np.column_stack([np.linalg.solve(X.T @ X + a * np.eye(30), X.T @ Y[:, j]) for j, a in enumerate(alphas)])
    assert_close(W, primal)
    assert_close(ridge_svd(X, Y, alphas), primal)


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("alpha", [1e-3, 1.0, 100.0])
@pytest.mark.parametrize("eps", [1e-6, 1e-9])
def test_ridge_ill_conditioned_svd_equals_cholesky(eps, alpha, seed):
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((100, 6))
    X[:, 1] = X[:, 0] + eps * rng.standard_normal(100)
    X[:, 2] = X[:, 3] - X[:, 4] + eps * rng.standard_normal(100)
    y = X @ rng.standard_normal(6) + 0.1 * rng.standard_normal(100)
    assert np.linalg.cond(X - X.mean(axis=0)) > 1e5
    svd = Ridge(alpha=alpha, solver="svd").fit(X, y)
    chol = Ridge(alpha=alpha, solver="cholesky").fit(X, y)
    assert_same_fit(svd, chol)
    assert_same_fit(svd, sk.Ridge(alpha=alpha, solver="svd").fit(X, y))
    assert_same_fit(chol, sk.Ridge(alpha=alpha, solver="cholesky").fit(X, y))


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("solver", ["auto", "svd"])
def test_ridge_alpha_zero_equals_linear_regression_full_rank(solver, seed):
    X, y = make_regression(seed, 50, 6)
    ridge = Ridge(alpha=0.0, solver=solver).fit(X, y)
    assert_same_fit(ridge, LinearRegression().fit(X, y))
    assert_same_fit(ridge, sk.LinearRegression().fit(X, y))


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("shape", [(40, 6), (5, 12)])
@pytest.mark.parametrize("fit_intercept", [True, False])
def test_ridge_alpha_zero_is_min_norm(fit_intercept, shape, seed):
    n, d = shape
    X, y = make_regression(seed, n, d)
    if n > d:
        X[:, -1] = X[:, 0] + X[:, 1]  # rank deficient
    ridge = Ridge(alpha=0.0, fit_intercept=fit_intercept).fit(X, y)  # auto -> svd
    coef, intercept = min_norm_reference(X, y, fit_intercept)
    assert_close(ridge.coef_, coef)
    assert_close(ridge.intercept_, intercept)
    assert_same_fit(ridge, LinearRegression(fit_intercept=fit_intercept).fit(X, y))


def test_ridge_cholesky_rejects_alpha_zero():
    X, y = make_regression(0, 20, 3)
    with pytest.raises(ValueError, match="alpha > 0"):
        Ridge(alpha=0.0, solver="cholesky").fit(X, y)
    with pytest.raises(ValueError, match="alpha > 0"):
        Ridge(alpha=[1.0, 0.0], solver="cholesky").fit(X, np.column_stack([y, y]))


def test_ridge_auto_mixed_alpha_uses_svd():
    X, Y = make_regression(5, 30, 4, n_targets=2)
    X[:, 3] = X[:, 0]
    est = Ridge(alpha=[0.0, 2.0]).fit(X, Y)
    coef0, b0 = min_norm_reference(X, Y[:, 0])
    assert_close(est.coef_[0], coef0)
    assert_close(est.intercept_[0], b0)
    coef1, b1 = ridge_reference(X, Y[:, 1], 2.0)
    assert_close(est.coef_[1], coef1)
    assert_close(est.intercept_[1], b1)


# --------------------------------------------------------------------------- property-style


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("shape", SHAPES, ids=[f"{n}x{d}" for n, d in SHAPES])
@pytest.mark.parametrize("fit_intercept", [True, False])
def test_property_linear_regression_min_norm_and_sklearn(fit_intercept, shape, seed):
    n, d = shape
    X, y = make_regression(seed, n, d)
    est = LinearRegression(fit_intercept=fit_intercept).fit(X, y)
    coef, intercept = min_norm_reference(X, y, fit_intercept)
    assert_close(est.coef_, coef)
    assert_close(est.intercept_, intercept)
    assert_same_fit(est, sk.LinearRegression(fit_intercept=fit_intercept).fit(X, y))
    # first-order optimality (normal equations): gradient of the loss is ~0
    grad_w, grad_b = ridge_gradient(X, y, est.coef_, est.intercept_, 0.0)
    scale = gradient_scale(X, y)
    assert np.abs(grad_w).max() <= 1e-10 * scale
    if fit_intercept:
        assert abs(grad_b) <= 1e-10 * scale
    # the normal-equation solver agrees exactly when X (centred) has full column rank, else raises
    Xc = X - X.mean(axis=0) if fit_intercept else X
    if np.linalg.matrix_rank(Xc) == d:
        assert_same_fit(LinearRegression(solver="normal", fit_intercept=fit_intercept).fit(X, y), est)
    else:
        with pytest.raises(ValueError, match="rank"):
            LinearRegression(solver="normal", fit_intercept=fit_intercept).fit(X, y)


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("shape", SHAPES, ids=[f"{n}x{d}" for n, d in SHAPES])
@pytest.mark.parametrize("solver", RIDGE_SOLVERS)
@pytest.mark.parametrize("weighted", [False, True])
def test_property_ridge_gradient_zero_and_sklearn(weighted, solver, shape, seed):
    n, d = shape
    X, y = make_regression(seed, n, d)
    t = make_weights(seed, n) if weighted else None
    alpha = 0.5 + seed
    est = Ridge(alpha=alpha, solver=solver).fit(X, y, sample_weight=t)
    ref = sk.Ridge(alpha=alpha, solver=SK_RIDGE_SOLVER[solver]).fit(X, y, sample_weight=t)
    assert_same_fit(est, ref)
    grad_w, grad_b = ridge_gradient(X, y, est.coef_, est.intercept_, alpha, t)
    scale = gradient_scale(X, y, t)
    assert np.abs(grad_w).max() <= 1e-10 * scale
    assert abs(grad_b) <= 1e-10 * scale
    # the gradient check has teeth: a perturbed solution is not stationary
    grad_w_bad, _ = ridge_gradient(X, y, est.coef_ + 1e-3, est.intercept_, alpha, t)
    assert np.abs(grad_w_bad).max() > 1e-10 * scale


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("shape", SHAPES, ids=[f"{n}x{d}" for n, d in SHAPES])
@pytest.mark.parametrize(
    "make_est",
    [lambda: LinearRegression(), lambda: Ridge(alpha=2.0), lambda: Ridge(alpha=2.0, solver="svd")],
    ids=["lr", "ridge", "ridge-svd"],
)
def test_property_shift_y_shifts_intercept(make_est, shape, seed):
    n, d = shape
    X, y = make_regression(seed, n, d)
    c = np.random.default_rng(seed).uniform(-100, 100)
    base = make_est().fit(X, y)
    shifted = make_est().fit(X, y + c)
    assert_close(shifted.coef_, base.coef_)
    assert_close(shifted.intercept_, base.intercept_ + c)


@pytest.mark.parametrize("seed", SEEDS)
def test_ridge_is_the_minimiser_of_its_objective(seed):
    X, y = make_regression(seed, 40, 5)
    alpha = 3.0
    est = Ridge(alpha=alpha).fit(X, y)

    def objective(w, b):
        return least_squares_loss(X, y, w, b) + alpha * w @ w

    best = objective(est.coef_, est.intercept_)
    rng = np.random.default_rng(seed)
    for _ in range(20):
        dw, db = 1e-4 * rng.standard_normal(5), 1e-4 * rng.standard_normal()
        assert objective(est.coef_ + dw, est.intercept_ + db) > best


# --------------------------------------------------------------------------- step functions


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("n_targets", [None, 3])
def test_normal_equations_match_numpy_solve(n_targets, weighted, seed):
    X, y = make_regression(seed, 50, 6, n_targets=n_targets)
    t = make_weights(seed, 50, n_zero=4) if weighted else None
    T = np.diag(np.ones(50) if t is None else t)
    expected = np.linalg.solve(X.T @ T @ X, X.T @ T @ y)
    w = normal_equations(X, y, sample_weight=t)
    assert w.shape == expected.shape
    assert_close(w, expected)


def test_normal_equations_raise_on_singular_gram():
    rng = np.random.default_rng(0)
    X = rng.standard_normal((20, 4))
    X[:, 2] = X[:, 0]
    with pytest.raises(ValueError, match="rank"):
        normal_equations(X, rng.standard_normal(20))
    with pytest.raises(ValueError, match="rank"):
        normal_equations(rng.standard_normal((3, 5)), rng.standard_normal(3))  # n < d
    # weights that zero out all but d-1 rows make X^T T X singular too
    X = rng.standard_normal((10, 3))
    t = np.zeros(10)
    t[:2] = 1.0
    with pytest.raises(ValueError, match="rank"):
        normal_equations(X, rng.standard_normal(10), sample_weight=t)


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("offset", [0.0, 1e6, 1.7e9])
def test_least_squares_1d_matches_polyfit(offset, seed):
    rng = np.random.default_rng(seed)
    x = offset + rng.uniform(0, 60, 50)
    y = 3.0 * (x - offset) - 2.0 + rng.standard_normal(50)
    w, b = least_squares_1d(x, y)
    assert isinstance(w, float) and isinstance(b, float)
    slope, intercept = np.polyfit(x, y, 1)
    # polyfit itself is accurate to ~cond * eps here; slopes O(1), intercepts O(offset)
    assert w == pytest.approx(slope, rel=1e-8, abs=1e-8)
    assert b == pytest.approx(intercept, rel=1e-8, abs=1e-8 * max(1.0, offset))
    # and it is the 1-feature LinearRegression
    est = sk.LinearRegression().fit(x[:, None], y)
    assert w == pytest.approx(est.coef_[0], rel=1e-8, abs=1e-8)


@pytest.mark.parametrize("x", [[2.5] * 5, [0.1, 0.1, 0.1], [7.0], [1.7e9] * 4, [0.0, 0.0]])
def test_least_squares_1d_raises_when_all_x_equal(x):
    y = np.arange(len(x), dtype=float)
    with pytest.raises(ValueError, match="all x are equal"):
        least_squares_1d(x, y)


def test_least_squares_1d_two_points_is_the_line_through_them():
    w, b = least_squares_1d([1.0, 3.0], [2.0, 8.0])
    assert w == pytest.approx(3.0, abs=1e-12)
    assert b == pytest.approx(-1.0, abs=1e-12)


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("weighted", [False, True])
def test_least_squares_loss_is_the_direct_sum(weighted, seed):
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((25, 4))
    y = rng.standard_normal(25)
    w = rng.standard_normal(4)
    b = rng.standard_normal()
    t = rng.uniform(0, 2, 25) if weighted else np.ones(25)
    direct = sum(t[i] * (y[i] - sum(X[i, j] * w[j] for j in range(4)) - b) ** 2 for i in range(25))
    loss = least_squares_loss(X, y, w, b, sample_weight=t if weighted else None)
    assert isinstance(loss, float)
    assert loss == pytest.approx(direct, rel=1e-12)
    # default b = 0
    direct0 = sum(t[i] * (y[i] - X[i] @ w) ** 2 for i in range(25))
    assert least_squares_loss(X, y, w, sample_weight=t if weighted else None) == pytest.approx(direct0, rel=1e-12)


@pytest.mark.parametrize("seed", SEEDS)
def test_fitted_loss_beats_sklearn_or_ties(seed):
    X, y = make_regression(seed, 60, 5)
    est = LinearRegression().fit(X, y)
    ref = sk.LinearRegression().fit(X, y)
    ours = least_squares_loss(X, y, est.coef_, est.intercept_)
    theirs = least_squares_loss(X, y, ref.coef_, ref.intercept_)
    assert ours == pytest.approx(theirs, rel=1e-12)
    # any other weights are worse
    assert least_squares_loss(X, y, est.coef_ * 1.01, est.intercept_) > ours


@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("n_targets", [None, 2])
def test_center(n_targets, weighted):
    X, y = make_regression(9, 30, 3, n_targets=n_targets)
    t = make_weights(9, 30, n_zero=3) if weighted else None
    Xc, yc, x_bar, y_bar = center(X, y, t)
    tt = np.ones(30) if t is None else t
    assert_close(x_bar, (tt @ X) / tt.sum())
    assert_close(y_bar, np.tensordot(tt, y, axes=1) / tt.sum())
    assert_close(Xc, X - x_bar)
    assert_close(yc, y - y_bar)
    assert_close(tt @ Xc, np.zeros(3))
    assert Xc.shape == X.shape and yc.shape == y.shape


@pytest.mark.parametrize("seed", SEEDS)
def test_ridge_svd_and_closed_form_match_explicit_inverse(seed):
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((30, 5))
    y = rng.standard_normal(30)
    expected = np.linalg.solve(X.T @ X + 2.0 * np.eye(5), X.T @ y)
    assert_close(ridge_closed_form(X, y, 2.0), expected)
    assert_close(ridge_svd(X, y, 2.0), expected)
    # alpha = 0 in ridge_svd is the pseudo-inverse solution
    assert_close(ridge_svd(X, y, 0.0), np.linalg.pinv(X) @ y)


@pytest.mark.parametrize("order", ["C", "F"])  # LAPACK works in place on Fortran-ordered arrays
def test_fit_does_not_modify_inputs(order):
    X, y = make_regression(1, 40, 4)
    X = np.asarray(X, order=order)
    t = make_weights(1, 40, n_zero=2)
    X0, y0, t0 = X.copy(), y.copy(), t.copy()
    for est in [LinearRegression(), LinearRegression(solver="normal"), LinearRegression(fit_intercept=False),
                LinearRegression(solver="normal", fit_intercept=False), Ridge(), Ridge(solver="svd"),
                Ridge(fit_intercept=False), Ridge(solver="svd", fit_intercept=False)]:
        est.fit(X, y)
        est.fit(X, y, sample_weight=t)
        np.testing.assert_array_equal(X, X0)
        np.testing.assert_array_equal(y, y0)
        np.testing.assert_array_equal(t, t0)


@pytest.mark.parametrize("name", ["LinearRegression", "Ridge", "Lasso", "ElasticNet", "MulticlassSVM"])
def test_values_whose_squares_overflow_are_refused_with_a_clear_message(name):
    # issue 11: at values near 1e307 these failed with numpy's or scipy's message or returned NaN
    import mlnotes.linear as L
    from sklearn.datasets import load_iris
    from sklearn.preprocessing import StandardScaler

    X, y = load_iris(return_X_y=True)
    X = StandardScaler().fit_transform(X)
    target = y if name == "MulticlassSVM" else X[:, 0] + 0.5 * X[:, 1]
    with pytest.raises(ValueError, match="X has values up to .*: with 150 samples their sums of squares overflow"):
        getattr(L, name)().fit(X * 1e307, target)
    # tiny values are no problem of scale: the fit is finite and predicts finitely
    model = getattr(L, name)().fit(X * 1e-307, target)
    assert np.isfinite(model.predict(X * 1e-307).astype(float)).all()


@pytest.mark.parametrize("name", ["LogisticRegression", "ProbitRegression", "PoissonRegression", "Perceptron"])
def test_glms_and_perceptron_refuse_overflowing_values_with_a_clear_message(name):
    # issue 11: at values near 1e307 the GLMs failed with an internal message about the solver's scale
    # ("scale must hold ... finite numbers") and the perceptron overflowed to a wrong model
    import mlnotes.linear as L
    from sklearn.datasets import load_iris
    from sklearn.preprocessing import StandardScaler

    X, y = load_iris(return_X_y=True)
    X = StandardScaler().fit_transform(X)
    y = (y == 2).astype(int) if name in ("ProbitRegression", "Perceptron") else y   # binary models
    with pytest.raises(ValueError, match="X has values up to .*: with 150 samples their sums of squares overflow"):
        getattr(L, name)().fit(X * 1e307, y)


def test_check_square_sums_bound():
    from mlnotes.utils import check_square_sums

    limit = np.sqrt(np.finfo(float).max / 100) / 4
    check_square_sums(np.full((100, 2), limit))                      # at the limit: accepted ...
    assert np.isfinite(np.sum(np.full(100, limit) ** 2))              # ... and the sum of squares is finite
    with pytest.raises(ValueError, match="sums of squares overflow"):
        check_square_sums(np.full((100, 2), 1.01 * limit))
