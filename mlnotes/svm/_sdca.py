r"""Stochastic dual coordinate ascent for the linear SVM without intercept (chapter 14).

SDCA (Shalev-Shwartz and Zhang, 2013) is an addition to the notes.
"""

from dataclasses import dataclass, field
from numbers import Integral, Real

import numpy as np

from ..utils.validation import as_float_matrix, as_float_vector, check_scalar


@dataclass
class SDCAResult:
    """What :func:`sdca` returns.

    Attributes
    ----------
    alpha : ndarray of shape (n_samples,)
        The dual variables, in :math:`[0, C]`.
    w : ndarray of shape (n_features,)
        :math:`w = \\sum_i \\alpha_i y_i x_i`.
    n_iter : int
        Epochs (passes over the data in a random order).
    converged : bool
        Whether the duality gap reached ``tol``.
    gaps : ndarray of shape (n_iter,)
        The duality gap :math:`P(w) - D(\\alpha)` after each epoch.
    """

    alpha: np.ndarray
    w: np.ndarray
    n_iter: int
    converged: bool
    gaps: np.ndarray = field(repr=False)


def sdca(X, y, C, *, tol=1e-6, max_iter=1000, random_state=None):
    r"""Maximise the bias-free SVM dual by stochastic dual coordinate ascent.

    Parameters
    ----------
    X : array of shape (n_samples, n_features)
    y : array of shape (n_samples,)
        Labels in {-1, +1}.
    C : float > 0
    tol : float > 0, default 1e-6
        Stop when the duality gap :math:`P(w) - D(\alpha) \le \mathrm{tol}\cdot\max(1, |P(w)|)`.
    max_iter : int >= 1, default 1000
        Epochs.
    random_state : int or None
        Seed of the order of the coordinates (``np.random.default_rng``).

    Returns
    -------
    SDCAResult

    Notes
    -----
    Without an intercept there is no equality constraint, so each coordinate can move alone:

    .. math:: \max_{0 \le \alpha \le C}\ D(\alpha) = \mathbf 1^\top\alpha - \tfrac12\Big\lVert \sum_i \alpha_i y_i x_i\Big\rVert^2,
        \qquad \alpha_i \leftarrow \operatorname{clip}_{[0, C]}\Big(\alpha_i + \frac{1 - y_i w^\top x_i}{\lVert x_i\rVert^2}\Big),

    the exact maximiser of :math:`D` in :math:`\alpha_i`, with :math:`w = \sum_i \alpha_i y_i x_i` kept up to
    date (:math:`O(d)` per step). The primal is :math:`P(w) = \tfrac12\lVert w\rVert^2 + C\sum_i\max(0, 1 - y_i
    w^\top x_i)` and :math:`P(w(\alpha)) - D(\alpha) \ge 0` certifies how far both are from the optimum. The
    updates are sequential by nature, so each epoch is a Python loop over the samples. An addition to the notes;
    chapter 14.
    """
    X = as_float_matrix(X, "X")
    n = X.shape[0]
    y = as_float_vector(y, "y", n)
    if not np.all(np.abs(y) == 1):
        raise ValueError("y must hold labels in {-1, +1}")
    C = check_scalar(C, "C", Real, min_val=0, include_boundaries="neither")
    tol = check_scalar(tol, "tol", Real, min_val=0, include_boundaries="neither")
    max_iter = check_scalar(max_iter, "max_iter", Integral, min_val=1)
    rng = np.random.default_rng(random_state)
    sq_norms = np.einsum("ij,ij->i", X, X)
    alpha = np.zeros(n)
    w = np.zeros(X.shape[1])
    gaps = []
    converged = False
    for epoch in range(max_iter):
        for i in rng.permutation(n):
            if sq_norms[i] == 0:
                alpha[i] = C               # x_i = 0: the dual term alpha_i alone, maximised at C
                continue
            x_i = X[i]
            a_new = min(max(alpha[i] + (1.0 - y[i] * (x_i @ w)) / sq_norms[i], 0.0), C)
            if a_new != alpha[i]:
                w += (a_new - alpha[i]) * y[i] * x_i
                alpha[i] = a_new
        primal = w @ w / 2 + C * np.maximum(0.0, 1.0 - y * (X @ w)).sum()
        dual = alpha.sum() - w @ w / 2
        gaps.append(primal - dual)
        if gaps[-1] <= tol * max(1.0, abs(primal)):
            converged = True
            break
    return SDCAResult(alpha=alpha, w=w, n_iter=len(gaps), converged=converged, gaps=np.array(gaps))
