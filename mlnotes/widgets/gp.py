r"""Demo of chapter "Gaussian processes": the posterior of a Gaussian process with an RBF kernel as data
arrive, for a chosen length scale :math:`\ell` and noise variance :math:`\sigma^2`, and samples of the prior."""

from numbers import Integral, Real

import numpy as np

from ..gp import GaussianProcessRegressor
from ..kernels import rbf_kernel
from ..utils.validation import as_float_vector, check_scalar

__all__ = ["draw_gp_prior_samples", "draw_gp_posterior", "gp_demo"]


def _prior_samples(grid, length_scale, amplitude, n_samples, random_state):
    """Values on ``grid`` of ``n_samples`` functions drawn from the RBF prior, shape (len(grid), n_samples)."""
    K = amplitude * rbf_kernel(grid[:, None], grid[:, None], gamma=0.5 / length_scale ** 2)
    # eigh, not Cholesky: the RBF kernel matrix on a fine grid is singular to working precision
    return np.random.default_rng(random_state).multivariate_normal(np.zeros(len(grid)), K, size=n_samples,
                                                                   method="eigh").T


def draw_gp_prior_samples(ax, length_scale, *, amplitude=1.0, n_samples=4, x_range=(-5.0, 5.0), n_grid=200,
                          random_state=0):
    r"""Draw functions sampled from the prior :math:`f \sim \mathcal{GP}(0, a\exp(-(x - x')^2/(2\ell^2)))`.

    Parameters
    ----------
    ax : matplotlib Axes
    length_scale : float > 0
        :math:`\ell`.
    amplitude : float > 0, default 1
        :math:`a`, the prior variance of :math:`f(x)`; the band :math:`\pm 2\sqrt a` is shaded.
    n_samples : int >= 1, default 4
    x_range : (float, float), default (-5, 5)
    n_grid : int >= 2, default 200
        Number of grid points the functions are evaluated at.
    random_state : int, default 0

    Returns
    -------
    F : ndarray of shape (n_grid, n_samples)
        The sampled function values on the grid.
    """
    length_scale = check_scalar(length_scale, "length_scale", Real, min_val=0, include_boundaries="neither")
    amplitude = check_scalar(amplitude, "amplitude", Real, min_val=0, include_boundaries="neither")
    n_samples = check_scalar(n_samples, "n_samples", Integral, min_val=1)
    n_grid = check_scalar(n_grid, "n_grid", Integral, min_val=2)
    grid = np.linspace(*x_range, n_grid)
    F = _prior_samples(grid, length_scale, amplitude, n_samples, random_state)
    ax.fill_between(grid, -2 * np.sqrt(amplitude), 2 * np.sqrt(amplitude), color="C0", alpha=0.12,
                    label=r"prior mean $\pm 2$ sd")
    ax.plot(grid, F, lw=1.4)
    ax.axhline(0.0, color="C0", lw=1.5)
    ax.set(xlim=x_range, xlabel="$x$", ylabel="$f(x)$")
    return F


