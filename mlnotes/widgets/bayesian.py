r"""Demo of chapter "Probabilistic regression and Bayesian inference": Bayesian linear regression of a
line :math:`y = w_0 + w_1 x` as the data arrive, with posterior samples of lines and the predictive band."""

import numpy as np

from ..bayes import BayesianLinearRegression
from ..utils.validation import as_float_vector, check_scalar

__all__ = ["draw_posterior_lines", "bayesian_regression_demo"]


def _features(x):
    """The design matrix of a line, rows :math:`(1, x_i)`: the intercept gets the Gaussian prior too."""
    return np.column_stack([np.ones_like(x), x])


def draw_posterior_lines(ax, x, y, n_observed, *, noise_var, prior_var=1.0, n_lines=15, x_range=None,
                         true_line=None, random_state=0):
    r"""Draw posterior samples of lines and the predictive band after the first ``n_observed`` points.

    The model is :math:`y = w_0 + w_1 x + \epsilon`, :math:`\epsilon \sim \mathcal N(0, \sigma^2)`, with the
    prior :math:`(w_0, w_1) \sim \mathcal N(0, \sigma_p^2 I)`; with ``n_observed = 0`` the lines are drawn
    from the prior.

    Parameters
    ----------
    ax : matplotlib Axes
    x, y : arrays of shape (n_samples,)
        The data, revealed in this order.
    n_observed : int
        How many of them the posterior has seen, ``0 <= n_observed <= n_samples``.
    noise_var : float > 0
        :math:`\sigma^2`.
    prior_var : float > 0, default 1
        :math:`\sigma_p^2`.
    n_lines : int, default 15
        Number of posterior samples drawn.
    x_range : (float, float), optional
        The interval of the plot (default: the range of ``x``, widened by 10 %).
    true_line : (float, float), optional
        ``(w0, w1)`` of the line that generated the data, drawn dotted.
    random_state : int, default 0

    Returns
    -------
    mean : ndarray of shape (2,)
        Posterior mean of :math:`(w_0, w_1)`.
    cov : ndarray of shape (2, 2)
        Posterior covariance.
    """
    x = as_float_vector(x, "x")
    y = as_float_vector(y, "y", x.shape[0])
    if not (isinstance(n_observed, (int, np.integer)) and 0 <= n_observed <= x.shape[0]):
        raise ValueError(f"n_observed must be an integer in [0, {x.shape[0]}], got {n_observed!r}")
    noise_var = check_scalar(noise_var, "noise_var", low=0, include_low=False)
    prior_var = check_scalar(prior_var, "prior_var", low=0, include_low=False)
    if x_range is None:
        pad = 0.1 * (np.ptp(x) or 1.0)
        x_range = (x.min() - pad, x.max() + pad)
    grid = np.linspace(*x_range, 200)
    G = _features(grid)
    model = BayesianLinearRegression(noise_var, prior_var, fit_intercept=False)
    if n_observed:
        model.fit(_features(x[:n_observed]), y[:n_observed])
    else:                                                    # nothing seen yet: the posterior is the prior
        model.reset(2)
    W = model.sample_coef(n_lines, random_state=random_state)
    y_mean, y_std = model.predict(G, return_std=True)
    ax.fill_between(grid, y_mean - 2 * y_std, y_mean + 2 * y_std, color="C0", alpha=0.15,
                    label=r"predictive mean $\pm 2$ sd")
    ax.plot(grid, G @ W.T, color="C1", lw=0.8, alpha=0.6)
    ax.plot([], [], color="C1", lw=0.8, label="posterior samples")
    ax.plot(grid, y_mean, color="C0", lw=2, label="predictive mean")
    if true_line is not None:
        ax.plot(grid, true_line[0] + true_line[1] * grid, color="k", ls=":", lw=1.5, label="true line")
    ax.scatter(x[:n_observed], y[:n_observed], s=25, color="k", zorder=3, label="observed")
    ax.set(xlim=x_range, xlabel="$x$", ylabel="$y$")
    return model.coef_, model.sigma_


def bayesian_regression_demo(x, y, *, noise_var, prior_var=1.0, n_lines=15, true_line=None):
    """A widget: sliders for the number of observed points and the prior variance; redraws the posterior.

    Parameters
    ----------
    x, y : arrays of shape (n_samples,)
        The data, revealed in this order.
    noise_var : float > 0
        The noise variance of the model.
    prior_var : float > 0, default 1
        The initial prior variance of each weight.
    n_lines : int, default 15
        Number of posterior samples drawn.
    true_line : (float, float), optional
        ``(w0, w1)`` of the line that generated the data.

    Returns
    -------
    ipywidgets.interactive
    """
    import ipywidgets as widgets
    import matplotlib.pyplot as plt

    x = as_float_vector(x, "x")
    y = as_float_vector(y, "y", x.shape[0])
    prior_var = check_scalar(prior_var, "prior_var", low=0, include_low=False)
    limits = (y.min() - 1.0 * np.ptp(y), y.max() + 1.0 * np.ptp(y))

    def update(n_observed, log10_prior_var):
        fig, ax = plt.subplots(figsize=(6, 3.8))
        mean, _ = draw_posterior_lines(ax, x, y, n_observed, noise_var=noise_var, prior_var=10.0**log10_prior_var,
                                       n_lines=n_lines, true_line=true_line)
        ax.set_ylim(*limits)
        ax.set_title(f"{n_observed} points seen: posterior mean line {mean[0]:.2f} {mean[1]:+.2f} x")
        ax.legend(loc="upper left", fontsize=9)
        plt.show()

    return widgets.interactive(
        update,
        n_observed=widgets.IntSlider(value=2, min=0, max=x.shape[0], step=1, description="points"),
        log10_prior_var=widgets.FloatSlider(value=float(np.log10(prior_var)), min=-2.0, max=2.0, step=0.25,
                                            description="log10 σp²"),
    )
