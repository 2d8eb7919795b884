"""Losses of mlnotes.losses: values against scipy/scikit-learn, derivatives against central differences,
the properties chapter 5 relies on, and clear errors on bad input."""

import numpy as np
import pytest
from scipy import special
from sklearn import metrics

from mlnotes import losses as L
from mlnotes.linear import fit_linear

RNG = np.random.default_rng(0)
POINTS = np.concatenate([RNG.normal(scale=3, size=200), [-30.0, -5.0, 5.0, 30.0]])
ELEMENTWISE = {
    "square": (L.square, L.square_grad),
    "absolute": (L.absolute, L.absolute_grad),
    "huber": (L.huber, L.huber_grad),
    "huber(delta=0.3)": (lambda r: L.huber(r, 0.3), lambda r: L.huber_grad(r, 0.3)),
    **L.MARGIN_LOSSES,
}
KINKS = {"absolute": [0.0], "huber": [-1.0, 1.0], "huber(delta=0.3)": [-0.3, 0.3], "hinge": [1.0],
         "squared_hinge": [1.0], "zero_one": [0.0]}
H = 1e-6


def away_from_kinks(name, x, margin=1e-3):
    kinks = np.asarray(KINKS.get(name, []))
    if kinks.size == 0:
        return x
    return x[np.min(np.abs(x[:, None] - kinks[None, :]), axis=1) > margin]


@pytest.mark.parametrize("name", ELEMENTWISE)
def test_derivative_matches_central_differences(name):
    phi, phi_grad = ELEMENTWISE[name]
    x = away_from_kinks(name, POINTS)
    numeric = (phi(x + H) - phi(x - H)) / (2 * H)
    scale = np.maximum(1.0, np.abs(phi_grad(x)))
    np.testing.assert_allclose(phi_grad(x) / scale, numeric / scale, atol=1e-6)


@pytest.mark.parametrize("name", ELEMENTWISE)
def test_loss_is_vectorised_and_keeps_the_shape(name):
    phi, phi_grad = ELEMENTWISE[name]
    x = POINTS[:12].reshape(3, 4)
    assert phi(x).shape == x.shape and phi_grad(x).shape == x.shape
    np.testing.assert_array_equal(phi(x).ravel(), phi(x.ravel()))
    assert np.ndim(phi(0.5)) == 0


@pytest.mark.parametrize("name, kink", [(n, k) for n, ks in KINKS.items() if n != "zero_one" for k in ks])
def test_subgradient_at_a_kink_lies_in_the_subdifferential(name, kink):
    phi, phi_grad = ELEMENTWISE[name]
    left = (phi(kink) - phi(kink - H)) / H
    right = (phi(kink + H) - phi(kink)) / H
    g = phi_grad(kink)
    assert min(left, right) - 1e-5 <= g <= max(left, right) + 1e-5
    # the subgradient inequality phi(x) >= phi(kink) + g (x - kink) holds for every x (these losses are convex)
    assert (phi(POINTS) >= phi(kink) + g * (POINTS - kink) - 1e-12).all()


def test_regression_losses_agree_with_scipy_and_sklearn():
    y, y_pred = RNG.normal(size=50), RNG.normal(size=50)
    r = y - y_pred
    np.testing.assert_allclose(L.square(r).mean(), metrics.mean_squared_error(y, y_pred), rtol=1e-12)
    np.testing.assert_allclose(L.absolute(r).mean(), metrics.mean_absolute_error(y, y_pred), rtol=1e-12)
    for delta in (0.1, 1.0, 2.5):
        np.testing.assert_allclose(L.huber(r, delta), special.huber(delta, r), rtol=1e-12)


def test_margin_losses_agree_with_sklearn():
    y = RNG.choice([-1.0, 1.0], size=80)
    f = RNG.normal(scale=2, size=80)
    m = L.margin(y, f)
    np.testing.assert_allclose(L.hinge(m).mean(), metrics.hinge_loss(y, f), rtol=1e-12)
    np.testing.assert_allclose(L.logistic(m).mean(), metrics.log_loss(y, special.expit(f)), rtol=1e-10)
    np.testing.assert_allclose(L.zero_one(m).mean(), metrics.zero_one_loss(y, np.where(f > 0, 1.0, -1.0)))
    np.testing.assert_allclose(L.square_margin(m), (y - f) ** 2, rtol=1e-12)


