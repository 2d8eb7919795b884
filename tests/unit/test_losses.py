"""Losses of mlnotes.losses: values against scipy/scikit-learn, derivatives against central differences,
the properties chapter 5 relies on, and clear errors on bad input."""

import numpy as np
import pytest
from scipy import special
from sklearn import metrics

from mlnotes import losses as L

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
         "squared hinge": [1.0], "0-1": [0.0]}
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


@pytest.mark.parametrize("name, kink", [(n, k) for n, ks in KINKS.items() if n != "0-1" for k in ks])
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
