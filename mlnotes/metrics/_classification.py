r"""Classification scores from predicted labels (chapter 18, *Nearest neighbours and evaluation*).

Accuracy, the confusion matrix, precision, recall, specificity, the F-scores and the log loss, with
scikit-learn's signatures and semantics: ``labels=`` (which classes and in which order), ``pos_label`` and
``average`` in {'binary', 'micro', 'macro', 'weighted', None}, ``sample_weight`` and ``zero_division``.

For one class :math:`k` treated as positive (one-vs-rest), with weighted counts

.. math::
    \mathrm{tp}_k = \sum_{i:\, y_i = k,\ \hat y_i = k} w_i, \quad
    \mathrm{fp}_k = \sum_{i:\, y_i \ne k,\ \hat y_i = k} w_i, \quad
    \mathrm{fn}_k = \sum_{i:\, y_i = k,\ \hat y_i \ne k} w_i, \quad
    \mathrm{tn}_k = \sum_i w_i - \mathrm{tp}_k - \mathrm{fp}_k - \mathrm{fn}_k,

precision is :math:`\mathrm{tp}/(\mathrm{tp}+\mathrm{fp})`, recall :math:`\mathrm{tp}/(\mathrm{tp}+\mathrm{fn})`,
specificity :math:`\mathrm{tn}/(\mathrm{tn}+\mathrm{fp})` and
:math:`F_\beta = (1+\beta^2)\,\mathrm{tp} / ((1+\beta^2)\,\mathrm{tp} + \beta^2 \mathrm{fn} + \mathrm{fp})`.
"""

import warnings

import numpy as np

from ..utils.validation import check_bool, check_option, check_sample_weight, check_scalar, to_float_array
from ._checks import (as_label_vector, check_label_pair, check_same_length, check_zero_division, label_indices,
                      warn_undefined)

AVERAGE_OPTIONS = ("binary", "micro", "macro", "weighted", None)
ORIENTATIONS = ("true_rows", "pred_rows")


def _weights(sample_weight, n_samples):
    """Weights of shape (n_samples,) (None: ones) and whether the counts stay integers (no or integer weights)."""
    integral = sample_weight is None or np.asarray(sample_weight).dtype.kind in "iub"
    return check_sample_weight(sample_weight, n_samples), integral


def accuracy_score(y_true, y_pred, *, normalize=True, sample_weight=None):
    r"""Fraction (or weighted count) of samples whose predicted label equals the true one.

    Parameters
    ----------
    y_true, y_pred : array-like of shape (n_samples,)
        True and predicted class labels.
    normalize : bool, default True
        Return the weighted fraction :math:`\sum_i w_i [y_i = \hat y_i] / \sum_i w_i`; if False the weighted count
        :math:`\sum_i w_i [y_i = \hat y_i]`.
    sample_weight : array-like of shape (n_samples,), optional

    Returns
    -------
    float
    """
    y_true, y_pred, _ = check_label_pair(y_true, y_pred)
    check_bool(normalize, "normalize")
    w, _ = _weights(sample_weight, y_true.shape[0])
    correct = float(w @ (y_true == y_pred))
    return correct / w.sum() if normalize else correct


def zero_one_loss(y_true, y_pred, *, normalize=True, sample_weight=None):
    """Fraction (or weighted count) of misclassified samples: one minus :func:`accuracy_score`.

    Parameters
    ----------
    y_true, y_pred : array-like of shape (n_samples,)
    normalize : bool, default True
        Return the weighted fraction; if False the weighted count of errors.
    sample_weight : array-like of shape (n_samples,), optional

    Returns
    -------
    float
    """
    score = accuracy_score(y_true, y_pred, normalize=normalize, sample_weight=sample_weight)
    if normalize:
        return 1.0 - score
    total = float(np.sum(check_sample_weight(sample_weight, len(y_true)))) if sample_weight is not None \
        else float(len(y_true))
    return total - score


