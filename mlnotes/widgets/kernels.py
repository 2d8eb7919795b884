r"""Demo of chapter 15, *Feature maps and kernels*: random Fourier features approximating the Gaussian kernel.

With :math:`D` random frequencies :math:`w_j \sim \mathcal N(0, 2\gamma I)` and phases :math:`b_j \sim
\mathcal U(0, 2\pi)`, the features :math:`z(x) = \sqrt{2/D}\,\cos(W^\top x + b)` give
:math:`z(x)^\top z(y) \approx e^{-\gamma\lVert x - y\rVert^2}`, with an error of order :math:`1/\sqrt D`.
The drawing shows the kernel's profile :math:`k(x, 0)` on a line next to its random-feature estimate, and
every entry of a Gram matrix of points in the plane against its estimate.
"""

import numpy as np

from ..kernels import RBFSampler, rbf_kernel
from ..utils.validation import as_float_matrix, check_scalar

__all__ = ["draw_random_features", "random_features_demo"]


def draw_random_features(axes, X, *, gamma=1.0, n_components=100, random_state=0, x_range=(-4.0, 4.0)):
    r"""Draw how well ``n_components`` random Fourier features approximate the Gaussian kernel.

    Parameters
    ----------
    axes : sequence of two matplotlib Axes
        Left: the profile :math:`t \mapsto k(t e_1, 0)` along the first coordinate axis, exact (black) and
        estimated (colour). Right: every entry of the Gram matrix of ``X`` estimated against exact, with
        the diagonal :math:`y = x`.
    X : array-like of shape (n_samples, n_features)
        Points whose Gram matrix is compared (at least 2 samples).
    gamma : float, default 1.0
        The kernel :math:`e^{-\gamma\lVert x - y\rVert^2}`, :math:`\gamma > 0`.
    n_components : int, default 100
        The number :math:`D` of random features.
    random_state : int, default 0
        Seed of the frequencies (the same seed draws the first frequencies alike for every ``D``).
    x_range : tuple of float, default (-4, 4)
        The interval of :math:`t` in the left panel.

    Returns
    -------
    max_error : float
        :math:`\max_{i,j} |z(x_i)^\top z(x_j) - k(x_i, x_j)|`, shown in the right panel's title.

    Raises
    ------
    ValueError
        If ``X`` has fewer than 2 samples, or on a bad ``gamma``/``n_components`` (see
        :class:`mlnotes.kernels.RBFSampler`).
    """
    X = as_float_matrix(X)
    if X.shape[0] < 2:
        raise ValueError(f"X must have at least 2 samples to draw a Gram matrix, got {X.shape[0]}")
    lo, hi = (check_scalar(v, name) for v, name in zip(x_range, ("x_range[0]", "x_range[1]")))
    if not lo < hi:
        raise ValueError(f"x_range must be an interval (low, high) with low < high, got {x_range!r}")
    sampler = RBFSampler(gamma=gamma, n_components=n_components, random_state=random_state).fit(X)
    ax_line, ax_gram = axes
    t = np.linspace(lo, hi, 401)
    line = np.zeros((t.size, X.shape[1]))
    line[:, 0] = t
    origin = np.zeros((1, X.shape[1]))
    exact_line = rbf_kernel(line, origin, gamma=gamma)[:, 0]
    estimate_line = (sampler.transform(line) @ sampler.transform(origin).T)[:, 0]
    ax_line.plot(t, exact_line, color="k", lw=2, label="exact $e^{-\\gamma t^2}$")
    ax_line.plot(t, estimate_line, color="C3", lw=1.5, label=f"$z(t e_1)^\\top z(0)$, $D = {n_components}$")
    ax_line.axhline(0, color="0.6", lw=0.8)
    ax_line.set(xlabel="$t$", ylabel="$k(t e_1, 0)$", ylim=(-1.0, 1.3), title=f"profile, $\\gamma = {gamma:g}$")
    ax_line.legend(loc="lower center", framealpha=0.9)
    K = rbf_kernel(X, gamma=gamma)
    Z = sampler.transform(X)
    K_hat = Z @ Z.T
    max_error = float(np.abs(K_hat - K).max())
    ax_gram.scatter(K.ravel(), K_hat.ravel(), s=8, color="C0", alpha=0.5)
    ax_gram.plot([0, 1], [0, 1], color="k", lw=1)
    ax_gram.set(xlabel="exact $k(x_i, x_j)$", ylabel="estimate $z(x_i)^\\top z(x_j)$", xlim=(-0.05, 1.05),
                ylim=(-0.6, 1.6), title=f"{X.shape[0]}$^2$ entries, max error {max_error:.3f}")
    return max_error


def random_features_demo(*, n_samples=40, random_state=0):
    r"""A widget: sliders for the number of random features :math:`D` (powers of 2) and the kernel's
    :math:`\gamma`; redraws :func:`draw_random_features` for ``n_samples`` standard normal points in the
    plane.

    Parameters
    ----------
    n_samples : int, default 40
        Points of the Gram matrix (at least 2).
    random_state : int, default 0
        Seed of the points and of the random features.

    Returns
    -------
    ipywidgets.interactive
    """
    import ipywidgets as widgets
    import matplotlib.pyplot as plt

    if isinstance(n_samples, bool) or not isinstance(n_samples, (int, np.integer)) or n_samples < 2:
        raise ValueError(f"n_samples must be an integer >= 2, got {n_samples!r}")
    X = np.random.default_rng(random_state).normal(size=(n_samples, 2))

    def update(log2_D, gamma):
        fig, axes = plt.subplots(1, 2, figsize=(7.2, 3.4), layout="constrained")
        draw_random_features(axes, X, gamma=gamma, n_components=2**log2_D, random_state=random_state)
        plt.show()

    return widgets.interactive(
        update,
        log2_D=widgets.IntSlider(value=6, min=1, max=14, step=1, description="log₂ D"),
        gamma=widgets.FloatLogSlider(value=0.5, base=10, min=-1.5, max=1, step=0.1, description="γ"),
    )
