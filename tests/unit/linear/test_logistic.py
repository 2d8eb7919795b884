"""LogisticRegression: agreement with scikit-learn at the same C (binary and multinomial, weights, no
intercept), the derived gradient and Hessian against finite differences, and clear errors."""

import numpy as np
import pytest
import sklearn.linear_model as sk
from scipy.optimize import approx_fprime
from sklearn.datasets import load_breast_cancer, load_iris, load_wine
from sklearn.exceptions import ConvergenceWarning
from sklearn.preprocessing import StandardScaler

from mlnotes.linear import LogisticRegression, logistic_hessian, logistic_objective


def standardised(loader):
    X, y = loader(return_X_y=True)
    return StandardScaler().fit_transform(X), y


DATA = {"breast cancer (binary)": standardised(load_breast_cancer), "iris (3 classes)": standardised(load_iris),
        "wine (3 classes)": standardised(load_wine)}
TIGHT = dict(tol=1e-10, max_iter=1000)


@pytest.mark.parametrize("C", [0.01, 1.0, 10.0])
@pytest.mark.parametrize("fit_intercept", [True, False])
@pytest.mark.parametrize("data", DATA)
def test_newton_agrees_with_sklearn_newton_cholesky(data, fit_intercept, C):
    X, y = DATA[data]
    ours = LogisticRegression(C, solver="newton", fit_intercept=fit_intercept, **TIGHT).fit(X, y)
    ref = sk.LogisticRegression(C=C, solver="newton-cholesky", fit_intercept=fit_intercept, **TIGHT).fit(X, y)
    # both stop with a gradient below 1e-10; with the Hessian's condition number (up to ~1e3 at C=10)
    # that bounds the coefficient difference by ~1e-7
    np.testing.assert_allclose(ours.coef_, ref.coef_, atol=1e-7)
    np.testing.assert_allclose(ours.intercept_, ref.intercept_, atol=1e-7)
    np.testing.assert_allclose(ours.predict_proba(X), ref.predict_proba(X), atol=1e-8)
    np.testing.assert_array_equal(ours.predict(X), ref.predict(X))


@pytest.mark.parametrize("C", [0.1, 1.0])
@pytest.mark.parametrize("data", DATA)
def test_lbfgs_agrees_with_sklearn_lbfgs(data, C):
    X, y = DATA[data]
    ours = LogisticRegression(C, **TIGHT).fit(X, y)
    ref = sk.LogisticRegression(C=C, **TIGHT).fit(X, y)
    np.testing.assert_allclose(ours.coef_, ref.coef_, atol=1e-5)
    np.testing.assert_allclose(ours.intercept_, ref.intercept_, atol=1e-5)
    assert ours.coef_.shape == ref.coef_.shape and ours.intercept_.shape == ref.intercept_.shape


def test_sample_weights_and_string_labels():
    X, y = DATA["iris (3 classes)"]
    labels = np.array(["setosa", "versicolor", "virginica"])[y]
    t = np.random.default_rng(0).integers(0, 3, size=len(y)).astype(float)
    ours = LogisticRegression(0.5, solver="newton", **TIGHT).fit(X, labels, sample_weight=t)
    ref = sk.LogisticRegression(C=0.5, solver="newton-cholesky", **TIGHT).fit(X, labels, sample_weight=t)
    np.testing.assert_allclose(ours.coef_, ref.coef_, atol=1e-8)
    np.testing.assert_array_equal(ours.classes_, ref.classes_)
    np.testing.assert_array_equal(ours.predict(X), ref.predict(X))
    repeated = LogisticRegression(0.5, solver="newton", **TIGHT).fit(np.repeat(X, t.astype(int), axis=0),
                                                                     np.repeat(labels, t.astype(int)))
    # repeating row i t_i times is the same data as weight t_i (and the same S = sum of weights)
    np.testing.assert_allclose(repeated.coef_, ours.coef_, atol=1e-8)


def test_binary_probabilities_and_log_probabilities_are_consistent():
    X, y = DATA["breast cancer (binary)"]
    model = LogisticRegression(**TIGHT).fit(X, y)
    P = model.predict_proba(X)
    np.testing.assert_allclose(P.sum(axis=1), 1.0)
    np.testing.assert_allclose(np.log(P), model.predict_log_proba(X), atol=1e-12)
    np.testing.assert_array_equal(model.predict(X), model.classes_[(model.decision_function(X) > 0).astype(int)])
    far = model.predict_log_proba(1e6 * X[:3])        # huge scores: finite log-probabilities (no log(0))
    assert np.isfinite(far).all()


