"""Demo of chapter "Linear algebra": what a 2x2 matrix does to the unit circle."""

import numpy as np

from ..utils.validation import as_float_matrix

_DEFAULT_A = ((1.5, 0.5), (0.3, 1.0))


def _as_2x2(A):
    A = as_float_matrix(A, "A")
    if A.shape != (2, 2):
        raise ValueError(f"A must be a 2x2 matrix, got shape {A.shape}")
    return A


def _real_eigenpairs(A, *, imag_tol=1e-12):
    """The real eigenpairs of a 2x2 matrix as a list of ``(lambda, unit vector)``: empty when the
    eigenvalues are complex (e.g. a rotation); for a defective matrix numpy returns two (nearly)
    parallel vectors."""
    eigenvalues, vectors = np.linalg.eig(A)
    if np.max(np.abs(eigenvalues.imag)) > imag_tol:
        return []
    return [(float(lam.real), vectors[:, i].real / np.linalg.norm(vectors[:, i].real))
            for i, lam in enumerate(eigenvalues)]


def draw_matrix_action(A, ax=None):
    r"""Draw the image of the unit circle under a 2x2 matrix, with its SVD and eigenvectors.

    The unit circle (grey, dashed) maps to an ellipse (blue) whose semi-axes are
    :math:`\sigma_1 u_1` and :math:`\sigma_2 u_2`, the images :math:`A v_i = \sigma_i u_i` of the
    right singular vectors :math:`v_i` (drawn on the circle). Real eigenvectors, when there are
    any, are drawn as dotted lines: along them :math:`A` only stretches (or flips). The title
    gives :math:`\det A = \pm\sigma_1\sigma_2`.

    Parameters
    ----------
    A : array of shape (2, 2)
    ax : matplotlib Axes, optional
        Where to draw (a new figure if None).

    Returns
    -------
    ax : matplotlib Axes
    """
    import matplotlib.pyplot as plt

    A = _as_2x2(A)
    if ax is None:
        _, ax = plt.subplots(figsize=(4.8, 5.6))
    U, s, Vt = np.linalg.svd(A)
    flip = np.where(Vt[:, 0] < 0, -1.0, 1.0)  # singular pairs (v_i, u_i) are defined up to a joint sign:
    U, Vt = U * flip, Vt * flip[:, None]     # draw v_i pointing right, for readability
    t = np.linspace(0, 2 * np.pi, 241)
    circle = np.vstack([np.cos(t), np.sin(t)])
    ellipse = A @ circle
    ax.plot(*circle, color="0.6", ls="--", lw=1, label="unit circle")
    ax.plot(*ellipse, color="C0", lw=2, label="image $A x$ of the circle")
    for i, color in enumerate(("C1", "C2")):
        v, image = Vt[i], s[i] * U[:, i]
        ax.annotate("", xy=v, xytext=(0, 0), arrowprops=dict(arrowstyle="->", color=color, lw=1.2, ls="--"))
        ax.annotate("", xy=image, xytext=(0, 0), arrowprops=dict(arrowstyle="->", color=color, lw=2.2))
        ax.plot([], [], color=color, lw=2, label=f"$v_{i + 1}$ (dashed) $\\mapsto \\sigma_{i + 1} u_{i + 1}$, "
                                                f"$\\sigma_{i + 1}$ = {s[i]:.2f}")
    reach = max(1.2, 1.15 * s[0])
    pairs = _real_eigenpairs(A)
    for lam, q in pairs:
        ax.plot([-reach * q[0], reach * q[0]], [-reach * q[1], reach * q[1]], color="C3", ls=":", lw=1.5,
                label=f"eigenvector, $\\lambda$ = {lam:.2f}")
    if not pairs:
        ax.plot([], [], color="C3", ls=":", label="no real eigenvector")
    ax.set_xlim(-reach, reach)
    ax.set_ylim(-reach, reach)
    ax.set_aspect("equal")
    ax.set_title(f"det A = {np.linalg.det(A):.2f}  (|det A| = $\\sigma_1\\sigma_2$ = {s[0] * s[1]:.2f})", fontsize=9)
    ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.07), ncol=2, fontsize=7)
    return ax


def matrix_action_demo(A=None):
    """A widget: four sliders for the entries of a 2x2 matrix; redraws :func:`draw_matrix_action`.

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
