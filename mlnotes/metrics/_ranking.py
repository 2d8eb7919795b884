r"""Curves and areas from scores (chapter 18, *Nearest neighbours and evaluation*): ROC, AUC, precision-recall,
average precision and lift.

Every curve sweeps a threshold :math:`t` down the distinct scores and predicts positive when
:math:`s_i \ge t`; tied scores enter together (one point per distinct score), so the curves do not depend on
the order of tied samples. Outputs, thresholds and warnings are scikit-learn's (version >= 1.3: the ROC
curve starts at the threshold ``np.inf``).
"""

import warnings

import numpy as np

from ..utils.validation import check_bool, check_option, check_sample_weight, check_scalar, to_float_array
from ._checks import as_label_vector, check_pos_label, check_scores, warn_undefined

AVERAGE_OPTIONS = ("micro", "macro", "samples", "weighted", None)


def _binary_inputs(y_true, y_score, pos_label, sample_weight):
    """Validated ``y_true == pos_label``, scores and weights (None: unit), as scikit-learn checks them."""
    y_true = as_label_vector(y_true, "y_true")
    y_score = check_scores(y_score, y_true.shape[0])
    n_labels = np.unique(y_true).shape[0]
    if n_labels > 2 and pos_label is None:
        raise ValueError(f"y_true has {n_labels} classes: a binary curve needs pos_label (the positive class; the "
                         f"others are negative)")
    pos_label = check_pos_label(y_true, pos_label)
    weight = None if sample_weight is None else check_sample_weight(sample_weight, y_true.shape[0])
    return y_true == pos_label, y_score, weight


def binary_clf_curve(y_true, y_score, *, pos_label=None, sample_weight=None):
    r"""(Weighted) false and true positive counts at each distinct score taken as the threshold.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True labels; binary unless ``pos_label`` is given (then the other labels are negative).
    y_score : array-like of shape (n_samples,)
        Scores, larger meaning more likely positive.
    pos_label : int, float, bool or str, optional
        The positive label (default: 1 when ``y_true`` is in {0, 1} or {-1, 1}).
    sample_weight : array-like of shape (n_samples,), optional
        Samples of weight zero are dropped.

    Returns
    -------
    fps, tps : ndarray of shape (n_thresholds,)
        :math:`\mathrm{fp}(t)` and :math:`\mathrm{tp}(t)`, the weights of the negatives and positives with
        :math:`s_i \ge t`; increasing, with ``fps[-1]`` and ``tps[-1]`` the totals :math:`N` and :math:`P`.
    thresholds : ndarray of shape (n_thresholds,)
        The distinct scores, decreasing.
    """
    is_pos, y_score, weight = _binary_inputs(y_true, y_score, pos_label, sample_weight)
    return _clf_curve(is_pos, y_score, weight)


def confusion_matrix_at_thresholds(y_true, y_score, *, pos_label=None, sample_weight=None):
    r"""The four cells of the binary confusion matrix at each distinct score taken as the threshold (predict
    positive when :math:`s_i \ge t`), as scikit-learn's function of that name.

    Parameters
    ----------
    y_true, y_score, pos_label, sample_weight
        As in :func:`binary_clf_curve`.

    Returns
    -------
    tns, fps, fns, tps : ndarray of shape (n_thresholds,)
        (Weighted) true negatives, false positives, false negatives and true positives at each threshold.
    thresholds : ndarray of shape (n_thresholds,)
        The distinct scores, decreasing.
    """
    fps, tps, thresholds = binary_clf_curve(y_true, y_score, pos_label=pos_label, sample_weight=sample_weight)
    return fps[-1] - fps, fps, tps[-1] - tps, tps, thresholds


