"""Demo of chapter 3, *Probability and Gaussians*: conditioning a bivariate Gaussian."""

import numpy as np

from ..plotting import plane_grid
from ..stats import gaussian_condition, mvn_logpdf
from ..utils.validation import check_scalar

__all__ = ["draw_gaussian_condition", "gaussian_condition_demo"]


def draw_gaussian_condition(ax, mean, cov, x2, *, legend=True):
    r"""Draw a bivariate Gaussian, the slice :math:`x_2 = \text{const}` and the conditional density.

    Parameters
    ----------
    ax : matplotlib Axes
    mean : array of shape (2,)
    cov : array of shape (2, 2)
        Symmetric positive definite.
    x2 : float
        The observed value of the second coordinate.
    legend : bool
        Whether to draw the legend.

    Returns
    -------
    mean_cond, var_cond : float
        The mean and variance of :math:`x_1 \mid x_2`, from
        :func:`mlnotes.stats.gaussian_condition`.

    Notes
    -----
    The contours are those of the joint density; the red line is the slice :math:`x_2 =` ``x2``
    and the red curve on it the conditional density of :math:`x_1`; the dashed line is the conditional mean :math:`\mathbb E[x_1 \mid x_2]` as
    :math:`x_2` varies, and the grey curve at the bottom the marginal density of :math:`x_1`,
    drawn to the same vertical scale as the conditional one.
    """
    x2 = check_scalar(x2, "x2")
    if cov is not None and np.shape(cov) != (2, 2):
        raise ValueError(f"cov must have shape (2, 2) (a bivariate Gaussian), got shape {np.shape(cov)}")
    m_c, v_c = gaussian_condition(mean, cov, [1], [x2])      # validates mean and cov
    m_c, v_c = float(m_c[0]), float(v_c[0, 0])
    mu, S = np.asarray(mean, dtype=float), np.asarray(cov, dtype=float)
    mu1, mu2, var1, var2 = mu[0], mu[1], S[0, 0], S[1, 1]     # the marginals are the diagonal entries
    s1, s2 = np.sqrt(var1), np.sqrt(var2)
    lo1, hi1 = mu1 - 3.2 * s1, mu1 + 3.2 * s1
    lo2, hi2 = min(mu2 - 3.2 * s2, x2 - 0.5 * s2), max(mu2 + 3.2 * s2, x2 + 1.8 * s2)
    g1, g2, grid = plane_grid((lo1, lo2), (hi1, hi2), 161)
    density = np.exp(mvn_logpdf(grid, mu, S)).reshape(g1.shape)
    ax.contour(g1, g2, density, levels=6, cmap="Blues", linewidths=1)
    # E[x1 | x2 = t] = mu1 + S12 / S22 (t - mu2), a straight line in t
    t = np.array([lo2, hi2])
    ax.plot(mu1 + S[0, 1] / S[1, 1] * (t - mu2), t, color="0.35", ls="--", lw=1,
            label=r"$\mathbb{E}[x_1 \mid x_2]$")
    ax.axhline(x2, color="C3", lw=1)
    x1 = np.linspace(lo1, hi1, 400)
    cond = np.exp(mvn_logpdf(x1[:, None], m_c, [[v_c]]))
    marg = np.exp(mvn_logpdf(x1[:, None], mu1, [[var1]]))
    scale = 0.3 * (hi2 - lo2) / cond.max()          # one scale for both densities: heights compare
    ax.fill_between(x1, x2, x2 + scale * cond, color="C3", alpha=0.25)
    ax.plot(x1, x2 + scale * cond, color="C3", label=r"$p(x_1 \mid x_2)$ on the slice")
    ax.plot(x1, lo2 + scale * marg, color="0.5", label=r"$p(x_1)$, the marginal")
    ax.set(xlim=(lo1, hi1), ylim=(lo2, hi2), xlabel="$x_1$", ylabel="$x_2$")
    if legend:
        ax.legend(loc="upper left", bbox_to_anchor=(1.02, 1.0), fontsize=9)
    return m_c, v_c


def gaussian_condition_demo(*, mean=(0.0, 0.0), sigma=(1.0, 1.0)):
    """A widget: sliders for the correlation rho and the observed x2; redraws the joint contours,
    the slice and the conditional density of x1 given x2.

    Parameters
    ----------
    mean : pair of float
        Mean of the bivariate Gaussian.
    sigma : pair of float
        Standard deviations of the two coordinates (positive).

    Returns
    -------
    ipywidgets.interactive
    """
    import ipywidgets as widgets
    import matplotlib.pyplot as plt

    s1 = check_scalar(sigma[0], "sigma[0]", low=0.0, include_low=False)
    s2 = check_scalar(sigma[1], "sigma[1]", low=0.0, include_low=False)
    mu = np.array([check_scalar(mean[0], "mean[0]"), check_scalar(mean[1], "mean[1]")])

    def update(rho, x2):
        cov = np.array([[s1**2, rho * s1 * s2], [rho * s1 * s2, s2**2]])
        fig, ax = plt.subplots(figsize=(7.5, 4.2))
        m_c, v_c = draw_gaussian_condition(ax, mu, cov, x2)
        ax.set_title(rf"$\rho$ = {rho:.2f}:  $x_1 \mid x_2$ = {x2:.2f} $\sim \mathcal{{N}}$({m_c:.2f}, {v_c:.2f})")
        plt.show()

    return widgets.interactive(
        update,
        rho=widgets.FloatSlider(value=0.7, min=-0.95, max=0.95, step=0.05, description="ρ"),
        x2=widgets.FloatSlider(value=float(mu[1] + s2), min=float(mu[1] - 2.5 * s2), max=float(mu[1] + 2.5 * s2),
                               step=0.1 * s2, description="observed x₂"),
    )
