"""mlnotes.widgets.neighbors: kNN regions and the threshold curves of chapter 18, and their demos."""

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402

from mlnotes.widgets.neighbors import (_demo_data, _demo_model, draw_knn_regions, draw_threshold_curves,  # noqa: E402
                                       knn_demo, threshold_counts, threshold_demo)


def test_draw_knn_regions_joins_the_query_to_its_k_neighbours():
    X, y = _demo_data(20, 0)
    model = _demo_model(4, "uniform", X, y)
    fig, ax = plt.subplots()
    draw_knn_regions(ax, model, X, y, query=[0.0, 0.0], resolution=40)
    segments = [line for line in ax.lines if len(line.get_xdata()) == 2 and line.get_xdata()[0] == 0.0]
    assert len(segments) == 4
    ends = {tuple(np.round([line.get_xdata()[1], line.get_ydata()[1]], 12)) for line in segments}
    nearest = np.argsort(np.linalg.norm(X, axis=1))[:4]
    assert ends == {tuple(np.round(X[j], 12)) for j in nearest}
    with pytest.raises(ValueError, match="one point of the plane"):
        draw_knn_regions(ax, model, X, y, query=[0.0, 0.0, 1.0])
    plt.close(fig)


def test_threshold_counts_and_the_marked_points():
    y = np.array([1, 1, 0, 1, 0, 0])
    s = np.array([0.9, 0.8, 0.7, 0.4, 0.4, 0.1])
    assert threshold_counts(y, s, 0.4) == (3, 2, 0, 1)       # ties at the threshold count as positive
    assert threshold_counts(y, s, 0.75) == (2, 0, 1, 3)
    fig, (a, b) = plt.subplots(1, 2)
    assert draw_threshold_curves(a, b, y, s, 0.75) == (2, 0, 1, 3)
    marked = [c.get_offsets()[0] for c in a.collections]
    np.testing.assert_allclose(marked[-1], [0.0, 2 / 3])    # (FPR, TPR) at t = 0.75
    np.testing.assert_allclose([c.get_offsets()[0] for c in b.collections][-1], [2 / 3, 1.0])
    with pytest.raises(ValueError, match="labels 0 and 1"):
        threshold_counts([0, 2], [0.1, 0.2], 0.5)
    plt.close(fig)


def test_the_demo_parameter_matters_and_the_widgets_build():
    X, y = _demo_data(50, 0)
    one, many = _demo_model(1, "uniform", X, y), _demo_model(40, "uniform", X, y)
    assert one.score(X, y) == 1.0 > many.score(X, y)         # k = 1 remembers the training set
    with pytest.raises(ValueError, match="k must be"):
        _demo_model(0, "uniform", X, y)
    assert knn_demo(n_per_class=10).children[0].description == "k"
    w = threshold_demo(y == 1, one.predict_proba(X)[:, 1] + 0.0)
    assert w.children[0].description == "threshold t"