def _clf_curve(is_pos, y_score, weight):
    if weight is not None:
        kept = weight != 0
        is_pos, y_score, weight = is_pos[kept], y_score[kept], weight[kept]
    order = np.argsort(-y_score, kind="stable")            # decreasing scores
    y_score, is_pos = y_score[order], is_pos[order].astype(float)
    last_of_tie = np.r_[np.flatnonzero(np.diff(y_score)), y_score.shape[0] - 1]
    if weight is None:
        tps = np.cumsum(is_pos)[last_of_tie]
        fps = 1.0 + last_of_tie - tps
    else:
        weight = weight[order]
        tps = np.cumsum(is_pos * weight)[last_of_tie]
        fps = np.cumsum((1.0 - is_pos) * weight)[last_of_tie]
    return fps, tps, y_score[last_of_tie]


def _corners(*counts):
    """Indices of the points to keep: the first, the last, and each where one of ``counts`` bends."""
    bends = np.logical_or.reduce([np.diff(c, 2) != 0 for c in counts])
    return np.flatnonzero(np.r_[True, bends, True])


def roc_curve(y_true, y_score, *, pos_label=None, sample_weight=None, drop_intermediate=True):
    r"""The receiver operating characteristic: false and true positive rates as the threshold decreases.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
    y_score : array-like of shape (n_samples,)
    pos_label : int, float, bool or str, optional
        The positive label (default: 1 when ``y_true`` is in {0, 1} or {-1, 1}).
    sample_weight : array-like of shape (n_samples,), optional
    drop_intermediate : bool, default True
        Drop the points that lie on a straight segment between their neighbours (the curve and its area do
        not change).

    Returns
    -------
    fpr, tpr : ndarray of shape (n_points,)
        :math:`\mathrm{fpr}(t) = \mathrm{fp}(t)/N` and :math:`\mathrm{tpr}(t) = \mathrm{tp}(t)/P`, increasing,
        from (0, 0) to (1, 1).
    thresholds : ndarray of shape (n_points,)
        Decreasing; ``thresholds[0] = np.inf`` (nothing predicted positive), then the distinct scores.

    Warns
    -----
    UndefinedMetricWarning
        When ``y_true`` has no negatives (``fpr`` is NaN) or no positives (``tpr`` is NaN), as scikit-learn.
    """
    check_bool(drop_intermediate, "drop_intermediate")
    fps, tps, thresholds = binary_clf_curve(y_true, y_score, pos_label=pos_label, sample_weight=sample_weight)
    if drop_intermediate and fps.shape[0] > 2:
        keep = _corners(fps, tps)
        fps, tps, thresholds = fps[keep], tps[keep], thresholds[keep]
    fps, tps = np.r_[0.0, fps], np.r_[0.0, tps]
    thresholds = np.r_[np.inf, thresholds]
    n_neg, n_pos = fps[-1], tps[-1]
    if n_neg <= 0:
        warn_undefined("No negative samples in y_true, false positive value should be meaningless")
        fpr = np.full(fps.shape, np.nan)
    else:
        fpr = fps / n_neg
    if n_pos <= 0:
        warn_undefined("No positive samples in y_true, true positive value should be meaningless")
        tpr = np.full(tps.shape, np.nan)
    else:
        tpr = tps / n_pos
    return fpr, tpr, thresholds


def auc(x, y):
    r"""Area under the piecewise-linear curve through the points ``(x[i], y[i])`` (trapezoidal rule).

    Parameters
    ----------
    x : array-like of shape (n_points,)
        Monotonic (increasing or decreasing) abscissae, at least two.
    y : array-like of shape (n_points,)

    Returns
    -------
    float
        :math:`\sum_i (x_{i+1} - x_i)(y_i + y_{i+1})/2`, with the sign made positive for decreasing ``x``.

    Raises
    ------
    ValueError
        Fewer than two points, lengths that differ, or ``x`` not monotonic.
    """
    x = to_float_array(x, "x")
    y = to_float_array(y, "y")
    if x.ndim != 1 or y.ndim != 1 or x.shape != y.shape:
        raise ValueError(f"x and y must be 1-D of the same length, got shapes {x.shape} and {y.shape}")
    if x.shape[0] < 2:
        raise ValueError(f"At least 2 points are needed to compute area under curve, but x.shape = {x.shape}")
    dx = np.diff(x)
    direction = 1.0
    if (dx < 0).any():
        if not (dx <= 0).all():
            raise ValueError(f"x is neither increasing nor decreasing : {x}.")
        direction = -1.0
    return float(direction * np.sum(dx * (y[1:] + y[:-1]) / 2.0))      # the trapezoidal rule, numpy's order