def test_cross_entropy_agrees_with_sklearn_log_loss():
    z = RNG.normal(scale=3, size=60)
    y = (RNG.random(60) < special.expit(z)).astype(float)
    np.testing.assert_allclose(L.binary_cross_entropy(y, z).mean(), metrics.log_loss(y, special.expit(z)),
                               rtol=1e-10)
    Z = RNG.normal(size=(60, 4))
    labels = RNG.integers(0, 4, size=60)
    Y = np.eye(4)[labels]
    np.testing.assert_allclose(L.softmax_cross_entropy(Y, Z).mean(),
                               metrics.log_loss(labels, special.softmax(Z, axis=1), labels=range(4)), rtol=1e-10)


def test_binary_cross_entropy_is_the_logistic_loss_of_the_margin():
    z = RNG.normal(scale=3, size=40)
    y01 = RNG.integers(0, 2, size=40).astype(float)
    np.testing.assert_allclose(L.binary_cross_entropy(y01, z), L.logistic(L.margin(2 * y01 - 1, z)), rtol=1e-12)


def test_cross_entropy_gradients_match_central_differences():
    z = RNG.normal(scale=3, size=30)
    y = RNG.random(30)
    numeric = (L.binary_cross_entropy(y, z + H) - L.binary_cross_entropy(y, z - H)) / (2 * H)
    np.testing.assert_allclose(L.binary_cross_entropy_grad(y, z), numeric, atol=1e-7)
    Z = RNG.normal(size=(5, 3))
    Y = special.softmax(RNG.normal(size=(5, 3)), axis=1)
    numeric = np.zeros_like(Z)
    for k in range(3):
        E = np.zeros_like(Z)
        E[:, k] = H
        numeric[:, k] = (L.softmax_cross_entropy(Y, Z + E) - L.softmax_cross_entropy(Y, Z - E)) / (2 * H)
    np.testing.assert_allclose(L.softmax_cross_entropy_grad(Y, Z), numeric, atol=1e-7)


def test_extreme_scores_give_finite_exact_values():
    big = np.array([-1e4, -800.0, 800.0, 1e4])
    np.testing.assert_allclose(L.logistic(big), [1e4, 800.0, 0.0, 0.0], atol=1e-300)
    np.testing.assert_allclose(L.logistic_grad(big), [-1.0, -1.0, 0.0, 0.0], atol=1e-300)
    np.testing.assert_allclose(L.binary_cross_entropy([1.0, 0.0], [-800.0, 800.0]), [800.0, 800.0])
    Z = np.array([[1000.0, 0.0], [0.0, -1000.0]])
    np.testing.assert_allclose(L.softmax_cross_entropy(np.eye(2), Z), [0.0, 1000.0])
    assert np.isinf(L.exponential(-1e4)) and L.exponential(1e4) == 0.0


def test_surrogates_bound_the_zero_one_loss():
    m = np.linspace(-5, 5, 2001)
    zero_one = L.zero_one(m)
    for phi in (L.hinge, L.squared_hinge, L.exponential, L.square_margin):
        assert (phi(m) >= zero_one).all()
    assert (L.logistic(m) / np.log(2) >= zero_one - 1e-12).all()   # base-2 logistic loss
    assert L.logistic(0.0) < L.zero_one(0.0)                        # the natural-log one is not a bound at 0


@pytest.mark.parametrize("func", [L.square, L.hinge, L.logistic, L.exponential, L.zero_one])
@pytest.mark.parametrize("bad, error, match", [
    (np.nan, ValueError, "NaN"), ([1.0, np.inf], ValueError, "infinity"), ([], ValueError, "empty"),
    (None, TypeError, "got None"), (["a"], TypeError, "numeric")])
def test_bad_arguments_are_rejected(func, bad, error, match):
    with pytest.raises(error, match=match):
        func(bad)


def test_bad_labels_and_parameters_are_rejected():
    with pytest.raises(ValueError, match="-1 or \\+1"):
        L.margin([0.0, 1.0], [0.3, 0.2])
    with pytest.raises(ValueError, match="same shape"):
        L.margin([1.0, -1.0], [0.3])
    with pytest.raises(ValueError, match="delta must be > 0"):
        L.huber([1.0], delta=0.0)
    with pytest.raises(ValueError, match=r"\[0, 1\]"):
        L.binary_cross_entropy([2.0], [0.0])
    with pytest.raises(ValueError, match="probability vector"):
        L.softmax_cross_entropy([[1.0, 1.0]], [[0.0, 0.0]])
    with pytest.raises(ValueError, match="same shape"):
        L.softmax_cross_entropy(np.eye(2), np.zeros((2, 3)))


