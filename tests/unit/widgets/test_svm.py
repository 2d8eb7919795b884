"""mlnotes.widgets.svm: the drawing of an SVM (margins, support vectors) and the C/gamma demo of chapter 14."""

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402

from mlnotes.svm import SVC  # noqa: E402
from mlnotes.widgets.svm import _demo_data, _demo_model, draw_svm, svm_demo  # noqa: E402


def _fitted():
    X, y = _demo_data(60, 0)
    return SVC(C=1.0, kernel="rbf", gamma=1.0).fit(X, y), X, y


def test_draw_svm_circles_the_support_vectors_and_draws_both_margins():
    model, X, y = _fitted()
    fig, ax = plt.subplots()
    draw_svm(ax, model, X, y, resolution=60)
    circled = [c for c in ax.collections if c.get_label().startswith("support vectors")]
    assert len(circled) == 1
    np.testing.assert_array_equal(circled[0].get_offsets(), X[model.support_])
    # the margins f = -1 and f = +1 are drawn as one contour set with two levels
    margin_sets = [c for c in ax.collections if hasattr(c, "levels") and list(c.levels) == [-1.0, 1.0]]
    assert len(margin_sets) == 1
    plt.close(fig)


def test_draw_svm_rejects_what_it_cannot_draw():
    model, X, y = _fitted()
    fig, ax = plt.subplots()
    with pytest.raises(ValueError, match="index the rows of X"):
        draw_svm(ax, model, X[:10], y[:10])
    with pytest.raises(ValueError, match="2 features"):
        draw_svm(ax, model, np.hstack([X, X]), y)
    three = SVC(kernel="linear").fit(np.r_[X, X[:5] + 5], np.r_[y, np.full(5, 2)])
    with pytest.raises(ValueError, match="two-class"):
        draw_svm(ax, three, np.r_[X, X[:5] + 5], np.r_[y, np.full(5, 2)])
    plt.close(fig)


def test_the_demo_parameters_matter():
    X, y = _demo_data(100, 0)
    # a larger C leaves fewer points inside the margin: fewer support vectors, higher training accuracy
    loose, tight = _demo_model(-1.0, 0.0, "rbf", X, y), _demo_model(2.0, 0.0, "rbf", X, y)
    assert len(tight.support_) < len(loose.support_)
    assert tight.score(X, y) > loose.score(X, y)
    # a larger gamma makes the rbf boundary wigglier: at C = 100 it fits the training data better
    smooth, wiggly = _demo_model(2.0, -1.0, "rbf", X, y), _demo_model(2.0, 1.5, "rbf", X, y)
    assert wiggly.score(X, y) > smooth.score(X, y)
    # gamma does not enter the linear kernel
    a, b = _demo_model(0.0, -1.0, "linear", X, y), _demo_model(0.0, 1.0, "linear", X, y)
    np.testing.assert_allclose(a.decision_function(X), b.decision_function(X))


def test_svm_demo_builds_the_widget_and_validates():
    pytest.importorskip("ipywidgets")
    demo = svm_demo(n_samples=40)
    names = {getattr(child, "description", None) for child in demo.children}
    assert {"log₁₀ C", "log₁₀ γ", "kernel"} <= names
    plt.close("all")
    with pytest.raises(ValueError, match="n_samples"):
        svm_demo(n_samples=2)
