"""mlnotes.widgets.kernel_methods: the wave data, the drawing of a kernel ridge fit and the gamma/alpha demo of
chapter 16."""

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402

from mlnotes.kernels import KernelRidge  # noqa: E402
from mlnotes.widgets.kernel_methods import draw_kernel_ridge, kernel_ridge_demo, make_wave  # noqa: E402


def test_make_wave_is_seeded_sorted_and_follows_the_wave():
    X, y = make_wave(30, noise=0.0, random_state=3)
    assert X.shape == (30, 1) and y.shape == (30,)
    assert np.all(np.diff(X[:, 0]) >= 0)
    np.testing.assert_allclose(y, np.sin(2 * X[:, 0]) + X[:, 0] / 3, rtol=0, atol=1e-15)
    np.testing.assert_array_equal(make_wave(30, random_state=3)[0], X)
    assert not np.array_equal(make_wave(30, random_state=4)[0], X)


def test_make_wave_rejects_bad_arguments():
    with pytest.raises(ValueError, match="n_samples"):
        make_wave(1)
    with pytest.raises(TypeError, match="n_samples"):
        make_wave(10.0)
    with pytest.raises(ValueError, match="noise"):
        make_wave(10, noise=-0.1)


def test_draw_kernel_ridge_draws_the_fit_of_kernel_ridge_and_reports_the_errors():
    X, y = make_wave(25, random_state=0)
    X_test, y_test = make_wave(50, random_state=1)
    fig, ax = plt.subplots()
    model = draw_kernel_ridge(ax, X, y, gamma=2.0, alpha=0.1, X_test=X_test, y_test=y_test, resolution=50)
    reference = KernelRidge(alpha=0.1, kernel="rbf", gamma=2.0).fit(X, y)
    np.testing.assert_allclose(model.dual_coef_, reference.dual_coef_, rtol=1e-12)
    (curve,) = ax.get_lines()
    np.testing.assert_allclose(curve.get_ydata(), reference.predict(curve.get_xdata()[:, None]), rtol=1e-12)
    test_mse = np.mean((reference.predict(X_test) - y_test) ** 2)
    assert f"test MSE {test_mse:.3f}" in curve.get_label()
    plt.close(fig)


def test_the_bandwidth_matters_a_narrow_kernel_interpolates():
    X, y = make_wave(25, random_state=0)
    fig, ax = plt.subplots()
    narrow = draw_kernel_ridge(ax, X, y, gamma=1e4, alpha=1e-6, resolution=20)
    wide = draw_kernel_ridge(ax, X, y, gamma=1e-2, alpha=1e-6, resolution=20)
    assert np.max(np.abs(narrow.predict(X) - y)) < 1e-4 < np.max(np.abs(wide.predict(X) - y))
    plt.close(fig)


def test_draw_kernel_ridge_rejects_more_than_one_feature_and_bad_parameters():
    X, y = make_wave(10)
    fig, ax = plt.subplots()
    with pytest.raises(ValueError, match="one feature"):
        draw_kernel_ridge(ax, np.hstack([X, X]), y, gamma=1.0, alpha=1.0)
    with pytest.raises(ValueError, match="gamma"):
        draw_kernel_ridge(ax, X, y, gamma=0.0, alpha=1.0)
    with pytest.raises(ValueError, match="alpha"):
        draw_kernel_ridge(ax, X, y, gamma=1.0, alpha=-1.0)
    plt.close(fig)


def test_kernel_ridge_demo_builds_two_sliders_and_redraws():
    demo = kernel_ridge_demo(n_samples=15)
    sliders = {child.description: child for child in demo.children if hasattr(child, "min")}
    assert set(sliders) == {"log10 γ", "log10 α"}
    sliders["log10 γ"].value = 1.0                  # triggers a redraw: must not raise
    demo.update()
    plt.close("all")
