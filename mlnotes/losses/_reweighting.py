r"""Importance weights for a change of class priors (label shift).

When the class proportions differ between training and test data but the class-conditional distributions
:math:`p(x \mid y)` do not, weighting each training loss by :math:`r(y) = p_{\text{test}}(y) / p_{\text{train}}(y)`
makes the weighted training risk an unbiased estimate of the test risk:

.. math:: \mathbb E_{\text{train}}\big[r(Y)\,\ell(Y, f(X))\big] = \mathbb E_{\text{test}}\big[\ell(Y, f(X))\big].

Derived in chapter 5, *Loss functions* (imbalanced classes).
"""

import numpy as np

from ..utils.validation import as_float_vector


def _check_prior(prior, name):
    if not isinstance(prior, dict) or not prior:
        raise TypeError(f"{name} must be a non-empty dict {{label: probability}}, got {type(prior).__name__}")
    p = as_float_vector(list(prior.values()), name)
    if (p < 0).any():
        raise ValueError(f"{name} has negative probabilities: {prior}")
    if not np.isclose(p.sum(), 1.0, rtol=0, atol=1e-9):
        raise ValueError(f"{name} must sum to 1, got {p.sum():.6g}")
    return {float(k): float(v) for k, v in prior.items()}


def class_priors(y):
    r"""The class proportions of ``y`` as ``{label: fraction}``, labels in increasing order.

    Parameters
    ----------
    y : array of shape (n_samples,)
        Class labels (numbers).

    Returns
    -------
    dict
    """
    y = as_float_vector(y, "y")
    labels, counts = np.unique(y, return_counts=True)
    return {float(k): float(c) / y.shape[0] for k, c in zip(labels, counts)}


def importance_weights(y, p_test, p_train=None):
    r"""Per-sample weights :math:`r_i = p_{\text{test}}(y_i) / p_{\text{train}}(y_i)` for a label shift.

    Parameters
    ----------
    y : array of shape (n_samples,)
        Training labels.
    p_test : dict {label: probability}
        Class priors of the test distribution.
    p_train : dict {label: probability}, optional
        Class priors of the training distribution; by default the class proportions of ``y``
        (:func:`class_priors`).

    Returns
    -------
    r : ndarray of shape (n_samples,)

    Raises
    ------
    ValueError
        If a prior does not sum to 1, a label of ``y`` has no prior, or a class with positive test
        probability has training probability 0 (no weighting of the training data can represent it).

    Notes
    -----
    With :math:`p_{\text{test}}(x \mid y) = p_{\text{train}}(x \mid y)`,
    :math:`\frac1n\sum_i r_i\,\ell_i` is an unbiased estimate of the test risk. For a 90/10 training set
    and a 60/40 test set, :math:`r(+1) = 2/3` and :math:`r(-1) = 4`: the ratio is 6. Chapter 5, *Loss functions*.
    """
    y = as_float_vector(y, "y")
    p_test = _check_prior(p_test, "p_test")
    p_train = class_priors(y) if p_train is None else _check_prior(p_train, "p_train")
    missing = sorted(set(np.unique(y)) - set(p_train) | set(np.unique(y)) - set(p_test))
    if missing:
        raise ValueError(f"labels {missing} of y have no prior in p_train or p_test")
    impossible = [k for k in np.unique(y) if p_train[k] == 0.0]
    if impossible:
        raise ValueError(f"labels {impossible} occur in y but have training probability 0 in p_train")
    unseen = [k for k, v in p_test.items() if v > 0 and p_train.get(k, 0.0) == 0.0]
    if unseen:
        raise ValueError(f"classes {unseen} have positive test probability but training probability 0: "
                         "no weighting of the training data can represent them")
    labels = np.array(sorted(p_train))
    ratio = np.array([p_test.get(k, 0.0) / p_train[k] if p_train[k] > 0 else 0.0 for k in labels])
    # labels is sorted and contains every label of y, so searchsorted finds each one exactly
    return ratio[np.searchsorted(labels, y)]
