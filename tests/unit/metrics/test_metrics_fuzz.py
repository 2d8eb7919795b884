"""Seeded random small cases (1-6 samples, 1-3 classes, zero weights, string labels, every average and
zero_division): the label scores and the curves equal scikit-learn's, with the same errors and warnings.
Weights that are all zero are left out: mlnotes rejects them with a ValueError (a deliberate difference)."""

import warnings

import numpy as np
import pytest
from sklearn import metrics as sk

from mlnotes import metrics as M

AVERAGES = [None, "micro", "macro", "weighted", "binary"]
ZERO_DIVISION = ["warn", 0, 1, np.nan]


def outcome(f, *args, **kwargs):
    """(result, error class name, set of (warning class name, message))."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            result, error = f(*args, **kwargs), None
        except ValueError as exc:
            result, error = None, type(exc).__name__
    return result, error, sorted({(w.category.__name__, str(w.message)) for w in caught})


def equal(a, b):
    if isinstance(a, tuple):
        return isinstance(b, tuple) and len(a) == len(b) and all(equal(u, v) for u, v in zip(a, b))
    if a is None or b is None:
        return a is None and b is None
    a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    return a.shape == b.shape and np.allclose(a, b, rtol=0, atol=1e-12, equal_nan=True)


def small_case(rng, t):
    n, n_classes = int(rng.integers(1, 7)), int(rng.integers(1, 4))
    y_true, y_pred = rng.integers(0, n_classes, n), rng.integers(0, n_classes, n)
    if t % 4 == 0:
        y_true, y_pred = np.array(list("xyz"))[y_true], np.array(list("xyz"))[y_pred]
    w = None if t % 3 else rng.choice([0.0, 0.5, 1.0, 2.0], n)
    if w is not None and w.sum() == 0:
        w[0] = 1.0
    return y_true, y_pred, w


@pytest.mark.parametrize("block", range(3))
def test_label_scores_match_sklearn_on_random_small_cases(block):
    rng = np.random.default_rng(block)
    for t in range(60):
        y_true, y_pred, w = small_case(rng, t)
        kwargs = dict(sample_weight=w, zero_division=ZERO_DIVISION[t % 4], average=AVERAGES[t % 5])
        if t % 7 == 0:
            kwargs["labels"] = list(rng.choice(np.unique(np.r_[y_true, y_pred]), int(rng.integers(1, 3))))
        if t % 10 == 9:
            kwargs["pos_label"] = y_true[0]
        for name in ("precision_recall_fscore_support", "precision_score", "recall_score", "f1_score"):
            ours, theirs = outcome(getattr(M, name), y_true, y_pred, **kwargs), \
                outcome(getattr(sk, name), y_true, y_pred, **kwargs)
            assert equal(ours[0], theirs[0]) and ours[1:] == theirs[1:], (name, y_true, y_pred, kwargs, ours, theirs)


@pytest.mark.parametrize("block", range(2))
def test_curves_match_sklearn_on_random_small_cases(block):
    rng = np.random.default_rng(100 + block)
    for t in range(60):
        n = int(rng.integers(1, 7))
        y, score = rng.integers(0, 2, n), rng.integers(0, 3, n).astype(float)
        w = None if t % 3 else rng.choice([0.0, 0.5, 1.0, 2.0], n)
        if w is not None and w.sum() == 0:
            w[0] = 1.0                                    # all-zero weights: our ValueError (scikit-learn: NaN)
        for name in ("roc_curve", "precision_recall_curve", "roc_auc_score", "average_precision_score"):
            kwargs = {"sample_weight": w}
            if name.endswith("curve"):
                kwargs["drop_intermediate"] = bool(t % 2)
            ours, theirs = outcome(getattr(M, name), y, score, **kwargs), \
                outcome(getattr(sk, name), y, score, **kwargs)
            assert equal(ours[0], theirs[0]) and ours[1] == theirs[1], (name, y, score, kwargs, ours, theirs)
            assert [c for c, _ in ours[2]] == [c for c, _ in theirs[2]], (name, y, score, ours[2], theirs[2])