# --------------------------------------------------------------------------- fitting a line under each loss
# Tolerances: least squares and the linear program are exact solvers (1e-10); the Huber fit stops at a
# gradient norm of 1e-10 (coefficients to 1e-7); scikit-learn's HuberRegressor stops its L-BFGS earlier
# (coefficients to 1e-5, and its objective is no better than ours).

def regression_data(seed, n=40, d=2, outliers=3):
    rng = np.random.default_rng(seed)
    X = rng.normal(scale=2.0, size=(n, d))
    y = X @ rng.normal(size=d) + 0.7 + rng.normal(scale=0.5, size=n)
    y[:outliers] += rng.choice([-1, 1], size=outliers) * rng.uniform(10, 30, size=outliers)
    return X, y


@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize("fit_intercept", [True, False])
def test_fit_linear_square_is_least_squares(seed, fit_intercept):
    from sklearn.linear_model import LinearRegression
    X, y = regression_data(seed)
    w, b = fit_linear(X, y, "square", fit_intercept=fit_intercept)
    ref = LinearRegression(fit_intercept=fit_intercept).fit(X, y)
    np.testing.assert_allclose(w, ref.coef_, rtol=0, atol=1e-10)
    assert abs(b - ref.intercept_) <= 1e-10


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_fit_linear_absolute_solves_least_absolute_deviations(seed):
    from sklearn.linear_model import QuantileRegressor
    X, y = regression_data(seed)
    w, b = fit_linear(X, y, "absolute")
    ref = QuantileRegressor(quantile=0.5, alpha=0.0, solver="highs").fit(X, y)
    ours = L.regression_risk(X, y, w, b, "absolute")
    theirs = L.regression_risk(X, y, ref.coef_, ref.intercept_, "absolute")
    assert ours <= theirs + 1e-10                      # the same optimal value (the minimiser may not be unique)
    assert theirs <= ours + 1e-10
    # an optimal vertex of the linear program interpolates at least p = d + 1 of the points
    assert np.sum(np.abs(y - X @ w - b) < 1e-8) >= X.shape[1] + 1
    # and no small move of the parameters lowers the risk
    rng = np.random.default_rng(seed)
    for _ in range(20):
        dw, db = rng.normal(scale=1e-3, size=X.shape[1]), rng.normal(scale=1e-3)
        assert L.regression_risk(X, y, w + dw, b + db, "absolute") >= ours - 1e-12


@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize("epsilon", [1.35, 2.0])
def test_fit_linear_huber_matches_sklearn_with_its_scale(seed, epsilon):
    """HuberRegressor minimises sum_i sigma + 2 sigma huber(r_i / sigma, eps) jointly in sigma; for its fitted
    sigma the minimiser in (w, b) is the Huber fit with delta = eps * sigma (chapter 5)."""
    from sklearn.linear_model import HuberRegressor
    X, y = regression_data(seed)
    ref = HuberRegressor(epsilon=epsilon, alpha=0.0, tol=1e-12, max_iter=10000).fit(X, y)
    sigma = ref.scale_
    w, b = fit_linear(X, y, "huber", delta=epsilon * sigma)
    np.testing.assert_allclose(w, ref.coef_, rtol=0, atol=1e-5)
    assert abs(b - ref.intercept_) <= 1e-5

    def sklearn_objective(w_, b_):              # scikit-learn's documented objective, alpha = 0
        z = np.abs(y - X @ w_ - b_) / sigma
        H = np.where(z < epsilon, z**2, 2 * epsilon * z - epsilon**2)
        return np.sum(sigma + H * sigma)

    # at scikit-learn's own scale, our (w, b) is at least as good for scikit-learn's objective
    assert sklearn_objective(w, b) <= sklearn_objective(ref.coef_, ref.intercept_) + 1e-10


@pytest.mark.parametrize("seed", [0, 1])
@pytest.mark.parametrize("delta", [0.05, 0.5, 3.0])
def test_fit_linear_huber_is_a_stationary_point_and_beats_scipy(seed, delta):
    from scipy import optimize
    X, y = regression_data(seed)
    w, b = fit_linear(X, y, "huber", delta=delta)
    r = y - X @ w - b
    gradient = -np.concatenate([X.T @ L.huber_grad(r, delta), [L.huber_grad(r, delta).sum()]]) / len(y)
    assert np.abs(gradient).max() <= 1e-9
    risk = lambda theta: L.regression_risk(X, y, theta[:-1], theta[-1], "huber", delta=delta)
    ref = optimize.minimize(risk, np.zeros(X.shape[1] + 1), method="BFGS")
    assert risk(np.append(w, b)) <= ref.fun + 1e-12


