"""mlnotes.plotting: generic drawings (decision boundaries for every kind of classifier)."""

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402
from sklearn.linear_model import LogisticRegression  # noqa: E402
from sklearn.naive_bayes import GaussianNB  # noqa: E402

from mlnotes.plotting import check_points_2d, draw_boundary, draw_decision_boundary, plane_grid  # noqa: E402


@pytest.fixture
def blobs():
    rng = np.random.default_rng(0)
    centres = np.array([[0.0, 0.0], [3.0, 0.0], [0.0, 3.0]])
    X = np.vstack([c + rng.standard_normal((30, 2)) for c in centres])
    return X, np.repeat([0, 1, 2], 30)


def _grid():
    return np.meshgrid(np.linspace(-3, 6, 40), np.linspace(-3, 6, 40))


@pytest.mark.parametrize("model, level", [(LogisticRegression(), 0.0), (GaussianNB(), 0.5)])
def test_draw_boundary_two_classes(blobs, model, level):
    # decision_function's level 0 when the model has one, else predict_proba's level 1/2
    X, y = blobs
    model.fit(X[y < 2], y[y < 2])
    fig, ax = plt.subplots()
    cs = draw_boundary(ax, model, *_grid(), colors="k")
    assert list(cs.levels) == [level]
    plt.close(fig)


def test_draw_boundary_between_regions_of_three_classes(blobs):
    X, y = blobs
    model = GaussianNB().fit(X, y)
    fig, ax = plt.subplots()
    assert {0.5, 1.5} <= set(draw_boundary(ax, model, *_grid()).levels)
    draw_decision_boundary(ax, model, X, y)
    assert ax.get_xlim() == pytest.approx((X[:, 0].min() - 0.5, X[:, 0].max() + 0.5))
    plt.close(fig)


def test_check_points_2d_rejects_bad_shapes():
    with pytest.raises(ValueError, match="exactly 2 features"):
        check_points_2d(np.zeros((4, 3)), np.zeros(4))
    with pytest.raises(ValueError, match=r"y must have shape \(4,\)"):
        check_points_2d(np.zeros((4, 2)), np.zeros(3))



def test_plane_grid_is_the_meshgrid_of_the_corners_or_of_the_axes():
    g0, g1, points = plane_grid((-1.0, 2.0), (3.0, 5.0), 7)
    e0, e1 = np.meshgrid(np.linspace(-1.0, 3.0, 7), np.linspace(2.0, 5.0, 7))
    assert np.array_equal(g0, e0) and np.array_equal(g1, e1)
    assert np.array_equal(points, np.column_stack([e0.ravel(), e1.ravel()]))
    fig, ax = plt.subplots()
    ax.set(xlim=(-1.0, 3.0), ylim=(2.0, 5.0))
    for got, expected in zip(plane_grid(None, None, 7, ax=ax), (g0, g1, points)):
        assert np.array_equal(got, expected)
    for bad in (1, 2.0, True):
        with pytest.raises(ValueError, match="resolution"):
            plane_grid((0, 0), (1, 1), bad)
    with pytest.raises(ValueError, match="not both"):
        plane_grid((0, 0), (1, 1), 5, ax=ax)
    with pytest.raises(ValueError, match="needed"):
        plane_grid(None, (1, 1), 5)
    plt.close(fig)

def test_no_drawing_asks_for_a_font_below_the_legible_minimum():
    """Legends and labels stay legible (issue 9): no explicit ``fontsize=`` in the library's drawings is below
    MIN_FONT_PT (the book's text is 11 pt)."""
    import re
    from pathlib import Path

    import mlnotes
    from mlnotes.plotting._style import MIN_FONT_PT

    root = Path(mlnotes.__file__).parent
    small = [f"{path.relative_to(root)}:{i}: {line.strip()}"
             for path in sorted(root.rglob("*.py")) for i, line in enumerate(path.read_text().splitlines(), 1)
             for size in re.findall(r"fontsize\s*=\s*(\d+(?:\.\d+)?)", line) if float(size) < MIN_FONT_PT]
    assert not small, "fonts below the legible minimum:\n" + "\n".join(small)
    # and the check can fail: a drawing that asks for 7 pt is found
    assert [s for s in re.findall(r"fontsize\s*=\s*(\d+(?:\.\d+)?)", "ax.legend(fontsize=7)") if float(s) < MIN_FONT_PT]