def _check_labels_arg(labels, present):
    """``labels=`` as an array of the same kind as the data's labels (None: the present labels, sorted)."""
    if labels is None:
        return present
    labels = np.asarray(labels)
    if labels.ndim != 1:
        raise ValueError(f"labels must be 1-D, got shape {labels.shape}")
    if labels.size == 0:
        raise ValueError("labels must contain at least one label")
    if (labels.dtype.kind in "US") != (present.dtype.kind in "US"):
        raise ValueError(f"labels ({labels.dtype}) and the data's labels ({present.dtype}) mix strings and numbers")
    return labels


def confusion_matrix(y_true, y_pred, *, labels=None, sample_weight=None, normalize=None, orientation="true_rows"):
    r"""The confusion matrix :math:`C` with :math:`C_{jk}` the (weighted) number of samples of true class
    ``labels[j]`` predicted as ``labels[k]`` (scikit-learn's orientation: rows are true classes).

    Parameters
    ----------
    y_true, y_pred : array-like of shape (n_samples,)
    labels : array-like of shape (n_classes,), optional
        The classes and their order; samples whose true or predicted label is not among them are left out.
        Default: the sorted labels present in ``y_true`` or ``y_pred``.
    sample_weight : array-like of shape (n_samples,), optional
    normalize : {'true', 'pred', 'all'} or None
        Divide by the row sums over true classes ('true', each true class sums to one), the sums over predicted
        classes ('pred') or the total ('all'); empty classes give 0. Applied before ``orientation``.
    orientation : {'true_rows', 'pred_rows'}, default 'true_rows'
        'true_rows' is scikit-learn's layout; 'pred_rows' returns the transpose, predictions in rows and true
        classes in columns, the layout of the course notes.

    Returns
    -------
    ndarray of shape (n_classes, n_classes)
        Integer counts without weights (or with integer weights), floats otherwise or when normalised.

    Raises
    ------
    ValueError
        If ``labels`` is empty or holds none of ``y_true``'s labels, or an option is unknown.

    Warns
    -----
    UserWarning
        If only one label is found (pass ``labels`` to get the full matrix), as scikit-learn does.
    """
    y_true, y_pred, present = check_label_pair(y_true, y_pred)
    check_option(normalize, "normalize", ("true", "pred", "all", None))
    check_option(orientation, "orientation", ORIENTATIONS)
    labels = _check_labels_arg(labels, present)
    if labels is not present and not np.isin(y_true, labels).any():
        raise ValueError("At least one label specified must be in y_true")
    w, integral = _weights(sample_weight, y_true.shape[0])
    n_labels = labels.shape[0]
    i_true, i_pred = label_indices(y_true, labels), label_indices(y_pred, labels)
    kept = (i_true >= 0) & (i_pred >= 0)
    cm = np.bincount(i_true[kept] * n_labels + i_pred[kept], weights=w[kept],
                     minlength=n_labels * n_labels).reshape(n_labels, n_labels)
    if integral:
        cm = np.rint(cm).astype(np.int64)
    if normalize is not None:
        axis = {"true": 1, "pred": 0, "all": None}[normalize]
        total = cm.sum(axis=axis, keepdims=axis is not None)
        cm = np.divide(cm, total, out=np.zeros(cm.shape), where=total != 0)
    if cm.shape == (1, 1):
        warnings.warn("A single label was found in 'y_true' and 'y_pred'. For the confusion matrix to have the "
                      "correct shape, use the 'labels' parameter to pass all known labels.", UserWarning,
                      stacklevel=2)
    return cm.T if orientation == "pred_rows" else cm


def _warn_division(metric, modifier, n_results):
    """scikit-learn's message for a score set to ``zero_division`` ('due to' one, 'in labels with' several)."""
    where = "due to" if n_results == 1 else "in labels with"
    warn_undefined(f"{metric} is ill-defined and being set to 0.0 {where} no {modifier} samples. Use "
                   f"`zero_division` parameter to control this behavior.", stacklevel=5)