@pytest.mark.parametrize("data", DATA)
@pytest.mark.parametrize("fit_intercept", [True, False])
def test_gradient_and_hessian_match_finite_differences(data, fit_intercept):
    X, y = DATA[data]
    X = X[:60]
    y = y[:60]
    K = len(np.unique(y))
    Y = (y == np.unique(y)[1]).astype(float)[:, None] if K == 2 else np.eye(K)[np.searchsorted(np.unique(y), y)]
    s = np.random.default_rng(1).random(len(y))
    theta = np.random.default_rng(2).normal(scale=0.3, size=Y.shape[1] * (X.shape[1] + fit_intercept))
    f = lambda t: logistic_objective(t, X, Y, s, 2.0, fit_intercept)[0]
    _, g = logistic_objective(theta, X, Y, s, 2.0, fit_intercept)
    np.testing.assert_allclose(g, approx_fprime(theta, f, 1e-7), atol=1e-6)
    H = logistic_hessian(theta, X, Y, s, 2.0, fit_intercept)
    H_numeric = np.array([approx_fprime(theta, lambda t, i=i: logistic_objective(t, X, Y, s, 2.0, fit_intercept)[1][i],
                                        1e-7) for i in range(theta.size)])
    np.testing.assert_allclose(H, H_numeric, atol=1e-5)
    np.testing.assert_allclose(H, H.T)
    assert np.linalg.eigvalsh(H).min() > 0          # strictly convex with a finite C


def test_unpenalised_fit_on_non_separable_data_matches_sklearn():
    rng = np.random.default_rng(3)
    X = rng.normal(size=(300, 3))
    y = (rng.random(300) < 1 / (1 + np.exp(-X @ [1.0, -1.0, 0.5]))).astype(int)
    ours = LogisticRegression(np.inf, solver="newton", **TIGHT).fit(X, y)
    ref = sk.LogisticRegression(C=np.inf, solver="newton-cholesky", **TIGHT).fit(X, y)
    np.testing.assert_allclose(ours.coef_, ref.coef_, atol=1e-8)


@pytest.mark.parametrize("params, match", [({"C": 0.0}, "C must be > 0"), ({"C": -1}, "C must be"),
                                           ({"solver": "sag"}, "solver"), ({"max_iter": 0}, "max_iter"),
                                           ({"tol": 0.0}, "tol")])
def test_bad_parameters_are_rejected(params, match):
    X, y = DATA["breast cancer (binary)"]
    with pytest.raises(ValueError, match=match):
        LogisticRegression(**params).fit(X, y)


def test_bad_data_is_rejected():
    X, y = DATA["breast cancer (binary)"]
    with pytest.raises(ValueError, match="at least 2 classes"):
        LogisticRegression().fit(X, np.zeros(len(y)))
    with pytest.raises(ValueError, match="Unknown label type"):
        LogisticRegression().fit(X, np.linspace(0, 1, len(y)))
    with pytest.raises(ValueError, match="NaN"):
        LogisticRegression().fit(np.where(X > 3, np.nan, X), y)
    with pytest.raises(ValueError, match="inconsistent numbers of samples"):
        LogisticRegression().fit(X, y[:-1])
    with pytest.raises(ValueError, match="features"):
        LogisticRegression().fit(X, y).predict(X[:, :4])


def test_a_newton_step_is_a_weighted_least_squares_fit():
    # IRLS: w - H^{-1} g = (X^T S X)^{-1} X^T S z with S = diag(p (1 - p)), z = X w + (y - p) / (p (1 - p))
    from mlnotes.linear import LinearRegression

    X, y = DATA["breast cancer (binary)"]
    X, y = X[:200, :5], y[:200].astype(float)
    Xt = np.column_stack([X, np.ones(len(y))])
    theta = np.random.default_rng(4).normal(scale=0.3, size=6)
    args = (X, y[:, None], np.ones(len(y)), np.inf, True)
    newton_step = theta - np.linalg.solve(logistic_hessian(theta, *args), logistic_objective(theta, *args)[1])
    p = 1 / (1 + np.exp(-Xt @ theta))
    s = p * (1 - p)
    wls = LinearRegression(fit_intercept=False).fit(Xt, Xt @ theta + (y - p) / s, sample_weight=s).coef_
    np.testing.assert_allclose(wls, newton_step, rtol=1e-9)


