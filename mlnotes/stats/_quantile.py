r"""Weighted quantiles by the inverted CDF (scikit-learn's ``_weighted_percentile``): the baselines of chapter 18
(the median and quantile ``DummyRegressor``) and the leaf steps of chapter 21 (absolute error, Huber) use them.

In a set of values sorted increasingly, :math:`v_{(1)} \le \dots \le v_{(n)}`, with weights :math:`s_{(l)}` and
cumulative weights :math:`C_m = \sum_{l \le m} s_{(l)}`, the weighted :math:`q`-quantile is :math:`v_{(m)}` for the
smallest :math:`m` with :math:`C_m \ge q\,C_n`; at :math:`q = 0` the leading zero weights are skipped (the smallest
value of positive weight). With unit weights and :math:`q = \tfrac12` this is the *lower* median, not numpy's
average of the two middle values.
"""

from numbers import Integral, Real

import numpy as np

from ..utils.validation import as_float_vector, check_sample_weight, check_scalar, to_float_array

__all__ = ["weighted_quantile", "weighted_quantile_by_group"]


def _grouped_quantile(values, weights, groups, n_groups, q):
    """The unchecked core of :func:`weighted_quantile_by_group`, all groups at once (no loop over groups): NaN for
    a group without a value of positive weight. For the library's inner loops, whose arguments are valid."""
    order = np.lexsort((values, groups))
    g, v, w = groups[order], values[order], weights[order]
    starts = np.searchsorted(g, np.arange(n_groups))
    ends = np.append(starts[1:], len(g))                             # one past each group's last value
    cumulative = np.cumsum(w)
    before = np.concatenate([[0.0], cumulative])[starts]             # the weight of the earlier groups
    within = cumulative - before[g]
    # a group's total is its last cumulative weight, computed as `within` is (so q = 1 reaches it exactly),
    # as scikit-learn's percentile takes the last entry of its cumulative sum
    totals = np.zeros(n_groups)
    filled = ends > starts
    totals[filled] = within[ends[filled] - 1]
    target = q * totals
    target = np.where(target == 0, np.nextafter(target, 1.0), target)
    reached = within >= target[g]
    result = np.full(n_groups, np.nan)
    hit_groups, first = np.unique(g[reached], return_index=True)
    result[hit_groups] = v[reached][first]
    return result


def weighted_quantile_by_group(values, weights, groups, n_groups, q):
    r"""The weighted ``q``-quantile of ``values`` within each group, all groups at once (no loop over groups).

    In each group, sorted by value, the first value at which the cumulative weight reaches :math:`q` times the
    group's total weight (the inverted CDF, as scikit-learn's ``_weighted_percentile``; the weighted *lower* median
    for :math:`q = 1/2` when the total splits evenly).

    Parameters
    ----------
    values : array-like of shape (n,)
        Finite.
    weights : array-like of shape (n,)
        Finite, non-negative, not all zero.
    groups : array-like of int of shape (n,)
        The group of each value, in ``[0, n_groups)``; every group needs a value of positive weight.
    n_groups : int >= 1
    q : float in [0, 1]

    Returns
    -------
    ndarray of shape (n_groups,)

    Raises
    ------
    ValueError
        On NaN or infinity, mismatched lengths, negative or all-zero weights, a group outside
        ``[0, n_groups)``, a group without a value of positive weight, or ``q`` outside [0, 1].
    """
    values = as_float_vector(values, "values")
    weights = check_sample_weight(weights, len(values))
    n_groups = check_scalar(n_groups, "n_groups", Integral, min_val=1)
    q = check_scalar(q, "q", Real, min_val=0, max_val=1)
    groups = np.asarray(groups)
    if groups.shape != values.shape:
        raise ValueError(f"groups must have the shape {values.shape} of values, got {groups.shape}")
    if not np.issubdtype(groups.dtype, np.integer):
        raise TypeError(f"groups must be integers, got dtype {groups.dtype}")
    if groups.min() < 0 or groups.max() >= n_groups:
        raise ValueError(f"groups must lie in [0, n_groups) = [0, {n_groups}), got values from {groups.min()} "
                         f"to {groups.max()}")
    empty = np.flatnonzero(np.bincount(groups, weights=weights, minlength=n_groups) == 0)
    if empty.size:
        raise ValueError(f"group {empty[0]} has no value of positive weight ({empty.size} such groups): its "
                         "quantile is undefined")
    return _grouped_quantile(values, weights, groups, n_groups, q)


def weighted_quantile(y, sample_weight, q):
    r"""The weighted :math:`q`-quantile of ``y``, or of each column of ``y``, by the inverted CDF (see the module).

    Parameters
    ----------
    y : array-like of shape (n_samples,) or (n_samples, n_outputs)
        Finite.
    sample_weight : array-like of shape (n_samples,)
        Finite, non-negative, not all zero.
    q : float in [0, 1]

    Returns
    -------
    float, or ndarray of shape (n_outputs,) for a 2-D ``y``

    Raises
    ------
    ValueError
        On NaN or infinity, an empty or 3-D ``y``, a length mismatch, negative or all-zero weights, or ``q``
        outside [0, 1].
    """
    y = to_float_array(y, "y")
    if y.ndim not in (1, 2) or y.shape[0] == 0:
        raise ValueError(f"y must be a non-empty array of shape (n_samples,) or (n_samples, n_outputs), "
                         f"got shape {y.shape}")
    if not np.isfinite(y).all():
        raise ValueError("y contains NaN or infinity")
    Y = y.reshape(len(y), -1)
    n, k = Y.shape
    weights = check_sample_weight(sample_weight, n)
    q = check_scalar(q, "q", Real, min_val=0, max_val=1)
    # every column is a group of its own: one call for all outputs
    result = _grouped_quantile(Y.T.ravel(), np.tile(weights, k), np.repeat(np.arange(k), n), k, q)
    return float(result[0]) if y.ndim == 1 else result