def _divide(numerator, denominator, zero_division, warn, metric, modifier):
    """``numerator / denominator`` elementwise, ``zero_division``'s value where the denominator is 0 (a warning
    when it is 'warn' and ``warn``)."""
    numerator = np.asarray(numerator, dtype=float)
    denominator = np.asarray(denominator, dtype=float)
    zero = denominator == 0
    result = numerator / np.where(zero, 1.0, denominator)
    if zero.any():
        result[zero] = check_zero_division(zero_division)
        if warn and isinstance(zero_division, str):
            _warn_division(metric, modifier, result.shape[0])
    return result


def _nanaverage(values, weights):
    """Average ignoring NaN entries; NaN if all are; unweighted when the weights left sum to zero."""
    keep = ~np.isnan(values)
    if not keep.any():
        return np.nan
    if weights is not None and np.sum(weights[keep]) > 0:
        return float(np.average(values[keep], weights=weights[keep]))
    return float(np.mean(values[keep]))


def _select_labels(present, labels, average, pos_label):
    """The labels a set-wise score is computed for, by scikit-learn's rules for ``average`` and ``pos_label``."""
    check_option(average, "average", AVERAGE_OPTIONS)
    if average == "binary":
        if present.shape[0] > 2:
            raise ValueError(f"Target is multiclass but average='binary'. Please choose another average setting, one "
                             f"of {[None, 'micro', 'macro', 'weighted']}.")
        if not np.isin(np.asarray([pos_label], dtype=object), present.astype(object)).any():
            if present.shape[0] >= 2:
                raise ValueError(f"pos_label={pos_label!r} is not a valid label. It should be one of "
                                 f"{present.tolist()}")
        return np.asarray([pos_label])
    if pos_label not in (None, 1):
        warnings.warn(f"Note that pos_label (set to {pos_label!r}) is ignored when average != 'binary' (got "
                      f"{average!r}). You may use labels=[pos_label] to specify a single positive class.",
                      UserWarning, stacklevel=4)
    return _check_labels_arg(labels, present)


def multilabel_confusion_matrix(y_true, y_pred, *, sample_weight=None, labels=None):
    r"""One-vs-rest confusion matrices: for each class :math:`k`, the 2 x 2 matrix of class :math:`k` against the
    rest, ``[[tn, fp], [fn, tp]]`` (scikit-learn's layout, for binary and multiclass labels).

    Parameters
    ----------
    y_true, y_pred : array-like of shape (n_samples,)
    sample_weight : array-like of shape (n_samples,), optional
    labels : array-like of shape (n_labels,), optional
        The classes and their order (default: the sorted labels present).

    Returns
    -------
    ndarray of shape (n_labels, 2, 2)
        ``[k, 0, 0]`` = :math:`\mathrm{tn}_k`, ``[k, 0, 1]`` = :math:`\mathrm{fp}_k`, ``[k, 1, 0]`` =
        :math:`\mathrm{fn}_k`, ``[k, 1, 1]`` = :math:`\mathrm{tp}_k`; integers without weights.
    """
    y_true, y_pred, present = check_label_pair(y_true, y_pred)
    labels = _check_labels_arg(labels, present)
    tp, pred_sum, true_sum, total = _counts(y_true, y_pred, labels, sample_weight)
    fp, fn = pred_sum - tp, true_sum - tp
    tn = total - tp - fp - fn
    return np.stack([tn, fp, fn, tp], axis=1).reshape(-1, 2, 2)


def _counts(y_true, y_pred, labels, sample_weight):
    w, integral = _weights(sample_weight, y_true.shape[0])
    labels, repeat = np.unique(labels, return_inverse=True)    # a label given twice gets its counts twice
    n_labels = labels.shape[0]
    i_true, i_pred = label_indices(y_true, labels), label_indices(y_pred, labels)
    hit = (i_true == i_pred) & (i_true >= 0)
    tp_sum = np.bincount(i_true[hit], weights=w[hit], minlength=n_labels)
    pred_sum = np.bincount(i_pred[i_pred >= 0], weights=w[i_pred >= 0], minlength=n_labels)
    true_sum = np.bincount(i_true[i_true >= 0], weights=w[i_true >= 0], minlength=n_labels)
    tp_sum, pred_sum, true_sum = tp_sum[repeat], pred_sum[repeat], true_sum[repeat]
    total = w.sum()
    if integral:
        tp_sum, pred_sum, true_sum = (np.rint(a).astype(np.int64) for a in (tp_sum, pred_sum, true_sum))
        total = int(round(total))
    return tp_sum, pred_sum, true_sum, total


