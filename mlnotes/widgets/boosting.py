r"""Boosting round by round (chapter 21): the fit :math:`f_m` of L2 gradient boosting on one-dimensional data with
the piece :math:`\nu h_m` the round added, the training and test error against the rounds, and the demo with
sliders for the round :math:`m`, the shrinkage :math:`\nu` and the depth of the trees."""

from numbers import Integral

import numpy as np

from ..ensemble import GradientBoostingRegressor
from ..utils.validation import check_scalar

__all__ = ["staged_scores", "draw_boosting_round", "draw_boosting_errors", "boosting_demo"]


def staged_scores(model, X):
    r"""The scores :math:`f_0, f_1, \dots, f_M` of a fitted gradient-boosting regressor at ``X``, shape
    (M + 1, n_samples): row 0 the initial constant, row :math:`m` after :math:`m` rounds."""
    first = np.tile(model._raw_from_init(np.asarray(X, dtype=float))[:, 0], (1, 1))
    return np.vstack([first, np.array(list(model.staged_predict(X)))])


def draw_boosting_round(ax, model, x, y, m, *, grid=None):
    r"""Draw the training points, :math:`f_{m-1}`, :math:`f_m` and the added piece :math:`\nu h_m` (on a zero line).

    Parameters
    ----------
    ax : matplotlib Axes
    model : fitted GradientBoostingRegressor on one feature
    x, y : ndarray of shape (n,)
    m : int in [1, n_estimators]
        The round.
    grid : ndarray of shape (g,), optional
        Where to draw the curves (default 400 points over the range of ``x``).

    Returns
    -------
    ndarray of shape (3, g)
        :math:`f_{m-1}`, :math:`f_m` and :math:`f_m - f_{m-1}` on the grid.
    """
    m = check_scalar(m, "m", Integral, min_val=1, max_val=len(model.estimators_))
    grid = np.linspace(x.min(), x.max(), 400) if grid is None else np.asarray(grid, dtype=float)
    scores = staged_scores(model, grid[:, None])
    before, after = scores[m - 1], scores[m]
    ax.scatter(x, y, s=12, color="0.45", label="data")
    ax.plot(grid, before, color="C0", linestyle="--", label=f"$f_{{{m - 1}}}$")
    ax.plot(grid, after, color="C0", label=f"$f_{{{m}}}$")
    ax.plot(grid, after - before, color="C3", label=rf"$\nu h_{{{m}}}$ (added)")
    ax.axhline(0.0, color="0.7", linewidth=0.8)
    ax.set(xlabel="$x$", ylabel="$y$")
    return np.vstack([before, after, after - before])


def draw_boosting_errors(ax, model, X, y, X_test, y_test, *, label="", colour="C0", mark=None):
    r"""Draw the training and test mean squared error against the round :math:`m = 1, \dots, M`.

    Returns
    -------
    train, test : ndarray of shape (M,)
    """
    train = np.array([np.mean((y - f)**2) for f in model.staged_predict(X)])
    test = np.array([np.mean((y_test - f)**2) for f in model.staged_predict(X_test)])
    rounds = np.arange(1, len(train) + 1)
    ax.plot(rounds, train, color=colour, linestyle="--", label=f"{label}training")
    ax.plot(rounds, test, color=colour, label=f"{label}test")
    if mark is not None:
        ax.axvline(mark, color="0.5", linewidth=0.8)
    ax.set(xlabel="round $m$", ylabel="mean squared error")
    return train, test


def _demo_data(n_samples, random_state):
    rng = np.random.default_rng(random_state)
    x, x_test = rng.uniform(-3, 3, n_samples), rng.uniform(-3, 3, n_samples)
    truth = lambda t: np.sin(2 * t) + 0.3 * t                     # noqa: E731
    return x, truth(x) + 0.3 * rng.normal(size=n_samples), x_test, truth(x_test) + 0.3 * rng.normal(size=n_samples)


def boosting_demo(*, n_samples=120, max_rounds=100, random_state=0):
    r"""A widget: sliders for the round :math:`m` and menus for the shrinkage :math:`\nu` and the tree depth; draws
    L2 boosting's :math:`f_{m-1}`, :math:`f_m` and the added :math:`\nu h_m` on noisy one-dimensional data, and the
    training and test error against the rounds. Each (:math:`\nu`, depth) is fitted once and staged.

    Parameters
    ----------
    n_samples : int >= 10, default 120
        Training points (and as many test points).
    max_rounds : int >= 2, default 100
    random_state : int, default 0

    Returns
    -------
    ipywidgets.interactive
    """
    import ipywidgets as widgets
    import matplotlib.pyplot as plt

    n_samples = check_scalar(n_samples, "n_samples", Integral, min_val=10)
    max_rounds = check_scalar(max_rounds, "max_rounds", Integral, min_val=2)
    x, y, x_test, y_test = _demo_data(n_samples, random_state)
    models = {}

    def update(m, learning_rate, max_depth):
        key = (learning_rate, max_depth)
        if key not in models:
            models[key] = GradientBoostingRegressor(n_estimators=max_rounds, learning_rate=learning_rate,
                                                    max_depth=max_depth, init="zero").fit(x[:, None], y)
        model = models[key]
        fig, (left, right) = plt.subplots(1, 2, figsize=(7.2, 3.6), layout="constrained")
        draw_boosting_round(left, model, x, y, m)
        left.legend(loc="lower right")
        left.set_title(rf"round {m}, $\nu$ = {learning_rate:g}, depth {max_depth}")
        draw_boosting_errors(right, model, x[:, None], y, x_test[:, None], y_test, mark=m)
        right.set_yscale("log")
        right.legend(loc="upper right")
        right.set_title("error against the rounds")
        plt.show()

    return widgets.interactive(
        update,
        m=widgets.IntSlider(value=5, min=1, max=max_rounds, step=1, description="round m"),
        learning_rate=widgets.Dropdown(options=[1.0, 0.3, 0.1], value=0.3, description="shrinkage ν"),
        max_depth=widgets.Dropdown(options=[1, 2, 3], value=1, description="depth"),
    )
