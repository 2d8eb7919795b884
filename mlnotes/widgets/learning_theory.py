"""Demo of chapter 4, *Statistical learning theory*: the excess-risk decomposition of a polynomial fit."""

import numpy as np

from ..risk import RegressionProblem, excess_risk_decomposition, fit_polynomial, legendre_features

__all__ = ["draw_excess_risk", "excess_risk_demo"]

#: Sample sizes offered by the demo's slider.
SAMPLE_SIZES = (10, 20, 50, 100, 200, 500, 1000)


def _check_problem(problem):
    problem = RegressionProblem() if problem is None else problem
    if not isinstance(problem, RegressionProblem):
        raise TypeError(f"problem must be a mlnotes.risk.RegressionProblem, got {type(problem).__name__}")
    return problem


def draw_excess_risk(axes, degree, n_samples, *, problem=None, n_repeats=20, random_state=0):
    r"""Draw a polynomial least-squares fit and its excess-risk decomposition.

    Left: the first ``n_samples`` points of a fixed sample, the Bayes decision function :math:`f^*`, the
    best polynomial :math:`f_{\mathcal F}` of the degree and the least-squares fit :math:`\hat f_n`.
    Right (log scale): the approximation error, the estimation error of this fit and its median over
    ``n_repeats`` fresh samples (a diamond; the median, because near ``n_samples = degree + 1`` the
    estimation error is so heavy-tailed that one sample can dominate the mean), and the excess risk.

    Parameters
    ----------
    axes : pair of matplotlib Axes
    degree : int >= 0
        Polynomial degree :math:`p`.
    n_samples : int >= 1
    problem : mlnotes.risk.RegressionProblem, optional
        The known distribution (default: :math:`\sin 2\pi x` plus noise of standard deviation 0.3).
    n_repeats : int >= 1, default 20
    random_state : int, default 0
        Seed of the drawn sample (the first ``n_samples`` of 1000 points, so that a larger ``n_samples``
        adds points) and of the repetitions.

    Returns
    -------
    dict
        ``approximation``, ``estimation`` (this fit), ``median_estimation``, ``mean_estimation`` and
        ``max_estimation`` (over the ``n_repeats`` fresh samples) and ``excess`` (this fit).
    """
    problem = _check_problem(problem)
    ax_fit, ax_bar = axes
    x_all, y_all = problem.sample(max(SAMPLE_SIZES[-1], n_samples), random_state)
    x, y = x_all[:n_samples], y_all[:n_samples]
    w_hat = fit_polynomial(x, y, degree)
    c = problem.best_coefficients(degree)
    approximation = problem.approximation_error(degree)
    estimation = float(np.sum((w_hat - c) ** 2))
    repeated = excess_risk_decomposition(problem, [degree], [n_samples], n_repeats=n_repeats,
                                         random_state=random_state + 1)
    fresh = repeated.estimation.ravel()
    median_estimation = float(np.median(fresh))

    grid = np.linspace(0.0, 1.0, 301)
    Phi = legendre_features(grid, degree)
    ax_fit.scatter(x, y, s=10 if n_samples > 100 else 18, color="0.55", alpha=0.6, label="sample")
    ax_fit.plot(grid, problem.target(grid), color="k", lw=2, label="Bayes $f^*$")
    ax_fit.plot(grid, Phi @ c, color="C2", ls="--", lw=2, label=r"best in class $f_{\mathcal{F}}$")
    ax_fit.plot(grid, Phi @ w_hat, color="C3", lw=1.5, label=r"ERM $\hat f_n$")
    spread = float(np.ptp(problem.target(grid))) + 4 * problem.noise
    centre = float(np.mean(problem.target(grid)))
    ax_fit.set(xlabel="$x$", ylabel="$y$", ylim=(centre - spread / 1.15, centre + spread / 1.6),
               title=f"degree {degree}, n = {n_samples}")
    ax_fit.legend(loc="lower left", fontsize=9, ncol=2)

    floor = 1e-6
    names = ["approximation", "estimation\n(this sample)", "excess\n(this sample)"]
    values = [approximation, estimation, approximation + estimation]
    ax_bar.bar(names, np.maximum(values, floor), color=["C2", "C3", "C0"])
    for name, value in zip(names, values):
        ax_bar.annotate(f"{value:.2g}" if value >= floor else f"< {floor:g}", (name, max(value, floor)), ha="center", va="bottom", fontsize=9,
                        xytext=(0, 2), textcoords="offset points")
    ax_bar.scatter([names[1]], [max(median_estimation, floor)], marker="D", color="k", zorder=3)
    ax_bar.set_yscale("log")
    ax_bar.set_ylim(floor, max(10.0, 3 * max(values + [median_estimation])))
    ax_bar.set_ylabel("risk above the Bayes risk")
    ax_bar.set_title(f"Bayes risk $\\sigma^2$ = {problem.bayes_risk:.3g}")
    ax_bar.set_xlabel(f"diamond: median estimation error over {n_repeats} fresh samples", fontsize=9)
    ax_bar.tick_params(axis="x", labelsize=8)
    return {"approximation": approximation, "estimation": estimation, "median_estimation": median_estimation,
            "mean_estimation": float(fresh.mean()), "max_estimation": float(fresh.max()),
            "excess": approximation + estimation}


def excess_risk_demo(problem=None, *, random_state=0):
    """A widget: sliders for the sample size and the polynomial degree; redraws :func:`draw_excess_risk`.

    Parameters
    ----------
    problem : mlnotes.risk.RegressionProblem, optional
    random_state : int, default 0

    Returns
    -------
    ipywidgets.interactive
    """
    import ipywidgets as widgets
    import matplotlib.pyplot as plt

    problem = _check_problem(problem)

    def update(n_samples, degree):
        fig, axes = plt.subplots(1, 2, figsize=(10, 3.8), gridspec_kw={"width_ratios": [1.4, 1]})
        draw_excess_risk(axes, degree, n_samples, problem=problem, random_state=random_state)
        plt.tight_layout()
        plt.show()

    return widgets.interactive(
        update,
        n_samples=widgets.SelectionSlider(options=list(SAMPLE_SIZES), value=50, description="n"),
        degree=widgets.IntSlider(value=3, min=0, max=12, step=1, description="degree"),
    )
