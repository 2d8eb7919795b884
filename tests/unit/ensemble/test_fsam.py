"""fsam: forward stagewise additive modelling with a generic base learner and loss; the exponential-loss step
against its closed form 1/2 ln((1 - err)/err), L2 boosting against the residual fit, errors."""

import numpy as np
import pytest

from mlnotes.ensemble import exponential_loss, fsam, logistic_loss, squared_loss
from mlnotes.tree import DecisionTreeClassifier, DecisionTreeRegressor


def _data(n=120, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, 3))
    y = np.where(X[:, 0] + 0.5 * X[:, 1]**2 + 0.4 * rng.normal(size=n) > 0.3, 1.0, -1.0)
    return X, y


def _stump_on_weights(X, y, f, w):
    # the exponential loss's base step: a stump fitted with the weights w_i exp(-y_i f_i), as a +-1 function
    stump = DecisionTreeClassifier(max_depth=1).fit(X, y, sample_weight=w * np.exp(-y * f))
    return lambda Z: stump.predict(Z)


def test_exponential_loss_steps_are_half_log_odds_of_the_weighted_error():
    X, y = _data()
    result = fsam(X, y, _stump_on_weights, exponential_loss, 8)
    for m in range(8):
        weights = np.exp(-y * result.scores[m])
        h = result.pieces[m](X)
        err = weights[h != y].sum() / weights.sum()
        assert 0 < err < 0.5
        assert result.steps[m] == pytest.approx(0.5 * np.log((1 - err) / err), abs=1e-6)
    assert np.all(np.diff(result.losses) < 0)                         # each line search lowers the loss


def test_l2_boosting_with_unit_steps_fits_residuals():
    X, _ = _data()
    rng = np.random.default_rng(1)
    y = X[:, 0] * 2 + np.sin(X[:, 1]) + 0.1 * rng.normal(size=len(X))

    def fit_residuals(X_, y_, f, w):
        tree = DecisionTreeRegressor(max_depth=2).fit(X_, y_ - f, sample_weight=w)
        return tree.predict

    fixed = fsam(X, y, fit_residuals, squared_loss, 5, step=1.0)
    searched = fsam(X, y, fit_residuals, squared_loss, 5)
    # the least-squares tree already carries the best scale: the line search finds v = 1
    np.testing.assert_allclose(searched.steps, 1.0, atol=1e-6)
    np.testing.assert_allclose(fixed.scores, searched.scores, atol=1e-5)
    f = np.zeros(len(y))
    for _ in range(5):                                               # by hand: f += tree fitted to y - f
        f += DecisionTreeRegressor(max_depth=2).fit(X, y - f).predict(X)
    np.testing.assert_allclose(fixed.scores[-1], f, atol=1e-12)
    np.testing.assert_allclose(fixed.decision_function(X), f, atol=1e-12)
    np.testing.assert_allclose(fixed.decision_function(X, 2), fixed.scores[2], atol=1e-12)


def test_logistic_loss_and_weights():
    X, y = _data()

    def fit_gradient(X_, y_, f, w):
        tree = DecisionTreeRegressor(max_depth=1).fit(X_, y_ / (1 + np.exp(y_ * f)), sample_weight=w)
        return tree.predict

    result = fsam(X, y, fit_gradient, logistic_loss, 6)
    assert np.all(np.diff(result.losses) <= 1e-12)
    doubled = fsam(np.vstack([X, X[:10]]), np.r_[y, y[:10]], fit_gradient, logistic_loss, 3)
    weighted = fsam(X, y, fit_gradient, logistic_loss, 3, sample_weight=np.r_[np.full(10, 2.0), np.ones(len(y) - 10)])
    np.testing.assert_allclose(doubled.steps, weighted.steps, atol=1e-7)


def test_errors():
    X, y = _data(20)
    with pytest.raises(ValueError, match="n_rounds"):
        fsam(X, y, _stump_on_weights, exponential_loss, 0)
    with pytest.raises(TypeError, match="callable"):
        fsam(X, y, None, exponential_loss, 2)
    with pytest.raises(ValueError, match="NaN"):
        fsam(np.where(np.eye(20, 3) == 1, np.nan, X), y, _stump_on_weights, exponential_loss, 2)
    with pytest.raises(ValueError, match="negative"):
        fsam(X, y, _stump_on_weights, exponential_loss, 2, sample_weight=-np.ones(20))
    with pytest.raises(ValueError, match="all are zero"):
        fsam(X, y, _stump_on_weights, exponential_loss, 2, sample_weight=np.zeros(20))
    with pytest.raises(ValueError, match="shape"):
        fsam(X, y, _stump_on_weights, lambda y_, f: np.zeros(3), 2)
    with pytest.raises(ValueError, match="step_bounds"):
        fsam(X, y, _stump_on_weights, exponential_loss, 2, step_bounds=(1.0, -1.0))


def test_the_sign_losses_refuse_labels_other_than_plus_minus_one():
    # review R13: 0/1 labels silently gave a loss that does not depend on f where y = 0
    X, y = _data(20)
    y01 = (y > 0).astype(float)
    for loss in (exponential_loss, logistic_loss):
        np.testing.assert_array_equal(loss(y, np.full(20, 0.5)), loss(y, np.full(20, 0.5)))
        with pytest.raises(ValueError, match="-1 or \\+1"):
            loss(y01, np.zeros(20))
        with pytest.raises(ValueError, match="-1 or \\+1"):
            fsam(X, y01, _stump_on_weights, loss, 2)
    # the same values as the closed forms
    f = np.linspace(-3, 3, 20)
    np.testing.assert_array_equal(exponential_loss(y, f), np.exp(-y * f))
    np.testing.assert_array_equal(logistic_loss(y, f), np.logaddexp(0.0, -y * f))
