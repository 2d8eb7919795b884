"""Demo of chapter "Linear algebra": what a 2x2 matrix does to the unit circle."""

import numpy as np

from ..plotting import draw_matrix_action
from ..plotting._draw import _as_2x2

__all__ = ["draw_matrix_action", "matrix_action_demo"]

_DEFAULT_A = ((1.5, 0.5), (0.3, 1.0))


def matrix_action_demo(A=None):
    """A widget: four sliders for the entries of a 2x2 matrix; redraws
    :func:`mlnotes.plotting.draw_matrix_action`.

    Parameters
    ----------
    A : array of shape (2, 2), optional
        Initial matrix (default ``[[1.5, 0.5], [0.3, 1.0]]``); entries are clipped to [-2, 2].

    Returns
    -------
    ipywidgets.interactive
    """
    import ipywidgets as widgets
    import matplotlib.pyplot as plt

    A = _as_2x2(_DEFAULT_A if A is None else A)

    def update(a11, a12, a21, a22):
        fig, ax = plt.subplots(figsize=(4.8, 5.6))
        draw_matrix_action([[a11, a12], [a21, a22]], ax=ax)
        plt.show()

    sliders = {name: widgets.FloatSlider(value=float(np.clip(A[i, j], -2, 2)), min=-2.0, max=2.0, step=0.05,
                                         description=name)
               for name, (i, j) in {"a11": (0, 0), "a12": (0, 1), "a21": (1, 0), "a22": (1, 1)}.items()}
    return widgets.interactive(update, **sliders)
