r"""Impurity measures of a node (chapter 19, *Decision trees*).

A node holding samples of :math:`K` classes with (weighted) proportions :math:`p = (p_1, \dots, p_K)` on the
simplex has impurity

* misclassification :math:`1 - \max_k p_k`,
* Gini :math:`\sum_k p_k (1 - p_k) = 1 - \sum_k p_k^2`,
* entropy :math:`-\sum_k p_k \log_2 p_k` (with :math:`0 \log 0 = 0`; bits, as scikit-learn),

and a regression node with targets :math:`y_i` and weights :math:`s_i` the weighted variance (squared error).
All three classification measures are 0 at a pure node, largest at :math:`p_k = 1/K`, and concave; the
chapter proves these facts.
"""

import numpy as np

from ..utils.validation import as_finite_array

#: The criteria of :class:`~mlnotes.tree.DecisionTreeClassifier` (``log_loss`` is ``entropy``, as scikit-learn).
CLASSIFICATION_CRITERIA = ("gini", "entropy", "log_loss", "misclassification")
#: The criteria of :class:`~mlnotes.tree.DecisionTreeRegressor`.
REGRESSION_CRITERIA = ("squared_error", "absolute_error")

_LN2 = np.log(2.0)


def _proportions(p):
    p = as_finite_array(p, "p")
    if p.ndim == 0:
        raise ValueError("p must hold class proportions along its last axis, got a scalar")
    if (p < 0).any():
        raise ValueError("p must be non-negative (class proportions or counts)")
    total = p.sum(axis=-1, keepdims=True)
    if (total <= 0).any():
        raise ValueError("p must have a positive sum along its last axis")
    return p / total


def gini(p):
    r"""The Gini impurity :math:`1 - \sum_k p_k^2` of class proportions (or counts: they are normalised).

    Parameters
    ----------
    p : array-like of shape (..., n_classes)
        Non-negative; each slice along the last axis is normalised to sum to 1.

    Returns
    -------
    float or ndarray of shape (...)

    Examples
    --------
    >>> float(gini([0.5, 0.5]))
    0.5
    """
    p = _proportions(p)
    return 1.0 - (p * p).sum(axis=-1)


def entropy(p, base=2):
    r"""The entropy :math:`-\sum_k p_k \log p_k` of class proportions (or counts), with :math:`0 \log 0 = 0`.

    Parameters
    ----------
    p : array-like of shape (..., n_classes)
    base : float > 1 or "e", default 2
        The base of the logarithm: 2 gives bits (scikit-learn's trees), ``"e"`` nats.

    Returns
    -------
    float or ndarray of shape (...)

    Examples
    --------
    >>> float(entropy([0.5, 0.5]))
    1.0
    """
    p = _proportions(p)
    if isinstance(base, str):
        if base != "e":
            raise ValueError(f"base must be a number > 1 or 'e', got {base!r}")
        log_base = 1.0
    else:
        if not base > 1:
            raise ValueError(f"base must be > 1, got {base!r}")
        log_base = np.log(base)
    with np.errstate(divide="ignore", invalid="ignore"):
        terms = np.where(p > 0, p * np.log(np.where(p > 0, p, 1.0)), 0.0)
    return -terms.sum(axis=-1) / log_base


def misclassification(p):
    r"""The misclassification impurity :math:`1 - \max_k p_k` of class proportions (or counts).

    Examples
    --------
    >>> float(misclassification([0.25, 0.75]))
    0.25
    """
    p = _proportions(p)
    return 1.0 - p.max(axis=-1)


def class_impurity(counts, weight, criterion):
    r"""Impurity of nodes from their weighted class counts, with scikit-learn's floating-point operations.

    Parameters
    ----------
    counts : list of n_classes ndarrays of the same shape
        ``counts[k]`` the weight of class ``k`` in each node (or candidate child).
    weight : ndarray of that shape
        The total weight of each node, positive where the result is used.
    criterion : str
        One of :data:`CLASSIFICATION_CRITERIA`.

    Returns
    -------
    ndarray of that shape

    Notes
    -----
    The class terms are accumulated in class order as scikit-learn's ``Gini``/``Entropy`` criteria do, so that
    equal counts give bit-identical impurities and ties between candidate splits are seen as ties.
    """
    with np.errstate(divide="ignore", invalid="ignore"):
        if criterion == "gini":
            square_sum = counts[0] * counts[0]
            for c in counts[1:]:
                square_sum = square_sum + c * c
            return 1.0 - square_sum / (weight * weight)
        if criterion in ("entropy", "log_loss"):
            out = np.zeros(np.shape(weight))
            for c in counts:
                pk = c / weight
                positive = c > 0
                out = out - np.where(positive, pk * (np.log(np.where(positive, pk, 1.0)) / _LN2), 0.0)
            return out
        if criterion == "misclassification":
            largest = counts[0]
            for c in counts[1:]:
                largest = np.maximum(largest, c)
            return 1.0 - largest / weight
    raise ValueError(f"criterion must be one of {CLASSIFICATION_CRITERIA}, got {criterion!r}")