def test_penalised_fit_is_the_notes_ridge_objective_with_lambda_one_over_C():
    # C sum_i l_i + ||w||^2 / 2 = C (sum_i l_i + ||w||^2 / (2 C)): the notes' lambda is 1 / C
    X, y = DATA["breast cancer (binary)"]
    for C in (0.1, 10.0):
        model = LogisticRegression(C, fit_intercept=False, solver="newton", **TIGHT).fit(X, y)
        w = model.coef_[0]
        gradient = X.T @ (1 / (1 + np.exp(-X @ w)) - y) + w / C
        np.testing.assert_allclose(gradient, 0, atol=1e-7)


def test_all_weight_on_one_class_is_rejected():
    X, y = DATA["breast cancer (binary)"]
    with pytest.raises(ValueError, match="at least 2 classes with positive sample_weight"):
        LogisticRegression().fit(X, y, sample_weight=(y == 1).astype(float))


# ---------------------------------------------------------------------------------------------
# Newton's method reports convergence honestly; the MLE does not exist on separable data
# ---------------------------------------------------------------------------------------------

def separable(n=50, seed=0, n_classes=2):
    X = np.random.default_rng(seed).normal(size=(n, 2))
    y = (X[:, 0] > 0).astype(int) if n_classes == 2 else np.digitize(X[:, 0], [-0.5, 0.5])
    return X, y


@pytest.mark.parametrize("solver", ["newton", "lbfgs"])
@pytest.mark.parametrize("n_classes", [2, 3])
def test_unpenalised_fit_on_separable_data_warns_that_the_mle_does_not_exist(solver, n_classes):
    import warnings

    from sklearn.exceptions import ConvergenceWarning

    X, y = separable(n_classes=n_classes)
    with pytest.warns(ConvergenceWarning, match="linearly separable and the maximum-likelihood estimate does not exist"):
        model = LogisticRegression(np.inf, solver=solver).fit(X, y)
    assert model.score(X, y) == 1.0
    with warnings.catch_warnings():                               # a finite C has a minimiser: no warning
        warnings.simplefilter("error", ConvergenceWarning)
        LogisticRegression(1e3, solver=solver, max_iter=1000).fit(X, y)


def test_newton_converges_when_the_gradient_is_below_tol():
    # the estimator runs chapter 6's Newton method (optim.newton, damped): converged means ||grad|| <= tol
    from mlnotes.optim import newton

    X, y = DATA["breast cancer (binary)"]
    args = (X, y[:, None].astype(float), np.ones(len(y)), 1.0, True)
    for tol in (1e-4, 1e-8, 1e-12):
        model = LogisticRegression(1.0, solver="newton", tol=tol).fit(X, y)
        result = newton(lambda w: logistic_objective(w, *args)[0], lambda w: logistic_objective(w, *args)[1],
                        lambda w: logistic_hessian(w, *args), np.zeros(31), line_search="armijo", tol=tol)
        assert result.converged and result.n_iter <= 15 and model.n_iter_[0] == result.n_iter
        np.testing.assert_array_equal(np.append(model.coef_, model.intercept_), result.x)
        assert np.linalg.norm(logistic_objective(result.x, *args)[1]) <= tol


def test_line_search_failure_is_not_convergence():
    from dataclasses import replace

    from mlnotes.optim import newton

    f = lambda t: 0.5 * np.sum((t - 1.0) ** 2)
    wrong_hessian = lambda t: -np.eye(t.size)                    # the "Newton step" points uphill
    result = newton(f, lambda t: t - 1.0, wrong_hessian, np.zeros(2), line_search="armijo", tol=1e-8, warn=False)
    assert not result.converged and "line search found no decrease" in result.message
    np.testing.assert_array_equal(result.x, np.zeros(2))         # no uphill move is accepted

    class Broken(LogisticRegression):                            # the estimator turns it into a warning
        link = replace(LogisticRegression.link, hessian=lambda w, *args: -np.eye(w.size))

    with pytest.warns(ConvergenceWarning, match="line search found no decrease"):
        Broken(solver="newton").fit(*DATA["breast cancer (binary)"])