def test_huber_fit_is_least_squares_when_delta_exceeds_every_residual():
    X, y = regression_data(3, outliers=0)
    w_ls, b_ls = fit_linear(X, y, "square")
    delta = 1.01 * np.abs(y - X @ w_ls - b_ls).max()
    w, b = fit_linear(X, y, "huber", delta=delta)
    np.testing.assert_allclose(w, w_ls, rtol=0, atol=1e-9)
    assert abs(b - b_ls) <= 1e-9


@pytest.mark.parametrize("loss", L.REGRESSION_LOSSES)
def test_fits_are_translation_equivariant(loss):
    X, y = regression_data(4)
    w, b = fit_linear(X, y, loss)
    w_c, b_c = fit_linear(X, y + 5.0, loss)
    np.testing.assert_allclose(w_c, w, rtol=0, atol=1e-7)
    assert abs(b_c - (b + 5.0)) <= 1e-7


def test_square_fit_of_one_feature_without_spread_keeps_the_risk_minimal():
    X = np.ones((5, 1))                                # constant feature: collinear with the intercept
    y = np.arange(5.0)
    for loss in L.REGRESSION_LOSSES:
        w, b = fit_linear(X, y, loss)
        fitted_constant = w[0] + b
        best = {"square": y.mean(), "absolute": np.median(y), "huber": np.median(y)}[loss]
        assert abs(L.regression_risk(X, y, w, b, loss) - L.regression_risk(X, y, [0.0], best, loss)) <= 1e-9, loss
        assert np.isfinite(fitted_constant)


@pytest.mark.parametrize("seed", [0, 1])
def test_constant_fits_are_the_mean_and_the_median(seed):
    y = np.random.default_rng(seed).normal(size=21)
    y[0] = 1e3                                          # one outlier: it moves the mean, not the median
    zero_feature = np.zeros((21, 1))
    assert abs(fit_linear(zero_feature, y, "square")[1] - y.mean()) <= 1e-10
    assert abs(fit_linear(zero_feature, y, "absolute")[1] - np.median(y)) <= 1e-10
    c = fit_linear(zero_feature, y, "huber", delta=0.5)[1]
    assert abs(np.clip(y - c, -0.5, 0.5).sum()) <= 1e-8  # Huber's stationarity condition for a constant


def test_regression_risk_agrees_with_sklearn_and_scipy():
    X, y = regression_data(5)
    w, b = np.array([0.3, -0.2]), 0.4
    y_pred = X @ w + b
    assert abs(L.regression_risk(X, y, w, b, "square") - metrics.mean_squared_error(y, y_pred)) <= 1e-12
    assert abs(L.regression_risk(X, y, w, b, "absolute") - metrics.mean_absolute_error(y, y_pred)) <= 1e-12
    np.testing.assert_allclose(L.regression_risk(X, y, w, b, "huber", delta=0.8),
                               special.huber(0.8, y - y_pred).mean(), rtol=1e-12)


def test_fit_linear_rejects_bad_input():
    X, y = regression_data(0)
    with pytest.raises(ValueError, match="loss must be one of"):
        fit_linear(X, y, "hinge")
    with pytest.raises(ValueError, match="delta must be > 0"):
        fit_linear(X, y, "huber", delta=0.0)
    with pytest.raises(ValueError, match="entries but X has"):
        fit_linear(X, y[:-1])
    with pytest.raises(ValueError, match="NaN"):
        fit_linear(np.where(X > 1, np.nan, X), y)
    with pytest.raises(TypeError, match="fit_intercept must be True or False"):
        fit_linear(X, y, fit_intercept="yes")
    with pytest.raises(ValueError, match="w has 3 entries"):
        L.regression_risk(X, y, np.zeros(3))


# --------------------------------------------------------------------------- reweighting for a label shift

