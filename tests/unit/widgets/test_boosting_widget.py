"""mlnotes.widgets.boosting: the staged scores, the drawing of one round and of the error curves, the demo."""

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402

from mlnotes.ensemble import GradientBoostingRegressor  # noqa: E402
from mlnotes.widgets.boosting import (_demo_data, boosting_demo, draw_boosting_errors, draw_boosting_round,  # noqa: E402
                                      staged_scores)


def _model(learning_rate=0.5, n=10):
    x, y, x_test, y_test = _demo_data(40, 0)
    model = GradientBoostingRegressor(n_estimators=n, learning_rate=learning_rate, max_depth=1).fit(x[:, None], y)
    return model, x, y, x_test, y_test


def test_staged_scores_start_at_the_initial_constant_and_add_shrunk_trees():
    model, x, y, *_ = _model()
    scores = staged_scores(model, x[:, None])
    assert scores.shape == (11, 40)
    np.testing.assert_allclose(scores[0], y.mean())
    tree = model.estimators_[3, 0]
    np.testing.assert_allclose(scores[4] - scores[3], 0.5 * tree.predict(x[:, None]), atol=1e-12)
    np.testing.assert_allclose(scores[-1], model.predict(x[:, None]))


def test_draw_round_and_errors():
    model, x, y, x_test, y_test = _model()
    fig, (a, b) = plt.subplots(1, 2)
    curves = draw_boosting_round(a, model, x, y, 3, grid=np.sort(x))
    np.testing.assert_allclose(curves[2], 0.5 * model.estimators_[2, 0].predict(np.sort(x)[:, None]), atol=1e-12)
    with pytest.raises(ValueError, match="m must be"):
        draw_boosting_round(a, model, x, y, 11)
    train, test = draw_boosting_errors(b, model, x[:, None], y, x_test[:, None], y_test, mark=3)
    np.testing.assert_allclose(train, model.train_score_, rtol=1e-10)
    assert test.shape == (10,) and np.all(np.diff(train) <= 1e-12)
    labels = {line.get_label() for line in b.get_lines()}
    assert {"training", "test"} <= labels
    plt.close(fig)


def test_demo_builds_and_rejects_bad_sizes():
    demo = boosting_demo(n_samples=30, max_rounds=5)
    assert demo.children[0].max == 5
    plt.close("all")
    with pytest.raises(ValueError, match="n_samples"):
        boosting_demo(n_samples=3)