def roc_auc_score(y_true, y_score, *, average="macro", sample_weight=None, max_fpr=None, multi_class="raise",
                  labels=None):
    r"""Area under the ROC curve of a binary problem: the probability that a random positive is scored above a
    random negative, ties counted half.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        Two labels; the larger (in sorted order) is the positive class, as in scikit-learn.
    y_score : array-like of shape (n_samples,)
        Scores of the positive class (e.g. ``predict_proba(X)[:, 1]`` or ``decision_function(X)``).
    average : {'micro', 'macro', 'samples', 'weighted'} or None
        Accepted for scikit-learn's signature; a binary problem has one area, so it has no effect.
    sample_weight : array-like of shape (n_samples,), optional
    max_fpr : float in (0, 1], optional
        The standardised partial area up to ``fpr = max_fpr`` (McClish's correction, as scikit-learn).
    multi_class, labels
        For scikit-learn's signature; a multiclass ``y_true`` raises a ValueError (not implemented here).

    Returns
    -------
    float
        NaN with an ``UndefinedMetricWarning`` when ``y_true`` holds a single class, as recent scikit-learn
        does (checked against 1.9.1; older versions raised a ValueError there).

    Raises
    ------
    ValueError
        More than two classes, scores of the wrong shape or not finite, bad weights, ``max_fpr`` outside (0, 1].

    Notes
    -----
    With :math:`P` positives and :math:`N` negatives, unweighted, the area is the Mann-Whitney statistic

    .. math::
        \mathrm{AUC} = \frac{1}{PN} \sum_{i:\,y_i=1} \sum_{j:\,y_j=0} \Big([s_i > s_j] + \tfrac12 [s_i = s_j]\Big)
        = \frac{R_+ - P(P+1)/2}{PN},

    where :math:`R_+` is the sum of the ranks of the positives among all scores (rank 1 the smallest, tied
    scores sharing the average of their ranks). It is computed with one sort. With weights the pairs count with
    the product of their weights: grouping tied scores :math:`g` with positive weight :math:`w^+_g` and negative
    weight :math:`w^-_g`, :math:`\mathrm{AUC} = \sum_g w^+_g (W^-_{<g} + w^-_g / 2) / (W^+ W^-)`, where
    :math:`W^-_{<g}` is the negative weight below the group. Both equal the trapezoidal area under
    :func:`roc_curve` (to rounding).
    """
    check_option(average, "average", AVERAGE_OPTIONS)
    check_option(multi_class, "multi_class", ("raise", "ovr", "ovo"))
    y_true = as_label_vector(y_true, "y_true")
    classes = np.unique(y_true)
    if classes.shape[0] > 2:
        raise ValueError(f"y_true has {classes.shape[0]} classes: only the binary ROC AUC is implemented (use "
                         f"label_binarize and one binary score per class)")
    y_score = check_scores(y_score, y_true.shape[0])
    weight = None if sample_weight is None else check_sample_weight(sample_weight, y_true.shape[0])
    if max_fpr is not None:
        max_fpr = check_scalar(max_fpr, "max_fpr", min_val=0, max_val=1, include_boundaries="right")
    if classes.shape[0] != 2:
        warn_undefined("Only one class is present in y_true. ROC AUC score is not defined in that case.")
        return np.nan
    is_pos = y_true == classes[1]
    if max_fpr is not None and max_fpr != 1:
        return _partial_auc(is_pos, y_score, weight, max_fpr)
    return _mann_whitney_auc(is_pos, y_score, weight)


