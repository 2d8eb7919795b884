"""mlnotes.widgets.kernels (chapter 15): the random-feature drawing and its widget."""

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402

from mlnotes.kernels import RBFSampler, rbf_kernel  # noqa: E402
from mlnotes.widgets.kernels import draw_random_features, random_features_demo  # noqa: E402


def test_draw_random_features_reports_the_error_of_the_drawn_estimate():
    X = np.random.default_rng(1).normal(size=(25, 2))
    errors = {}
    for D in (4, 4096):
        fig, axes = plt.subplots(1, 2)
        errors[D] = draw_random_features(axes, X, gamma=0.7, n_components=D, random_state=3)
        # the returned error is the one of the sampler it says it drew
        Z = RBFSampler(gamma=0.7, n_components=D, random_state=3).fit(X).transform(X)
        assert errors[D] == pytest.approx(np.abs(Z @ Z.T - rbf_kernel(X, gamma=0.7)).max(), rel=1e-12)
        assert len(axes[0].lines) == 3 and len(axes[1].collections) == 1
        assert f"max error {errors[D]:.3f}" in axes[1].get_title()
        plt.close(fig)
    assert errors[4096] < 0.1 < errors[4]          # the parameter matters: more features, smaller error


def test_draw_random_features_and_demo_errors():
    fig, axes = plt.subplots(1, 2)
    with pytest.raises(ValueError, match="at least 2 samples"):
        draw_random_features(axes, np.zeros((1, 2)))
    with pytest.raises(ValueError, match="x_range"):
        draw_random_features(axes, np.zeros((3, 2)), x_range=(1.0, -1.0))
    with pytest.raises(ValueError, match="gamma"):
        draw_random_features(axes, np.eye(3), gamma=0.0)
    plt.close(fig)
    with pytest.raises(ValueError, match="n_samples"):
        random_features_demo(n_samples=1)
    demo = random_features_demo(n_samples=10)
    assert [w.description for w in demo.children[:2]] == ["log₂ D", "γ"]
    plt.close("all")