def test_importance_weights_for_the_tutorial_priors():
    y = np.array([1.0] * 9 + [-1.0])
    r = L.importance_weights(y, {1: 0.6, -1: 0.4})
    np.testing.assert_allclose(r, [0.6 / 0.9] * 9 + [0.4 / 0.1], rtol=1e-12)
    assert abs(r[-1] / r[0] - 6.0) <= 1e-12
    balanced = L.importance_weights(y, {1: 0.5, -1: 0.5})
    assert abs(balanced[-1] / balanced[0] - 9.0) <= 1e-12


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_reweighted_empirical_risk_is_the_test_prior_mixture_of_class_risks(seed):
    """With p_train the class proportions of y, (1/n) sum r_i l_i = sum_y p_test(y) * mean(l | y) exactly."""
    rng = np.random.default_rng(seed)
    y = rng.choice([0.0, 1.0, 2.0], p=[0.7, 0.2, 0.1], size=300)
    losses = rng.exponential(size=300) + y
    p_test = {0: 0.2, 1: 0.3, 2: 0.5}
    r = L.importance_weights(y, p_test)
    mixture = sum(p * losses[y == k].mean() for k, p in p_test.items())
    assert abs(np.mean(r * losses) - mixture) <= 1e-12
    assert abs(np.mean(r) - 1.0) <= 1e-12


def test_importance_weights_agree_with_sklearn_balanced_weights():
    from sklearn.utils.class_weight import compute_sample_weight
    y = np.random.default_rng(3).choice([-1.0, 1.0], p=[0.15, 0.85], size=200)
    np.testing.assert_allclose(L.importance_weights(y, {-1: 0.5, 1: 0.5}), compute_sample_weight("balanced", y),
                               rtol=1e-12)


def test_class_priors_and_explicit_training_priors():
    y = np.array([2.0, 0.0, 2.0, 2.0])
    assert L.class_priors(y) == {0.0: 0.25, 2.0: 0.75}
    r = L.importance_weights(y, {0: 0.5, 2: 0.5}, p_train={0: 0.5, 2: 0.5})
    np.testing.assert_array_equal(r, np.ones(4))


@pytest.mark.parametrize("p_test, p_train, error, match", [
    ({1: 0.6, -1: 0.5}, None, ValueError, "sum to 1"),
    ({1: 1.2, -1: -0.2}, None, ValueError, "negative"),
    ({1: 1.0}, None, ValueError, "no prior"),
    ({1: 0.5, -1: 0.3, 7: 0.2}, None, ValueError, "training probability 0"),
    ({1: 0.5, -1: 0.5}, {1: 1.0, -1: 0.0}, ValueError, "occur in y"),
    ([0.5, 0.5], None, TypeError, "dict"),
])
def test_importance_weights_reject_bad_priors(p_test, p_train, error, match):
    with pytest.raises(error, match=match):
        L.importance_weights([1.0, -1.0, 1.0], p_test, p_train)


# --------------------------------------------------------------------------- choosing a threshold

def brute_force_errors(scores, y, thresholds):
    return np.array([np.mean((scores > t).astype(float) != y) for t in thresholds])


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_threshold_errors_agree_with_a_direct_count_and_sklearn(seed):
    rng = np.random.default_rng(seed)
    scores = np.round(rng.random(80), 2)                # rounded: ties between scores
    y = (rng.random(80) < scores).astype(float)
    grid = np.concatenate([np.linspace(-0.1, 1.1, 121), scores])
    np.testing.assert_allclose(L.threshold_errors(scores, y, grid), brute_force_errors(scores, y, grid), atol=1e-15)
    tau = 0.37
    assert abs(L.threshold_errors(scores, y, tau) - (1 - metrics.accuracy_score(y, scores > tau))) <= 1e-15


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_best_threshold_attains_the_minimum_error_of_the_roc_curve(seed):
    rng = np.random.default_rng(seed)
    scores = rng.normal(size=60)
    y = (rng.random(60) < special.expit(2 * scores)).astype(float)
    tau, error = L.best_threshold(scores, y)
    fpr, tpr, _ = metrics.roc_curve(y, scores)
    positive = y.mean()
    roc_min = np.min((1 - positive) * fpr + positive * (1 - tpr))   # error of every threshold scikit-learn lists
    assert abs(error - roc_min) <= 1e-12
    assert abs(L.threshold_errors(scores, y, tau) - error) <= 1e-15
    dense = np.linspace(scores.min() - 1, scores.max() + 1, 4001)
    assert error <= brute_force_errors(scores, y, dense).min() + 1e-15