def _mann_whitney_auc(is_pos, y_score, weight):
    """The AUC from one sort: rank sums without weights, weighted pair counts with them (see roc_auc_score)."""
    n = y_score.shape[0]
    order = np.argsort(y_score)
    sorted_score = y_score[order]
    starts = np.flatnonzero(np.r_[True, sorted_score[1:] != sorted_score[:-1]])
    if weight is None:
        # in integers: a group of tied scores at 0-based positions [start, start + size) has the mean 1-based rank
        # start + (size + 1)/2, so twice the rank sum of the positives and twice U are exact int64 numbers
        pos_in_group = np.add.reduceat(is_pos[order].astype(np.int64), starts)
        size = np.diff(np.r_[starts, n])
        n_pos = int(pos_in_group.sum())
        n_neg = n - n_pos
        twice_rank_sum = int(pos_in_group @ (2 * starts + size + 1))
        twice_u = twice_rank_sum - n_pos * (n_pos + 1)
        return twice_u / (2 * n_pos * n_neg)
    w_sorted = weight[order]
    pos_sorted = is_pos[order]
    w_pos = np.add.reduceat(np.where(pos_sorted, w_sorted, 0.0), starts)
    w_neg = np.add.reduceat(np.where(pos_sorted, 0.0, w_sorted), starts)
    total_pos, total_neg = w_pos.sum(), w_neg.sum()
    if total_pos <= 0 or total_neg <= 0:
        which = "negative" if total_neg <= 0 else "positive"
        warn_undefined(f"No {which} samples in y_true, "
                       f"{'false' if which == 'negative' else 'true'} positive value should be meaningless")
        return np.nan
    neg_below = np.cumsum(w_neg) - w_neg
    return float(w_pos @ (neg_below + w_neg / 2) / (total_pos * total_neg))


def _partial_auc(is_pos, y_score, weight, max_fpr):
    """McClish-standardised area under the ROC curve up to ``max_fpr`` (scikit-learn's definition)."""
    fpr, tpr, _ = roc_curve(is_pos, y_score, pos_label=True, sample_weight=weight)
    stop = np.searchsorted(fpr, max_fpr, "right")
    tpr = np.r_[tpr[:stop], np.interp(max_fpr, fpr[stop - 1:stop + 1], tpr[stop - 1:stop + 1])]
    fpr = np.r_[fpr[:stop], max_fpr]
    partial = auc(fpr, tpr)
    min_area, max_area = 0.5 * max_fpr ** 2, max_fpr
    return 0.5 * (1 + (partial - min_area) / (max_area - min_area))


def precision_recall_curve(y_true, y_score, *, pos_label=None, sample_weight=None, drop_intermediate=False):
    r"""Precision and recall as the threshold runs over the distinct scores.

    Parameters
    ----------
    y_true, y_score, pos_label, sample_weight
        As in :func:`roc_curve`.
    drop_intermediate : bool, default False
        Keep only the first and last threshold of each run of equal recall.

    Returns
    -------
    precision : ndarray of shape (n_thresholds + 1,)
        :math:`\mathrm{tp}(t)/(\mathrm{tp}(t)+\mathrm{fp}(t))` for increasing thresholds, then 1.
    recall : ndarray of shape (n_thresholds + 1,)
        :math:`\mathrm{tp}(t)/P`, decreasing, then 0.
    thresholds : ndarray of shape (n_thresholds,)
        The distinct scores, increasing.

    Warns
    -----
    UserWarning
        When ``y_true`` has no positive (recall is then set to 1), as scikit-learn.
    """
    check_bool(drop_intermediate, "drop_intermediate")
    fps, tps, thresholds = binary_clf_curve(y_true, y_score, pos_label=pos_label, sample_weight=sample_weight)
    if drop_intermediate and fps.shape[0] > 2:
        keep = np.flatnonzero(np.r_[True, (np.diff(tps[:-1]) != 0) | (np.diff(tps[1:]) != 0), True])
        fps, tps, thresholds = fps[keep], tps[keep], thresholds[keep]
    predicted = tps + fps
    precision = np.divide(tps, predicted, out=np.zeros_like(tps), where=predicted != 0)
    if tps[-1] == 0:
        warnings.warn("No positive class found in y_true, recall is set to one for all thresholds.", UserWarning,
                      stacklevel=2)
        recall = np.ones_like(tps)
    else:
        recall = tps / tps[-1]
    return np.r_[precision[::-1], 1.0], np.r_[recall[::-1], 0.0], thresholds[::-1]


