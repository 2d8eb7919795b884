"""Input validation: every bad input gives a ValueError/TypeError whose message names the problem.

Covers the estimators (``LinearRegression``, ``Ridge``: scikit-learn's ``validate_data`` plus the
library's own checks), the array-taking step functions of :mod:`mlnotes.linear` and the helpers
of :mod:`mlnotes.utils.validation`.
"""

from numbers import Integral

import numpy as np
import pytest
from sklearn.exceptions import NotFittedError

from mlnotes.linear import (
    LinearRegression,
    Ridge,
    least_squares_1d,
    least_squares_loss,
    normal_equations,
    ridge_closed_form,
    ridge_svd,
)
from mlnotes.utils.validation import (as_float_matrix, as_float_vector, check_bool, check_option, check_sample_weight,
                                      check_scalar)

ESTIMATORS = [
    LinearRegression,
    lambda: LinearRegression(solver="normal"),
    Ridge,
    lambda: Ridge(solver="svd"),
    lambda: Ridge(solver="cholesky"),
]
EST_IDS = ["lr", "lr-normal", "ridge", "ridge-svd", "ridge-cholesky"]
estimators = pytest.mark.parametrize("make_est", ESTIMATORS, ids=EST_IDS)


def data(n=12, d=3, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((n, d))
    return X, X @ rng.standard_normal(d) + rng.standard_normal(n)


# --------------------------------------------------------------------------- estimators: X / y


@estimators
def test_mismatched_lengths(make_est):
    X, y = data()
    with pytest.raises(ValueError, match="inconsistent numbers of samples"):
        make_est().fit(X, y[:-1])
    with pytest.raises(ValueError, match="inconsistent numbers of samples"):
        make_est().fit(X, np.column_stack([y, y])[:-2])


@estimators
@pytest.mark.parametrize("where", ["X", "y"])
@pytest.mark.parametrize("bad, message", [(np.nan, "contains NaN"), (np.inf, "contains infinity"), (-np.inf, "contains infinity")])
def test_non_finite_input(make_est, where, bad, message):
    X, y = data()
    if where == "X":
        X[3, 1] = bad
    else:
        y[5] = bad
    with pytest.raises(ValueError, match=f"Input {where} {message}"):
        make_est().fit(X, y)


@estimators
def test_non_finite_multi_output_y(make_est):
    X, y = data()
    Y = np.column_stack([y, y])
    Y[2, 1] = np.nan
    with pytest.raises(ValueError, match="Input y contains NaN"):
        make_est().fit(X, Y)


@estimators
def test_non_finite_at_predict(make_est):
    X, y = data()
    est = make_est().fit(X, y)
    X[0, 0] = np.nan
    with pytest.raises(ValueError, match="Input X contains NaN"):
        est.predict(X)


@estimators
def test_empty_X(make_est):
    with pytest.raises(ValueError, match=r"0 sample\(s\)"):
        make_est().fit(np.empty((0, 3)), np.empty(0))
    with pytest.raises(ValueError, match=r"0 feature\(s\)"):
        make_est().fit(np.empty((5, 0)), np.ones(5))


@estimators
def test_1d_X_at_fit(make_est):
    X, y = data()
    with pytest.raises(ValueError, match="Expected 2D array, got 1D array"):
        make_est().fit(X[:, 0], y)


@estimators
def test_y_none_or_non_numeric(make_est):
    X, y = data()
    with pytest.raises(ValueError, match="requires y to be passed"):
        make_est().fit(X, None)
    with pytest.raises(ValueError, match="could not convert string to float"):
        make_est().fit(X, np.array(["a"] * len(y)))


@estimators
def test_wrong_n_features_at_predict(make_est):
    X, y = data(d=4)
    est = make_est().fit(X, y)
    name = type(est).__name__
    with pytest.raises(ValueError, match=f"X has 3 features, but {name} is expecting 4 features"):
        est.predict(X[:, :3])
    with pytest.raises(ValueError, match="Expected 2D array, got 1D array"):
        est.predict(X[0])


@estimators
def test_predict_before_fit(make_est):
    X, _ = data()
    with pytest.raises(NotFittedError, match="not fitted yet"):
        make_est().predict(X)


# --------------------------------------------------------------------------- estimators: sample_weight


@estimators
@pytest.mark.parametrize(
    "make_weights, error, message",
    [
        (lambda n: -np.ones(n), ValueError, "non-negative"),
        (lambda n: np.r_[np.ones(n - 1), -1e-3], ValueError, "non-negative"),
        (lambda n: np.zeros(n), ValueError, "all are zero"),
        (lambda n: 0.0, ValueError, "all are zero"),
        (lambda n: np.ones(n - 1), ValueError, "sample_weight has 11 entries but X has 12 samples"),
        (lambda n: np.ones(n + 1), ValueError, "sample_weight has 13 entries but X has 12 samples"),
        (lambda n: np.ones((n, 1)), ValueError, "sample_weight must be 1-D"),
        (lambda n: np.r_[np.ones(n - 1), np.nan], ValueError, "sample_weight contains NaN"),
        (lambda n: np.r_[np.ones(n - 1), np.inf], ValueError, "sample_weight contains infinity"),
        (lambda n: ["a"] * n, TypeError, "sample_weight must be numeric"),
    ],
    ids=["negative", "one-negative", "all-zero", "scalar-zero", "short", "long", "2d", "nan", "inf", "strings"],
)
def test_bad_sample_weight(make_est, make_weights, error, message):
    X, y = data(n=12)
    with pytest.raises(error, match=message):
        make_est().fit(X, y, sample_weight=make_weights(12))


@estimators
def test_scalar_sample_weight_is_uniform(make_est):
    X, y = data()
    a = make_est().fit(X, y, sample_weight=3.0)
    b = make_est().fit(X, y)
    # a constant weight rescales the loss; only Ridge (alpha fixed) changes, by alpha -> alpha / 3
    if isinstance(a, LinearRegression):
        np.testing.assert_allclose(a.coef_, b.coef_, rtol=0, atol=1e-10)
    else:
        c = Ridge(alpha=a.alpha / 3.0, solver=a.solver).fit(X, y)
        np.testing.assert_allclose(a.coef_, c.coef_, rtol=0, atol=1e-10)


# --------------------------------------------------------------------------- estimators: parameters


@pytest.mark.parametrize(
    "alpha, error, message",
    [
        (-1.0, ValueError, "alpha must be >= 0"),
        (-1e-12, ValueError, "alpha must be >= 0"),
        (np.nan, ValueError, "alpha must be finite"),
        (np.inf, ValueError, "alpha must be finite"),
        ("large", TypeError, "alpha must be a non-negative number"),
        (True, TypeError, "alpha must be a non-negative number"),
        ([[1.0]], TypeError, "alpha must be a non-negative number or a 1-D array"),
    ],
)
def test_bad_alpha(alpha, error, message):
    X, y = data()
    with pytest.raises(error, match=message):
        Ridge(alpha=alpha).fit(X, y)


def test_bad_per_target_alpha():
    X, y = data()
    Y = np.column_stack([y, 2 * y])
    with pytest.raises(ValueError, match="non-negative"):
        Ridge(alpha=[1.0, -1.0]).fit(X, Y)
    with pytest.raises(ValueError, match="finite"):
        Ridge(alpha=[1.0, np.nan]).fit(X, Y)
    with pytest.raises(ValueError, match="alpha has 3 entries but there are 2 targets"):
        Ridge(alpha=[1.0, 2.0, 3.0]).fit(X, Y)
    with pytest.raises(ValueError, match="alpha has 2 entries but there are 1 targets"):
        Ridge(alpha=[1.0, 2.0]).fit(X, y)


@pytest.mark.parametrize(
    "make_est, message",
    [
        (lambda: Ridge(solver="lsqr"), "solver must be one of \\('auto', 'cholesky', 'svd'\\), got 'lsqr'"),
        (lambda: Ridge(solver=None), "solver must be one of \\('auto', 'cholesky', 'svd'\\), got None"),
        (lambda: LinearRegression(solver="svd"), "solver must be one of \\('lstsq', 'normal'\\), got 'svd'"),
        (lambda: LinearRegression(solver="LSTSQ"), "solver must be one of \\('lstsq', 'normal'\\)"),
        (lambda: LinearRegression(tol=-1.0), "tol must be >= 0"),
        (lambda: LinearRegression(tol="small"), "tol must be a real number"),
        (lambda: LinearRegression(tol=np.inf), "tol must be finite"),            # issue 11: was accepted
    ],
)
def test_bad_solver_or_tol(make_est, message):
    X, y = data()
    with pytest.raises((ValueError, TypeError), match=message):
        make_est().fit(X, y)


def test_parameters_are_checked_before_data():
    # a bad parameter is reported even when the data are fine, and it is not silently fixed
    est = Ridge(alpha=-1.0)
    with pytest.raises(ValueError, match="alpha"):
        est.fit(*data())
    assert est.alpha == -1.0
    assert not hasattr(est, "coef_")


# --------------------------------------------------------------------------- step functions


@pytest.mark.parametrize("function", ["least_squares_loss", "regression_risk", "lasso_objective"])
def test_linear_problem_checks_are_the_same_everywhere(function):
    # the three functions of (X, y, w) validate through check_linear_problem: the same messages
    from mlnotes.linear import lasso_objective
    from mlnotes.losses import regression_risk
    from mlnotes.utils.validation import check_linear_problem

    call = {"least_squares_loss": least_squares_loss, "regression_risk": regression_risk,
            "lasso_objective": lambda X, y, w: lasso_objective(w, X, y, 0.1)}[function]
    X, y = data()
    w = np.zeros(3)
    for args, message in [((X, y, w[:2]), "w has 2 entries but X has 3 features"),
                          ((X, y[:-1], w), "y has 11 entries but X has 12 samples"),
                          ((X[:, 0], y, w), "X must be 2-D"),
                          ((X, y, np.r_[w[:2], np.nan]), "w contains NaN")]:
        with pytest.raises(ValueError, match=message):
            check_linear_problem(*args)
        with pytest.raises(ValueError, match=message):
            call(*args)
    X_checked, y_checked, w_checked = check_linear_problem(X.tolist(), list(y), [0, 0, 0])
    assert X_checked.dtype == y_checked.dtype == w_checked.dtype == np.float64
    np.testing.assert_array_equal(X_checked, X)
    assert np.isfinite(call(X, y, w))


def test_step_functions_validate_arrays():
    X, y = data()
    w = np.zeros(3)
    with pytest.raises(ValueError, match="w has 2 entries but X has 3 features"):
        least_squares_loss(X, y, w[:2])
    with pytest.raises(ValueError, match="y has 11 entries but X has 12 samples"):
        least_squares_loss(X, y[:-1], w)
    with pytest.raises(ValueError, match="X must be 2-D"):
        least_squares_loss(X[:, 0], y, w)
    with pytest.raises(ValueError, match="y has 11 rows but X has 12 samples"):
        normal_equations(X, np.column_stack([y, y])[:-1])
    with pytest.raises(ValueError, match="y contains NaN"):
        normal_equations(X, np.r_[y[:-1], np.nan])
    with pytest.raises(ValueError, match="X contains infinity"):
        ridge_svd(np.where(X > 1, np.inf, X), y, 1.0)
    with pytest.raises(ValueError, match="alpha must be >= 0"):
        ridge_svd(X, y, -0.5)
    with pytest.raises(ValueError, match="alpha > 0"):
        ridge_closed_form(X, y, 0.0)
    with pytest.raises(ValueError, match="alpha has 3 entries but there are 1 targets"):
        ridge_closed_form(X, y, [1.0, 1.0, 1.0])
    with pytest.raises(ValueError, match="y has 2 entries but X has 3 samples"):
        least_squares_1d([1.0, 2.0, 3.0], [1.0, 2.0])
    with pytest.raises(ValueError, match="x must be 1-D"):
        least_squares_1d([[1.0, 2.0]], [1.0])
    with pytest.raises(ValueError, match="x is empty"):
        least_squares_1d([], [])


# --------------------------------------------------------------------------- helpers


def test_as_float_matrix():
    out = as_float_matrix([[1, 2], [3, 4]])
    assert out.dtype == np.float64 and out.shape == (2, 2)
    np.testing.assert_array_equal(out, [[1.0, 2.0], [3.0, 4.0]])
    with pytest.raises(TypeError, match="X must be an array, got None"):
        as_float_matrix(None)
    with pytest.raises(TypeError, match="X must be numeric"):
        as_float_matrix([["a", "b"]])
    with pytest.raises(ValueError, match=r"X must be 2-D with shape \(n_samples, n_features\), got shape \(3,\)"):
        as_float_matrix([1.0, 2.0, 3.0])
    with pytest.raises(ValueError, match=r"Z must be 2-D .* got shape \(1, 1, 1\)"):
        as_float_matrix([[[1.0]]], "Z")
    with pytest.raises(ValueError, match="X is empty"):
        as_float_matrix(np.empty((0, 2)))
    with pytest.raises(ValueError, match="X contains NaN"):
        as_float_matrix([[1.0, np.nan]])
    with pytest.raises(ValueError, match="X contains infinity"):
        as_float_matrix([[1.0, -np.inf]])


def test_as_float_vector():
    out = as_float_vector((1, 2, 3), "v", 3)
    assert out.dtype == np.float64
    np.testing.assert_array_equal(out, [1.0, 2.0, 3.0])
    with pytest.raises(ValueError, match="v has 3 entries but X has 4 samples"):
        as_float_vector([1, 2, 3], "v", 4)
    with pytest.raises(ValueError, match=r"y must be 1-D with shape \(n_samples,\), got shape \(3, 1\)"):
        as_float_vector(np.ones((3, 1)))
    with pytest.raises(ValueError, match="y is empty"):
        as_float_vector([])
    with pytest.raises(TypeError, match="y must be an array, got None"):
        as_float_vector(None)
    with pytest.raises(ValueError, match="y contains NaN"):
        as_float_vector([0.0, np.nan])


def test_check_sample_weight():
    np.testing.assert_array_equal(check_sample_weight(None, 4), np.ones(4))
    np.testing.assert_array_equal(check_sample_weight(2.5, 3), np.full(3, 2.5))
    np.testing.assert_array_equal(check_sample_weight([0, 1, 2], 3), [0.0, 1.0, 2.0])
    with pytest.raises(ValueError, match="non-negative"):
        check_sample_weight([1.0, -1.0], 2)
    with pytest.raises(ValueError, match="non-negative"):
        check_sample_weight(-1.0, 2)
    with pytest.raises(ValueError, match="all are zero"):
        check_sample_weight([0.0, 0.0], 2)
    with pytest.raises(ValueError, match="sample_weight has 2 entries but X has 3 samples"):
        check_sample_weight([1.0, 1.0], 3)
    with pytest.raises(ValueError, match="sample_weight contains NaN"):
        check_sample_weight([1.0, np.nan], 2)


def test_check_scalar():
    assert check_scalar(3, "k") == 3.0 and isinstance(check_scalar(3, "k"), float)
    assert check_scalar(np.float64(0.5), "p", low=0, high=1) == 0.5
    assert check_scalar(0.0, "a", low=0.0) == 0.0
    with pytest.raises(ValueError, match="a must be > 0.0, got 0.0"):
        check_scalar(0.0, "a", low=0.0, include_low=False)
    with pytest.raises(ValueError, match="a must be >= 1, got 0.5"):
        check_scalar(0.5, "a", low=1)
    with pytest.raises(ValueError, match="p must be <= 1, got 2.0"):
        check_scalar(2.0, "p", high=1)
    with pytest.raises(ValueError, match="a must be finite, got nan"):
        check_scalar(float("nan"), "a")
    with pytest.raises(ValueError, match="a must be finite, got inf"):
        check_scalar(float("inf"), "a")
    with pytest.raises(TypeError, match="a must be a real number, got bool"):
        check_scalar(True, "a")
    with pytest.raises(TypeError, match="a must be a real number, got str"):
        check_scalar("1", "a")
    with pytest.raises(TypeError, match="a must be a real number, got NoneType"):
        check_scalar(None, "a")
    with pytest.raises(TypeError, match="a must be a real number, got complex"):
        check_scalar(1j, "a")


def test_check_scalar_integers():
    assert check_scalar(5, "max_iter", Integral, min_val=1) == 5
    assert isinstance(check_scalar(np.int64(5), "max_iter", Integral, min_val=1), int)
    with pytest.raises(TypeError, match="max_iter must be an integer >= 1, got float 5.0"):
        check_scalar(5.0, "max_iter", Integral, min_val=1)
    with pytest.raises(TypeError, match="max_iter must be an integer >= 1, got bool"):
        check_scalar(True, "max_iter", Integral, min_val=1)
    with pytest.raises(ValueError, match="max_iter must be an integer >= 1, got 0"):
        check_scalar(0, "max_iter", Integral, min_val=1)


@pytest.mark.parametrize("boundaries, value, ok", [
    ("both", 0.0, True), ("both", 1.0, True), ("left", 1.0, False), ("left", 0.0, True),
    ("right", 0.0, False), ("right", 1.0, True), ("neither", 0.0, False), ("neither", 1.0, False),
    ("neither", 0.5, True)])
def test_check_scalar_boundaries(boundaries, value, ok):
    if ok:
        assert check_scalar(value, "p", min_val=0, max_val=1, include_boundaries=boundaries) == value
    else:
        with pytest.raises(ValueError, match=r"p must be (>=? 0|<=? 1), got"):
            check_scalar(value, "p", min_val=0, max_val=1, include_boundaries=boundaries)


def test_check_scalar_open_upper_bound_and_inf():
    with pytest.raises(ValueError, match="momentum must be < 1, got 1.0"):
        check_scalar(1.0, "momentum", max_val=1, include_boundaries="left")
    assert check_scalar(np.inf, "C", min_val=0, include_boundaries="neither", allow_inf=True) == np.inf
    with pytest.raises(ValueError, match="C must be finite"):
        check_scalar(np.nan, "C", min_val=0, allow_inf=True)
    with pytest.raises(ValueError, match="include_boundaries must be one of"):
        check_scalar(1.0, "p", include_boundaries="open")
    with pytest.raises(TypeError, match="not both"):
        check_scalar(1.0, "p", low=0, min_val=0)


def test_check_option_and_bool():
    assert check_option("newton", "solver", ("lbfgs", "newton")) == "newton"
    with pytest.raises(ValueError, match=r"solver must be one of \('lbfgs', 'newton'\), got 'NEWTON'"):
        check_option("NEWTON", "solver", ("lbfgs", "newton"))
    with pytest.raises(ValueError, match="got 1"):
        check_option(1, "fit_intercept", (True, False))       # 1 == True, but it is not a bool
    assert check_option(None, "method", (None, "armijo")) is None
    with pytest.raises(ValueError, match="got array"):
        check_option(np.array([1, 2]), "method", ("a", "b"))
    assert check_bool(np.bool_(True), "fit_intercept") is True
    with pytest.raises(TypeError, match="fit_intercept must be True or False, got 1"):
        check_bool(1, "fit_intercept")


@pytest.mark.parametrize("X, y, weights, message", [
    ([[1.0, np.nan], [2.0, 3.0]], [1.0, 2.0], None, "X contains NaN"),
    ([[1.0, np.inf], [2.0, 3.0]], [1.0, 2.0], None, "X contains infinity"),
    (np.zeros((0, 2)), np.zeros(0), None, "X is empty"),
    ([[1.0, 2.0], [2.0, 3.0]], [1.0, 2.0, 3.0], None, "y has 3 entries but X has 2 samples"),
    ([[1.0, 2.0], [2.0, 3.0]], [1.0, np.nan], None, "y contains NaN"),
    ([[1.0, 2.0], [2.0, 3.0]], [1.0, 2.0], [1.0, -1.0], "sample_weight must be non-negative"),
])
def test_center_validates_its_input(X, y, weights, message):
    # issue 11: the public helper used to let NaN, inf, empty input and length mismatches through
    from mlnotes.linear import center

    with pytest.raises(ValueError, match=message):
        center(X, y, weights)


def test_sparse_input_to_the_array_helpers_is_named():
    # issue 11: np.asarray(sparse, dtype=float) fails with numpy's message about object arrays (or, for the
    # helpers that go through np.array, silently builds a 0-d object); the library's functions say "sparse"
    import scipy.sparse

    from mlnotes.linear import logistic_objective, ridge_closed_form
    from mlnotes.utils.validation import as_finite_array, as_float_matrix, as_float_vector

    X = scipy.sparse.random(6, 3, density=0.5, format="csr", random_state=0)
    for call in (lambda: as_float_matrix(X), lambda: as_float_vector(X, "y"), lambda: as_finite_array(X, "a"),
                 lambda: ridge_closed_form(X, np.ones(6), 1.0),
                 lambda: logistic_objective(np.zeros(4), X, np.ones(6), np.ones(6), 1.0, True)):
        with pytest.raises(TypeError, match=r"scipy\.sparse csr_matrix, but dense data is required.*toarray"):
            call()


def test_check_same_features_names_both_counts():
    from mlnotes.utils.validation import check_same_features

    check_same_features(np.zeros((3, 2)), np.zeros((5, 2)))
    with pytest.raises(ValueError, match="same number of features, got X with 2 and Y with 3"):
        check_same_features(np.zeros((3, 2)), np.zeros((3, 3)))


def test_classifier_mixins_derive_predict_and_log_proba_from_predict_proba():
    from mlnotes.utils._classifier import ArgmaxPredictMixin, ProbaClassifierMixin

    class Fixed(ProbaClassifierMixin):
        classes_ = np.array(["a", "b", "c"])

        def predict_proba(self, X):
            return np.array([[0.2, 0.5, 0.3], [0.4, 0.4, 0.2], [0.0, 0.0, 1.0]])

    model = Fixed()
    assert list(model.predict(None)) == ["b", "a", "c"]            # ties: the first class
    log_p = model.predict_log_proba(None)
    assert np.isneginf(log_p[2, 0]) and np.array_equal(log_p[0], np.log([0.2, 0.5, 0.3]))
    assert not hasattr(ArgmaxPredictMixin, "predict_log_proba")