def test_best_threshold_edge_cases():
    assert L.best_threshold([0.2, 0.7, 0.9], [1.0, 1.0, 1.0]) == (-np.inf, 0.0)
    assert L.best_threshold([0.2, 0.7, 0.9], [0.0, 0.0, 0.0]) == (np.inf, 0.0)
    assert L.best_threshold([0.4], [1.0]) == (-np.inf, 0.0)
    tau, error = L.best_threshold([0.1, 0.4, 0.6, 0.8], [0.0, 0.0, 1.0, 1.0])
    assert (tau, error) == (0.5, 0.0)


def test_label_shift_threshold_is_the_bayes_rule_of_the_test_priors():
    assert abs(L.label_shift_threshold(0.9, 0.6) - 6 / 7) <= 1e-15
    assert abs(L.label_shift_threshold(0.9, 0.5) - 0.9) <= 1e-15
    assert abs(L.label_shift_threshold(0.3, 0.3) - 0.5) <= 1e-15
    rng = np.random.default_rng(0)
    h = rng.random(1000)
    for pi, pi_new in [(0.9, 0.6), (0.2, 0.7), (0.5, 0.1)]:
        # posterior under the test priors, by Bayes' rule from the calibrated training posterior h
        odds = h / (1 - h) * (pi_new / pi) * ((1 - pi) / (1 - pi_new))
        np.testing.assert_array_equal(odds > 1, h > L.label_shift_threshold(pi, pi_new))
        assert abs(L.label_shift_threshold(pi, pi_new) + L.label_shift_threshold(1 - pi, 1 - pi_new) - 1) <= 1e-15


def test_threshold_functions_reject_bad_input():
    with pytest.raises(ValueError, match="0 or 1"):
        L.best_threshold([0.1, 0.2], [-1.0, 1.0])
    with pytest.raises(ValueError, match="entries but X has"):
        L.threshold_errors([0.1, 0.2], [1.0], 0.5)
    with pytest.raises(ValueError, match="NaN"):
        L.threshold_errors([0.1, 0.2], [1.0, 0.0], [np.nan])
    with pytest.raises(ValueError, match="pi_train must be > 0"):
        L.label_shift_threshold(0.0, 0.5)
    with pytest.raises(ValueError, match="must be < 1"):
        L.label_shift_threshold(0.5, 1.0)
    with pytest.raises(ValueError, match="pi_test must be < 1"):
        L.label_shift_threshold(0.5, 1.5)


# --------------------------------------------------------------------------- the chapter's widget

def test_robust_fit_drawing_and_widget():
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from mlnotes.widgets import draw_robust_fit, robust_fit_demo

    rng = np.random.default_rng(0)
    x = np.linspace(-3, 3, 15)
    y = 0.5 * x + rng.normal(scale=0.3, size=15)
    fig, ax = plt.subplots()
    fits = draw_robust_fit(ax, x, y, delta=0.7, outlier_index=14, outlier_shift=20.0)
    y_moved = y.copy()
    y_moved[14] += 20.0
    for loss in L.REGRESSION_LOSSES:
        w, b = fit_linear(x[:, None], y_moved, loss, delta=0.7)
        assert fits[loss] == (float(w[0]), b)
    # the outlier drags the least-squares slope far more than the robust ones
    assert fits["square"][0] - 0.5 > 5 * max(abs(fits["absolute"][0] - 0.5), abs(fits["huber"][0] - 0.5))
    assert len(ax.lines) == 3
    plt.close(fig)
    demo = robust_fit_demo(x, y, outlier_index=3)
    assert [c.description for c in demo.children[:2]] == ["move point", "Huber δ"]
    plt.close("all")
    with pytest.raises(ValueError, match="outlier_index"):
        robust_fit_demo(x, y, outlier_index=15)
    with pytest.raises(ValueError, match="delta must be > 0"):
        draw_robust_fit(ax, x, y, delta=-1.0)


def test_softmax_cross_entropy_at_extreme_scores():
    # issue 11: NaN at scores of +-1e308 (0 * -inf after the max shift overflowed)
    Z = np.array([[1e308, -1e308, 0.0], [1e308, -1e308, 0.0], [1e308, -1e308, 0.0]])
    Y = np.eye(3)
    with np.errstate(all="raise"):
        loss = L.softmax_cross_entropy(Y, Z)
        grad = L.softmax_cross_entropy_grad(Y, Z)
    assert loss[0] == 0.0 and loss[2] == 1e308              # finite where the true value is
    assert loss[1] == np.inf                                 # 2e308 exceeds the largest float: inf, not NaN
    np.testing.assert_array_equal(grad, np.array([[1.0, 0, 0], [1, 0, 0], [1, 0, 0]]) - Y)