def _check_beta(beta):
    return check_scalar(beta, "beta", min_val=0, allow_inf=True)


def precision_recall_fscore_support(y_true, y_pred, *, beta=1.0, labels=None, pos_label=1, average=None,
                                    warn_for=("precision", "recall", "f-score"), sample_weight=None,
                                    zero_division="warn"):
    r"""Precision, recall, :math:`F_\beta` and support of each class, or their average.

    Parameters
    ----------
    y_true, y_pred : array-like of shape (n_samples,)
    beta : float, default 1.0
        The weight of recall in the F-score: :math:`F_\beta = (1+\beta^2) P R / (\beta^2 P + R)`, computed as
        :math:`(1+\beta^2)\,\mathrm{tp} / (\beta^2 (\mathrm{tp}+\mathrm{fn}) + \mathrm{tp}+\mathrm{fp})`;
        ``beta=0`` gives precision, ``beta=inf`` recall.
    labels : array-like, optional
        The classes to score and their order (averages run over them only). Default: the sorted present labels.
    pos_label : int, float, bool or str, default 1
        The positive class when ``average='binary'`` (ignored with a warning otherwise).
    average : {'binary', 'micro', 'macro', 'weighted'} or None, default None
        None: one value per class. 'binary': the class ``pos_label`` only (targets with at most two labels).
        'micro': from the counts summed over the classes. 'macro': the unweighted mean over the classes.
        'weighted': the mean weighted by the support (true count) of each class.
    warn_for : tuple of str
        Which of 'precision', 'recall', 'f-score' warn when set by ``zero_division``.
    sample_weight : array-like of shape (n_samples,), optional
    zero_division : {'warn', 0, 1, np.nan}, default 'warn'
        The value of a score whose denominator is zero ('warn': 0 and an ``UndefinedMetricWarning``); NaN
        values are left out of the averages.

    Returns
    -------
    precision, recall, fbeta : float or ndarray of shape (n_labels,)
    support : ndarray of shape (n_labels,) or None
        The (weighted) number of true samples of each class; None when averaged.

    Raises
    ------
    ValueError
        Unknown ``average`` or ``zero_division``, ``average='binary'`` on more than two labels, a ``pos_label``
        not among two present labels, or invalid labels/weights.
    """
    check_zero_division(zero_division)
    beta = _check_beta(beta)
    y_true, y_pred, present = check_label_pair(y_true, y_pred)
    labels = _select_labels(present, labels, average, pos_label)
    tp_sum, pred_sum, true_sum, _ = _counts(y_true, y_pred, labels, sample_weight)
    if average == "micro":
        tp_sum, pred_sum, true_sum = (np.asarray([a.sum()]) for a in (tp_sum, pred_sum, true_sum))
    precision = _divide(tp_sum, pred_sum, zero_division, "precision" in warn_for, "Precision", "predicted")
    recall = _divide(tp_sum, true_sum, zero_division, "recall" in warn_for, "Recall", "true")
    if np.isposinf(beta):
        fbeta = recall
    elif beta == 0:
        fbeta = precision
    else:
        beta2 = beta ** 2
        fbeta = _divide((1 + beta2) * tp_sum, beta2 * true_sum + pred_sum.astype(float), zero_division,
                        "f-score" in warn_for, "F-score", "true nor predicted")
    if average is None:
        return precision, recall, fbeta, true_sum
    weights = true_sum.astype(float) if average == "weighted" else None
    return _nanaverage(precision, weights), _nanaverage(recall, weights), _nanaverage(fbeta, weights), None