def average_precision_score(y_true, y_score, *, average="macro", pos_label=1, sample_weight=None):
    r"""Average precision: the step-wise area under the precision-recall curve,
    :math:`\mathrm{AP} = \sum_k (R_k - R_{k-1}) P_k` over the thresholds (no interpolation; not the trapezoid).

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
    y_score : array-like of shape (n_samples,)
    average : {'micro', 'macro', 'samples', 'weighted'} or None
        For scikit-learn's signature; no effect on a binary problem.
    pos_label : int, float, bool or str, default 1
    sample_weight : array-like of shape (n_samples,), optional

    Returns
    -------
    float

    Raises
    ------
    ValueError
        ``pos_label`` not among two present labels, more than two labels, or invalid scores/weights.
    """
    check_option(average, "average", AVERAGE_OPTIONS)
    labels = np.unique(as_label_vector(y_true, "y_true"))
    if labels.shape[0] > 2:
        raise ValueError(f"y_true has {labels.shape[0]} classes: only the binary average precision is implemented")
    if labels.shape[0] == 2 and not np.isin(np.asarray([pos_label], dtype=object), labels.astype(object)).any():
        raise ValueError(f"pos_label={pos_label!r} is not a valid label. It should be one of {labels.tolist()}")
    precision, recall, _ = precision_recall_curve(y_true, y_score, pos_label=pos_label, sample_weight=sample_weight)
    return float(max(0.0, -np.sum(np.diff(recall) * precision[:-1])))


def lift_curve(y_true, y_score, *, pos_label=None, sample_weight=None, return_thresholds=False):
    r"""The lift curve: how much richer in positives the top-scored fraction of the population is than the whole.

    Parameters
    ----------
    y_true, y_score, pos_label, sample_weight
        As in :func:`roc_curve`.
    return_thresholds : bool, default False
        Also return the thresholds.

    Returns
    -------
    fraction : ndarray of shape (n_thresholds,)
        The fraction targeted, :math:`q(t) = (\mathrm{tp}(t) + \mathrm{fp}(t)) / (P + N)`, increasing to 1.
    lift : ndarray of shape (n_thresholds,)
        :math:`\mathrm{lift}(t) = \mathrm{precision}(t) / \pi` with
        :math:`\mathrm{precision}(t) = \mathrm{tp}(t)/(\mathrm{tp}(t)+\mathrm{fp}(t))` among the targeted and
        :math:`\pi = P/(P+N)` the base rate; the last value is 1 (everyone targeted).
    thresholds : ndarray of shape (n_thresholds,)
        Only if ``return_thresholds``: the distinct scores, decreasing; point :math:`k` targets
        :math:`s_i \ge` ``thresholds[k]``.

    Raises
    ------
    ValueError
        If ``y_true`` holds no positive (the base rate is zero and the lift undefined).

    Notes
    -----
    Tied scores are targeted together, as :func:`roc_curve` groups them: there is one point per distinct score,
    so the curve does not depend on the order of the samples. Equivalently :math:`\mathrm{lift}(t) =
    \mathrm{tpr}(t)/q(t)`, the share of the positives found over the share of the population targeted.
    """
    check_bool(return_thresholds, "return_thresholds")
    fps, tps, thresholds = binary_clf_curve(y_true, y_score, pos_label=pos_label, sample_weight=sample_weight)
    if tps[-1] <= 0:
        raise ValueError("y_true has no positive sample (of positive weight): the base rate is 0 and the lift is "
                         "undefined")
    targeted = tps + fps
    total = targeted[-1]
    fraction = targeted / total
    lift = (tps / targeted) / (tps[-1] / total)
    return (fraction, lift, thresholds) if return_thresholds else (fraction, lift)
