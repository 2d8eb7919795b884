"""mlnotes.widgets.gp (chapter 17): the drawings show the GP posterior the library computes, and the widget's
sliders (points, length scale, noise) change what is drawn."""

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402
from numpy.testing import assert_allclose  # noqa: E402

from mlnotes.gp import GaussianProcessRegressor  # noqa: E402
from mlnotes.widgets.gp import draw_gp_posterior, draw_gp_prior_samples, gp_demo  # noqa: E402

X = np.array([-2.0, -0.5, 0.3, 1.7, 2.5])
Y = np.sin(X)


def _band(ax, index):
    """(lower, upper) of the index-th fill_between of the axes, as arrays over the 200-point grid."""
    path = ax.collections[index].get_paths()[0].vertices
    return path[1:201, 1], path[202:402, 1][::-1]


def test_posterior_mean_and_band_are_the_library_posterior():
    fig, ax = plt.subplots()
    gp = draw_gp_posterior(ax, X, Y, length_scale=0.8, noise=0.05, n_observed=4)
    grid = np.linspace(X.min() - 0.45, X.max() + 0.45, 200)
    ref = GaussianProcessRegressor(length_scale=0.8, alpha=0.05, optimizer=None).fit(X[:4, None], Y[:4])
    mean, std = ref.predict(grid[:, None], return_std=True)
    assert_allclose(ax.lines[0].get_ydata(), mean, rtol=1e-12, atol=1e-12)
    lower, upper = _band(ax, 1)                   # the band of f (the second fill)
    assert_allclose(upper - lower, 4 * std, rtol=1e-9, atol=1e-12)
    lower_y, upper_y = _band(ax, 0)               # the band of a new observation adds the noise variance
    assert_allclose(upper_y - lower_y, 4 * np.sqrt(std ** 2 + 0.05), rtol=1e-9)
    assert gp.length_scale_ == 0.8 and len(gp.X_train_) == 4
    plt.close(fig)


def test_interpolation_pinches_the_band_at_the_data():
    fig, ax = plt.subplots()
    gp = draw_gp_posterior(ax, X, Y, length_scale=1.0, noise=0.0)
    _, std = gp.predict(X[:, None], return_std=True)
    assert np.all(std < 1e-4)
    plt.close(fig)


def test_no_points_draws_the_prior_and_samples():
    fig, ax = plt.subplots()
    assert draw_gp_posterior(ax, X, Y, length_scale=1.0, noise=0.1, n_observed=0, n_samples=3) is None
    assert_allclose(ax.lines[-1].get_ydata(), 0.0)        # the prior mean
    fig2, ax2 = plt.subplots()
    F_short = draw_gp_prior_samples(ax2, 0.3, n_samples=200, random_state=1)
    F_long = draw_gp_prior_samples(ax2, 3.0, n_samples=200, random_state=1)
    assert F_short.shape == (200, 200)
    # a shorter length scale gives rougher functions: larger steps between neighbouring grid points
    assert np.mean(np.abs(np.diff(F_short, axis=0))) > 3 * np.mean(np.abs(np.diff(F_long, axis=0)))
    plt.close(fig)
    plt.close(fig2)


@pytest.mark.parametrize("kwargs, message", [
    ({"length_scale": 0.0, "noise": 0.1}, "length_scale"),
    ({"length_scale": 1.0, "noise": -1.0}, "noise"),
    ({"length_scale": 1.0, "noise": 0.1, "n_observed": 9}, "n_observed"),
])
def test_bad_arguments_raise(kwargs, message):
    fig, ax = plt.subplots()
    with pytest.raises(ValueError, match=message):
        draw_gp_posterior(ax, X, Y, **kwargs)
    plt.close(fig)


def test_widget_sliders_change_the_drawing(monkeypatch):
    shown = []
    monkeypatch.setattr(plt, "show", lambda: shown.append(plt.gcf()))
    demo = gp_demo(X, Y, length_scale=1.0, noise=0.01)
    names = [c.description for c in demo.children[:-1]]
    assert names == ["points", "log10 ℓ", "log10 σ²"]
    points, length, noise = demo.children[:3]
    titles = []
    for widget, value in [(length, -1.0), (noise, -0.5), (points, 2)]:
        widget.value = value
        titles.append(shown[-1].axes[0].get_title())
    assert len(set(titles)) == 3
    assert "2 points" in titles[-1] and "ℓ = 0.1" in titles[-1] and "log marginal likelihood" in titles[-1]
    plt.close("all")


def test_widget_title_reports_the_library_log_marginal_likelihood(monkeypatch):
    shown = []
    monkeypatch.setattr(plt, "show", lambda: shown.append(plt.gcf()))
    demo = gp_demo(X, Y, length_scale=1.0, noise=0.01)
    points, length, noise = demo.children[:3]
    points.value, length.value, noise.value = 4, -0.2, -8.0          # 4 points, l = 10**-0.2, sigma^2 = 1e-8
    title = shown[-1].axes[0].get_title()
    reference = GaussianProcessRegressor(length_scale=10 ** -0.2, alpha=1e-8, optimizer=None).fit(X[:4, None], Y[:4])
    assert title.endswith(f"log marginal likelihood {reference.log_marginal_likelihood():.2f}")
    assert "σ² = 1e-08" in title
    plt.close("all")