def precision_score(y_true, y_pred, *, labels=None, pos_label=1, average="binary", sample_weight=None,
                    zero_division="warn"):
    r"""Precision :math:`\mathrm{tp}/(\mathrm{tp}+\mathrm{fp})`: the fraction of predicted positives that are
    positive. Parameters as :func:`precision_recall_fscore_support`.

    Returns
    -------
    float or ndarray of shape (n_labels,)
        A float when ``average`` is not None.
    """
    return precision_recall_fscore_support(y_true, y_pred, labels=labels, pos_label=pos_label, average=average,
                                           warn_for=("precision",), sample_weight=sample_weight,
                                           zero_division=zero_division)[0]


def recall_score(y_true, y_pred, *, labels=None, pos_label=1, average="binary", sample_weight=None,
                 zero_division="warn"):
    r"""Recall (sensitivity, true positive rate) :math:`\mathrm{tp}/(\mathrm{tp}+\mathrm{fn})`: the fraction of
    positives predicted positive. Parameters as :func:`precision_recall_fscore_support`.

    Returns
    -------
    float or ndarray of shape (n_labels,)
    """
    return precision_recall_fscore_support(y_true, y_pred, labels=labels, pos_label=pos_label, average=average,
                                           warn_for=("recall",), sample_weight=sample_weight,
                                           zero_division=zero_division)[1]


def fbeta_score(y_true, y_pred, *, beta, labels=None, pos_label=1, average="binary", sample_weight=None,
                zero_division="warn"):
    r""":math:`F_\beta = (1+\beta^2)\,\mathrm{tp} / ((1+\beta^2)\,\mathrm{tp} + \beta^2\mathrm{fn} + \mathrm{fp})`,
    the weighted harmonic mean of precision and recall. Parameters as :func:`precision_recall_fscore_support`.

    Returns
    -------
    float or ndarray of shape (n_labels,)
    """
    return precision_recall_fscore_support(y_true, y_pred, beta=beta, labels=labels, pos_label=pos_label,
                                           average=average, warn_for=("f-score",), sample_weight=sample_weight,
                                           zero_division=zero_division)[2]


def f1_score(y_true, y_pred, *, labels=None, pos_label=1, average="binary", sample_weight=None,
             zero_division="warn"):
    r""":math:`F_1 = 2\,\mathrm{tp} / (2\,\mathrm{tp} + \mathrm{fn} + \mathrm{fp})`, the harmonic mean of precision
    and recall (:func:`fbeta_score` with ``beta=1``).

    Returns
    -------
    float or ndarray of shape (n_labels,)
    """
    return fbeta_score(y_true, y_pred, beta=1, labels=labels, pos_label=pos_label, average=average,
                       sample_weight=sample_weight, zero_division=zero_division)


def specificity_score(y_true, y_pred, *, labels=None, pos_label=1, average="binary", sample_weight=None,
                      zero_division="warn"):
    r"""Specificity (true negative rate) :math:`\mathrm{tn}/(\mathrm{tn}+\mathrm{fp})`: the fraction of negatives
    predicted negative, i.e. the recall of the negative class. An addition: scikit-learn has no such function.

    Parameters
    ----------
    y_true, y_pred : array-like of shape (n_samples,)
    labels, pos_label, average, sample_weight, zero_division
        As in :func:`recall_score`; per class :math:`k` the negatives are the samples whose true label is not
        :math:`k`. 'micro' pools :math:`\mathrm{tn}` and :math:`\mathrm{fp}` over the classes; 'weighted' weights
        each class by its support (its true count), as for the other scores.

    Returns
    -------
    float or ndarray of shape (n_labels,)

    Notes
    -----
    In the binary case ``specificity_score(y, p, pos_label=a)`` equals ``recall_score(y, p, pos_label=b)`` where
    ``b`` is the other label. A class without negative samples gets ``zero_division`` (warning "no negative
    samples").
    """
    check_zero_division(zero_division)
    y_true, y_pred, present = check_label_pair(y_true, y_pred)
    labels = _select_labels(present, labels, average, pos_label)
    tp_sum, pred_sum, true_sum, total = _counts(y_true, y_pred, labels, sample_weight)
    fp = pred_sum - tp_sum
    negatives = total - true_sum
    tn = negatives - fp
    if average == "micro":
        tn, negatives = np.asarray([tn.sum()]), np.asarray([negatives.sum()])
    specificity = _divide(tn, negatives, zero_division, True, "Specificity", "negative")
    if average is None:
        return specificity
    return _nanaverage(specificity, true_sum.astype(float) if average == "weighted" else None)