def draw_gp_posterior(ax, x, y, *, length_scale, noise, amplitude=1.0, n_observed=None, n_samples=0,
                      x_range=None, true_function=None, random_state=0):
    r"""Draw the posterior of :math:`f` after the first ``n_observed`` points: mean, :math:`\pm 2` sd band of
    :math:`f` and of a new observation :math:`y_\star`, optional posterior samples, and the data.

    The model is ``GaussianProcessRegressor(amplitude=a, length_scale=l, alpha=noise, optimizer=None)``; with
    ``n_observed = 0`` the prior is drawn.

    Parameters
    ----------
    ax : matplotlib Axes
    x, y : arrays of shape (n_samples,)
        One-dimensional inputs and their labels, revealed in this order.
    length_scale : float > 0
        :math:`\ell`.
    noise : float >= 0
        :math:`\sigma^2` (``alpha``); 0 interpolates (a jitter of 1e-10 is added).
    amplitude : float > 0, default 1
    n_observed : int, optional
        How many points the posterior has seen (default: all).
    n_samples : int >= 0, default 0
        Posterior samples of :math:`f` to draw.
    x_range : (float, float), optional
        The interval of the plot (default: the range of ``x`` widened by 10 %).
    true_function : callable, optional
        Drawn dotted.
    random_state : int, default 0

    Returns
    -------
    gp : GaussianProcessRegressor or None
        The fitted model (None when ``n_observed = 0``).
    """
    x = as_float_vector(x, "x")
    y = as_float_vector(y, "y", x.shape[0])
    n_observed = x.shape[0] if n_observed is None else n_observed
    n_observed = check_scalar(n_observed, "n_observed", Integral, min_val=0, max_val=x.shape[0])
    noise = check_scalar(noise, "noise", Real, min_val=0)
    amplitude = check_scalar(amplitude, "amplitude", Real, min_val=0, include_boundaries="neither")
    n_samples = check_scalar(n_samples, "n_samples", Integral, min_val=0)
    if x_range is None:
        pad = 0.1 * (np.ptp(x) or 1.0)
        x_range = (x.min() - pad, x.max() + pad)
    grid = np.linspace(*x_range, 200)
    gp = None
    if n_observed:
        gp = GaussianProcessRegressor(amplitude=amplitude, length_scale=length_scale, alpha=max(noise, 1e-10),
                                      optimizer=None).fit(x[:n_observed, None], y[:n_observed])
        mean, std_f = gp.predict(grid[:, None], return_std=True)
        F = gp.sample_y(grid[:, None], n_samples, random_state=random_state) if n_samples else None
    else:                                         # nothing observed: the prior
        length_scale = check_scalar(length_scale, "length_scale", Real, min_val=0, include_boundaries="neither")
        mean, std_f = np.zeros_like(grid), np.full_like(grid, np.sqrt(amplitude))
        F = _prior_samples(grid, length_scale, amplitude, n_samples, random_state) if n_samples else None
    std_y = np.sqrt(std_f ** 2 + noise)
    ax.fill_between(grid, mean - 2 * std_y, mean + 2 * std_y, color="C1", alpha=0.12,
                    label=r"$\pm 2$ sd of $y_\star$")
    ax.fill_between(grid, mean - 2 * std_f, mean + 2 * std_f, color="C0", alpha=0.25,
                    label=r"$\pm 2$ sd of $f(x_\star)$")
    if F is not None:
        ax.plot(grid, F, color="C2", lw=0.8, alpha=0.7)
        ax.plot([], [], color="C2", lw=0.8, label="samples of $f$")
    ax.plot(grid, mean, color="C0", lw=2, label="posterior mean")
    if true_function is not None:
        ax.plot(grid, true_function(grid), color="k", ls=":", lw=1.5, label="true function")
    ax.scatter(x[:n_observed], y[:n_observed], s=25, color="k", zorder=3, label="observed")
    ax.set(xlim=x_range, xlabel="$x$", ylabel="$y$")
    return gp


def gp_demo(x, y, *, length_scale=1.0, noise=0.01, amplitude=1.0, true_function=None):
    r"""A widget: sliders for the number of observed points, :math:`\log_{10}\ell` and :math:`\log_{10}\sigma^2`;
    redraws the posterior and prints the log marginal likelihood of the points seen.

    Parameters
    ----------
    x, y : arrays of shape (n_samples,)
        One-dimensional inputs and labels, revealed in this order.
    length_scale : float > 0, default 1
        The initial :math:`\ell`.
    noise : float > 0, default 0.01
        The initial :math:`\sigma^2`.
    amplitude : float > 0, default 1
    true_function : callable, optional

    Returns
    -------
    ipywidgets.interactive
    """
    import ipywidgets as widgets
    import matplotlib.pyplot as plt

    x = as_float_vector(x, "x")
    y = as_float_vector(y, "y", x.shape[0])
    length_scale = check_scalar(length_scale, "length_scale", Real, min_val=0, include_boundaries="neither")
    noise = check_scalar(noise, "noise", Real, min_val=0, include_boundaries="neither")
    limits = (y.min() - 0.8 * np.ptp(y), y.max() + 0.8 * np.ptp(y))

    def update(n_observed, log10_length_scale, log10_noise):
        fig, ax = plt.subplots(figsize=(6.5, 4), layout="constrained")
        gp = draw_gp_posterior(ax, x, y, length_scale=10.0 ** log10_length_scale, noise=10.0 ** log10_noise,
                               amplitude=amplitude, n_observed=n_observed, true_function=true_function)
        ax.set_ylim(*limits)
        lml = "" if gp is None else f", log marginal likelihood {gp.log_marginal_likelihood():.2f}"
        ax.set_title(f"{n_observed} points, ℓ = {10.0 ** log10_length_scale:.3g}, "
                     f"σ² = {10.0 ** log10_noise:.2g}{lml}")
        ax.legend(loc="upper left", ncols=2)
        plt.show()

    return widgets.interactive(
        update,
        n_observed=widgets.IntSlider(value=x.shape[0], min=0, max=x.shape[0], step=1, description="points"),
        log10_length_scale=widgets.FloatSlider(value=float(np.log10(length_scale)), min=-1.5, max=1.0, step=0.1,
                                               description="log10 ℓ"),
        log10_noise=widgets.FloatSlider(value=float(np.log10(noise)), min=-8.0, max=0.5, step=0.25,
                                        description="log10 σ²"),     # down to 1e-8: nearly interpolation
    )