# ---------------------------------------------------------------------------------------------
# the public objective and Hessian check their arguments
# ---------------------------------------------------------------------------------------------

def glm_args():
    X, y = DATA["iris (3 classes)"]
    return np.zeros(3 * 5), X, np.eye(3)[y], np.ones(len(y)), 1.0, True


@pytest.mark.parametrize("change, match", [
    ({0: np.zeros(14)}, "w must have shape \\(15,\\)"),
    ({0: np.full(15, np.nan)}, "w contains NaN"),
    ({1: np.zeros(150)}, "X must be 2-D"),
    ({2: np.ones((149, 3))}, "Y must have shape"),
    ({2: 2 * np.eye(3)[np.zeros(150, int)]}, "in \\[0, 1\\]"),
    ({3: -np.ones(150)}, "non-negative"),
    ({3: np.ones(10)}, "sample_weight has 10 entries"),
    ({4: 0.0}, "C must be > 0"),
    ({4: np.nan}, "C must be finite"),
    ({5: "yes"}, "fit_intercept"),
])
@pytest.mark.parametrize("function", [logistic_objective, logistic_hessian])
def test_objective_and_hessian_reject_bad_arguments(function, change, match):
    args = list(glm_args())
    for position, value in change.items():
        args[position] = value
    with pytest.raises((ValueError, TypeError), match=match):
        function(*args)


def test_checked_and_unchecked_objectives_agree():
    from mlnotes.linear._logistic import _logistic_hessian, _logistic_objective

    theta, X, Y, s, C, fit_intercept = glm_args()
    theta = np.random.default_rng(5).normal(size=theta.size)
    value, grad = logistic_objective(theta, X, Y, s, C, fit_intercept)
    value_core, grad_core = _logistic_objective(theta, X, Y, s, C, fit_intercept)
    assert value == value_core
    np.testing.assert_array_equal(grad, grad_core)
    np.testing.assert_array_equal(logistic_hessian(theta, X, Y, s, C, fit_intercept),
                                  _logistic_hessian(theta, X, Y, s, C, fit_intercept))


def test_scores_that_overflow_raise_instead_of_a_nan_objective():
    # the binary objective calls the unchecked cross-entropy: the scores X w + b are still checked
    X, Y = np.array([[1e300], [1.0]]), np.array([[1.0], [0.0]])
    with np.errstate(over="ignore"), pytest.raises(ValueError, match="z contains infinity"):
        logistic_objective(np.array([1e300, 0.0]), X, Y, None, 1.0)


@pytest.mark.filterwarnings("error::sklearn.exceptions.ConvergenceWarning")
def test_lbfgs_converges_on_features_of_scale_1e6():
    # issue 11: iris standardised then scaled by 1e6; scipy stopped because the objective stopped decreasing
    # and that was reported as success (max |grad| 76, accuracy 0.847 against 0.987 at the optimum)
    X, y = DATA["iris (3 classes)"]
    X = X * 1e6
    model = LogisticRegression(C=1.0, solver="lbfgs").fit(X, y)          # no ConvergenceWarning (an error here)
    ref = LogisticRegression(C=1.0, solver="newton", tol=1e-10).fit(X, y)
    assert model.score(X, y) == ref.score(X, y) >= 0.98
    np.testing.assert_array_equal(model.predict(X), ref.predict(X))
    w = np.column_stack([model.coef_, model.intercept_]).ravel()
    value, grad = logistic_objective(w, X, np.eye(3)[y], np.ones(len(y)), 1.0)
    assert np.linalg.norm(grad) <= 1e-4                                   # the stopping rule, checked here


def test_lbfgs_warns_when_its_own_stopping_rule_is_not_met():
    # the solver checks the gradient itself instead of trusting scipy's "success"
    X, y = DATA["breast cancer (binary)"]
    with pytest.warns(ConvergenceWarning, match="gradient"):
        LogisticRegression(C=1e4, solver="lbfgs", max_iter=3).fit(X, y)