def log_loss(y_true, y_proba, *, normalize=True, sample_weight=None, labels=None):
    r"""The cross-entropy :math:`-\frac{1}{\sum_i w_i}\sum_i w_i \log p_{i, y_i}` of predicted probabilities.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
    y_proba : array-like of shape (n_samples, n_classes) or (n_samples,)
        Probabilities, columns in the sorted order of the labels; a vector is the probability of the larger of
        two labels. Clipped to :math:`[\epsilon, 1-\epsilon]` (machine epsilon) as scikit-learn does.
    normalize : bool, default True
        The weighted mean; if False the weighted sum.
    sample_weight : array-like of shape (n_samples,), optional
    labels : array-like, optional
        All the classes (needed when ``y_true`` lacks some).

    Returns
    -------
    float

    Raises
    ------
    ValueError
        Probabilities outside [0, 1], NaN/inf, a column count different from the number of classes, fewer than
        two classes, or labels of ``y_true`` missing from ``labels``.

    Warns
    -----
    UserWarning
        If the rows do not sum to one (within :math:`\sqrt\epsilon`).
    """
    y_true = as_label_vector(y_true, "y_true")
    check_bool(normalize, "normalize")
    proba = to_float_array(y_proba, "y_proba")
    if proba.ndim == 1:
        proba = proba[:, None]
    if proba.ndim != 2:
        raise ValueError(f"y_proba must have shape (n_samples, n_classes) or (n_samples,), got {proba.shape}")
    check_same_length("y_true", y_true, "y_proba", proba)
    if not np.isfinite(proba).all():
        raise ValueError("y_proba contains NaN or infinity")
    if proba.max() > 1:
        raise ValueError(f"y_proba contains values greater than 1: {proba.max()}")
    if proba.min() < 0:
        raise ValueError(f"y_proba contains values lower than 0: {proba.min()}")
    w = check_sample_weight(sample_weight, y_true.shape[0])
    classes = np.unique(y_true if labels is None else np.asarray(labels))
    if labels is not None and not np.isin(y_true, classes).all():
        raise ValueError(f"y_true contains values {sorted(set(np.setdiff1d(y_true, classes).tolist()))} not belonging "
                         f"to the passed labels {classes.tolist()}")
    if classes.shape[0] < 2:
        raise ValueError(f"y_true contains only one label ({classes[0]!r}): pass all the expected class labels "
                         f"through the labels argument")
    if proba.shape[1] == 1:
        proba = np.hstack([1 - proba, proba])
    eps = np.finfo(float).eps
    if not np.allclose(proba.sum(axis=1), 1, rtol=np.sqrt(eps), atol=0):
        warnings.warn("The y_prob values do not sum to one. Make sure to pass probabilities.", UserWarning,
                      stacklevel=2)
    if proba.shape[1] != classes.shape[0]:
        raise ValueError(f"y_true has {classes.shape[0]} classes ({classes.tolist()[:5]}) but y_proba has "
                         f"{proba.shape[1]} columns; pass all the classes through labels")
    p_true = np.clip(proba[np.arange(proba.shape[0]), np.searchsorted(classes, y_true)], eps, 1 - eps)
    loss = -np.log(p_true)
    return float(w @ loss / w.sum()) if normalize else float(w @ loss)
