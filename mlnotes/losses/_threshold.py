r"""Choosing the decision threshold of a scoring classifier.

A classifier that outputs a score :math:`s(x)` (a probability :math:`h(x)`, or any real score) predicts
:math:`\hat y = \mathbb 1[s(x) > \tau]` with labels :math:`y \in \{0, 1\}`. Its error rate on a sample,

.. math:: E(\tau) = \frac1n \sum_{i=1}^n \big[\mathbb 1[s_i > \tau] \ne y_i\big],

is a step function of :math:`\tau` that changes only at the scores, so it is minimised exactly by
sorting them (:func:`best_threshold`). Under a change of class priors, a calibrated probability needs
the threshold of :func:`label_shift_threshold`. Derived in chapter 5, *Loss functions*.
"""

import numpy as np

from ..utils.validation import as_float_vector, check_scalar


def _scores_and_labels(scores, y):
    scores = as_float_vector(scores, "scores")
    y = as_float_vector(y, "y", scores.shape[0])
    if not np.isin(y, (0.0, 1.0)).all():
        raise ValueError(f"labels y must be 0 or 1 for a threshold rule 1[score > tau], got values {np.unique(y)[:5]}")
    return scores, y


def threshold_errors(scores, y, thresholds):
    r"""Error rate :math:`E(\tau)` of the rule :math:`\mathbb 1[s > \tau]` at each threshold.

    Parameters
    ----------
    scores : array of shape (n_samples,)
    y : array of shape (n_samples,)
        Labels 0 or 1.
    thresholds : float or array of shape (n_thresholds,)

    Returns
    -------
    errors : ndarray of shape (n_thresholds,) (a 0-d array for a scalar threshold)

    Notes
    -----
    :math:`nE(\tau) = \#\{i: y_i = 1, s_i \le \tau\} + \#\{i: y_i = 0, s_i > \tau\}`, counted for all
    thresholds at once by binary search in the sorted scores of each class, in
    :math:`O((n + k)\log n)` for :math:`k` thresholds.
    """
    scores, y = _scores_and_labels(scores, y)
    tau = np.asarray(thresholds, dtype=float)
    if np.isnan(tau).any():
        raise ValueError("thresholds contain NaN")
    positive = np.sort(scores[y == 1])
    negative = np.sort(scores[y == 0])
    false_negatives = np.searchsorted(positive, tau, side="right")
    false_positives = negative.shape[0] - np.searchsorted(negative, tau, side="right")
    return (false_negatives + false_positives) / scores.shape[0]


def best_threshold(scores, y):
    r"""The threshold that minimises the error rate :math:`E(\tau)` on the given sample.

    Parameters
    ----------
    scores : array of shape (n_samples,)
    y : array of shape (n_samples,)
        Labels 0 or 1.

    Returns
    -------
    tau : float
        The midpoint of the first interval between consecutive distinct scores on which :math:`E` is
        smallest; ``-inf`` (predict 1 everywhere) or ``+inf`` (predict 0 everywhere) when an outer
        interval is best.
    error : float
        :math:`E(\tau)`.

    Notes
    -----
    :math:`E` is constant between consecutive distinct scores, so the :math:`k + 1` intervals they
    delimit are the only candidates. Choose the threshold on held-out (validation) data, never on the
    test set whose error is to be reported: the minimum of a noisy error curve is biased low.
    """
    scores, y = _scores_and_labels(scores, y)
    distinct = np.unique(scores)
    candidates = np.concatenate([[-np.inf], (distinct[:-1] + distinct[1:]) / 2, [np.inf]])
    errors = threshold_errors(scores, y, candidates)
    k = int(np.argmin(errors))
    return float(candidates[k]), float(errors[k])


def label_shift_threshold(pi_train, pi_test):
    r"""Threshold on a calibrated probability after the positive-class prior changes.

    If :math:`h(x) = P_{\text{train}}(y = 1 \mid x)` with training prior :math:`\pi = P_{\text{train}}(y=1)`
    and the test prior is :math:`\pi'`, while :math:`p(x \mid y)` is unchanged, the rule with the smallest
    test error predicts 1 iff :math:`h(x) > \tau` with

    .. math:: \tau = \frac{\pi (1 - \pi')}{\pi (1 - \pi') + \pi' (1 - \pi)} .

    Parameters
    ----------
    pi_train, pi_test : float in (0, 1)

    Returns
    -------
    tau : float in (0, 1)

    Notes
    -----
    :math:`\tau = 1/2` when the priors agree; a training prior of 0.9 and a test prior of 0.6 give
    :math:`\tau = 6/7`. Derived in chapter 5, *Loss functions*.
    """
    # both classes must be possible: priors in the open interval (0, 1)
    pi = check_scalar(pi_train, "pi_train", min_val=0, max_val=1, include_boundaries="neither")
    pi_new = check_scalar(pi_test, "pi_test", min_val=0, max_val=1, include_boundaries="neither")
    return pi * (1 - pi_new) / (pi * (1 - pi_new) + pi_new * (1 - pi))
