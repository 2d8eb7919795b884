"""Scores from labels: parity with scikit-learn (labels=, pos_label, average, sample_weight, zero_division,
string labels), the identities between them, specificity, confusion-matrix orientation, and bad input."""

import warnings

import numpy as np
import pytest
from sklearn import metrics as sk
from sklearn.exceptions import UndefinedMetricWarning

from mlnotes import metrics as M

TOL = 1e-12
AVERAGES = [None, "micro", "macro", "weighted"]


def problem(seed, n, n_classes, labels=None, weighted=False):
    rng = np.random.default_rng(seed)
    y_true = rng.integers(0, n_classes, n)
    y_pred = np.where(rng.random(n) < 0.5, y_true, rng.integers(0, n_classes, n))
    if labels is not None:
        y_true, y_pred = np.asarray(labels)[y_true], np.asarray(labels)[y_pred]
    w = rng.uniform(0, 2, n) * (rng.random(n) > 0.1) if weighted else None
    if weighted:
        w[0] = 1.0
    return y_true, y_pred, w


def same(a, b):
    """Equal results: both None, or equal shapes and values within TOL (NaN where the other has NaN)."""
    if a is None or b is None:
        return a is None and b is None
    a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    return a.shape == b.shape and np.allclose(a, b, rtol=0, atol=TOL, equal_nan=True)


def same_result(a, b):
    """Equal outcomes: the same error message, or results equal as in :func:`same` (tuples entry by entry)."""
    if isinstance(a, tuple) and len(a) == 2 and a[0] == "ValueError":
        return a == b
    if isinstance(a, tuple):
        return isinstance(b, tuple) and len(a) == len(b) and all(same(u, v) for u, v in zip(a, b))
    return same(a, b)


def both(f_ours, f_theirs, *args, **kwargs):
    """Call both; return the results and the warning messages (class and text) of each."""
    out = []
    for f in (f_ours, f_theirs):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            try:
                result = f(*args, **kwargs)
            except ValueError as exc:
                result = ("ValueError", str(exc))
        out.append((result, sorted({(w.category.__name__, str(w.message)) for w in caught})))
    return out


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("n_classes", [2, 3, 5])
@pytest.mark.parametrize("weighted", [False, True])
def test_prfs_match_sklearn(seed, n_classes, weighted):
    y_true, y_pred, w = problem(seed, 40, n_classes, weighted=weighted)
    for average in AVERAGES + (["binary"] if n_classes == 2 else []):
        for beta in (0.5, 1.0, 2.0):
            (ours, w1), (theirs, w2) = both(M.precision_recall_fscore_support, sk.precision_recall_fscore_support,
                                            y_true, y_pred, beta=beta, average=average, sample_weight=w)
            assert same_result(ours, theirs), (average, ours, theirs)
            assert w1 == w2
    for ours, theirs in [(M.precision_score, sk.precision_score), (M.recall_score, sk.recall_score),
                         (M.f1_score, sk.f1_score)]:
        for average in AVERAGES:
            assert same(ours(y_true, y_pred, average=average, sample_weight=w),
                        theirs(y_true, y_pred, average=average, sample_weight=w))
    assert M.accuracy_score(y_true, y_pred, sample_weight=w) == pytest.approx(
        sk.accuracy_score(y_true, y_pred, sample_weight=w), abs=TOL)
    assert M.zero_one_loss(y_true, y_pred, normalize=False, sample_weight=w) == pytest.approx(
        sk.zero_one_loss(y_true, y_pred, normalize=False, sample_weight=w), abs=TOL)


@pytest.mark.parametrize("labels", [[2, 0], [1], [0, 1, 2, 7], [3, 1, 0]])
def test_labels_argument_selects_and_orders(labels):
    y_true, y_pred, w = problem(11, 30, 4, weighted=True)
    for average in AVERAGES:
        (ours, w1), (theirs, w2) = both(M.precision_recall_fscore_support, sk.precision_recall_fscore_support,
                                        y_true, y_pred, labels=labels, average=average, sample_weight=w)
        assert same_result(ours, theirs) and w1 == w2
    (ours, w1), (theirs, w2) = both(M.confusion_matrix, sk.confusion_matrix, y_true, y_pred, labels=labels,
                                    sample_weight=w)
    assert same(ours, theirs) and w1 == w2


def test_string_labels_and_pos_label():
    y_true, y_pred, _ = problem(2, 25, 2, labels=["cat", "dog"])
    for pos in ("cat", "dog"):
        for ours, theirs in [(M.precision_score, sk.precision_score), (M.recall_score, sk.recall_score),
                             (M.f1_score, sk.f1_score)]:
            assert ours(y_true, y_pred, pos_label=pos) == theirs(y_true, y_pred, pos_label=pos)
    (ours, _), (theirs, _) = both(M.f1_score, sk.f1_score, y_true, y_pred)      # pos_label=1 is not a label
    assert ours[0] == theirs[0] == "ValueError" and "not a valid label" in ours[1]
    assert same(M.confusion_matrix(y_true, y_pred), sk.confusion_matrix(y_true, y_pred))
    y3, p3, _ = problem(2, 25, 3, labels=["a", "b", "c"])
    (ours, _), (theirs, _) = both(M.precision_score, sk.precision_score, y3, p3)   # binary average, 3 labels
    assert ours[0] == theirs[0] == "ValueError" and "average='binary'" in ours[1]
    (ours, w1), (theirs, w2) = both(M.recall_score, sk.recall_score, y3, p3, average="macro", pos_label="a")
    assert ours == theirs and w1 == w2 and w1                     # pos_label ignored, with the same warning


@pytest.mark.parametrize("zero_division", ["warn", 0, 1, 0.0, 1.0, np.nan])
def test_zero_division_like_sklearn(zero_division):
    cases = [([0, 0, 0], [0, 0, 0]),             # no positive at all: recall, precision and F undefined
             ([0, 1, 0], [0, 0, 0]),             # no predicted positive: precision undefined
             ([0, 0, 0], [1, 0, 0]),             # no true positive: recall undefined
             ([0, 1, 2, 2], [0, 0, 2, 2])]       # a class never predicted
    for y_true, y_pred in cases:
        for average in AVERAGES + ["binary"]:
            if average == "binary" and len(set(y_true) | set(y_pred)) > 2:
                continue
            for ours, theirs in [(M.precision_score, sk.precision_score), (M.recall_score, sk.recall_score),
                                 (M.f1_score, sk.f1_score),
                                 (M.precision_recall_fscore_support, sk.precision_recall_fscore_support)]:
                (a, w1), (b, w2) = both(ours, theirs, y_true, y_pred, average=average, zero_division=zero_division)
                assert same_result(a, b), (ours, average, a, b)
                assert w1 == w2, (ours, y_true, y_pred, average, w1, w2)


def test_recall_without_positives_warns_undefined_metric():
    with pytest.warns(UndefinedMetricWarning, match="Recall is ill-defined"):
        assert M.recall_score([0, 0, 0], [0, 1, 0]) == 0.0
    assert M.recall_score([0, 0, 0], [0, 1, 0], zero_division=1) == 1.0
    with pytest.raises(ValueError, match="zero_division"):
        M.recall_score([0, 1], [0, 1], zero_division=0.5)


def test_f_beta_identities():
    y_true, y_pred, w = problem(5, 60, 2, weighted=True)
    p = M.precision_score(y_true, y_pred, sample_weight=w)
    r = M.recall_score(y_true, y_pred, sample_weight=w)
    for beta in (0.5, 1, 3):
        f = M.fbeta_score(y_true, y_pred, beta=beta, sample_weight=w)
        assert f == pytest.approx((1 + beta ** 2) * p * r / (beta ** 2 * p + r), abs=1e-14)
    assert M.fbeta_score(y_true, y_pred, beta=0, sample_weight=w) == p
    assert M.fbeta_score(y_true, y_pred, beta=np.inf, sample_weight=w) == r
    assert M.f1_score(y_true, y_pred, sample_weight=w) == pytest.approx(2 * p * r / (p + r), abs=1e-14)
    with pytest.raises(ValueError, match="beta"):
        M.fbeta_score(y_true, y_pred, beta=-1)


def test_specificity_is_recall_of_the_negative_class():
    y_true, y_pred, w = problem(6, 50, 2, labels=["neg", "pos"], weighted=True)
    assert M.specificity_score(y_true, y_pred, pos_label="pos", sample_weight=w) == pytest.approx(
        sk.recall_score(y_true, y_pred, pos_label="neg", sample_weight=w), abs=TOL)
    # multiclass, per class: tn / (tn + fp) from the one-vs-rest confusion matrices of scikit-learn
    y3, p3, w3 = problem(7, 60, 3, weighted=True)
    mcm = sk.multilabel_confusion_matrix(y3, p3, sample_weight=w3)
    tn, fp = mcm[:, 0, 0], mcm[:, 0, 1]
    np.testing.assert_allclose(M.specificity_score(y3, p3, average=None, sample_weight=w3), tn / (tn + fp),
                               rtol=0, atol=TOL)
    assert M.specificity_score(y3, p3, average="micro", sample_weight=w3) == pytest.approx(
        tn.sum() / (tn + fp).sum(), abs=TOL)
    support = mcm[:, 1, 0] + mcm[:, 1, 1]
    assert M.specificity_score(y3, p3, average="weighted", sample_weight=w3) == pytest.approx(
        np.average(tn / (tn + fp), weights=support), abs=TOL)
    with pytest.warns(UndefinedMetricWarning, match="no negative samples"):
        assert M.specificity_score([1, 1], [1, 0]) == 0.0


def test_confusion_matrix_orientation_normalize_and_weights():
    y_true, y_pred, w = problem(8, 40, 3, labels=["a", "b", "c"], weighted=True)
    for normalize in (None, "true", "pred", "all"):
        cm = M.confusion_matrix(y_true, y_pred, sample_weight=w, normalize=normalize)
        assert same(cm, sk.confusion_matrix(y_true, y_pred, sample_weight=w, normalize=normalize))
        np.testing.assert_array_equal(M.confusion_matrix(y_true, y_pred, sample_weight=w, normalize=normalize,
                                                         orientation="pred_rows"), cm.T)
    cm = M.confusion_matrix(y_true, y_pred)
    assert cm.dtype.kind == "i" and cm.sum() == 40
    assert M.confusion_matrix([0, 1, 1], [1, 1, 0], sample_weight=[2, 1, 3]).dtype.kind == "i"
    with pytest.warns(UserWarning, match="single label"):
        M.confusion_matrix([1, 1], [1, 1])
    with pytest.raises(ValueError, match="At least one label"):
        M.confusion_matrix([0, 1], [0, 1], labels=[5])
    with pytest.raises(ValueError, match="orientation"):
        M.confusion_matrix([0, 1], [0, 1], orientation="rows")


def test_log_loss_matches_sklearn():
    rng = np.random.default_rng(9)
    y = rng.integers(0, 3, 30)
    proba = rng.dirichlet(np.ones(3), 30)
    proba[0] = [1.0, 0.0, 0.0]                                   # clipped away from log(0)
    w = rng.uniform(0.5, 2, 30)
    assert M.log_loss(y, proba, sample_weight=w) == pytest.approx(sk.log_loss(y, proba, sample_weight=w), abs=TOL)
    assert M.log_loss(y, proba, normalize=False) == pytest.approx(sk.log_loss(y, proba, normalize=False), abs=1e-10)
    yb = np.array(["no", "yes", "yes", "no"])
    pb = np.array([0.2, 0.7, 0.9, 0.4])
    assert M.log_loss(yb, pb) == pytest.approx(sk.log_loss(yb, pb), abs=TOL)
    assert M.log_loss([1, 1], [[0.3, 0.7], [0.1, 0.9]], labels=[0, 1]) == pytest.approx(
        sk.log_loss([1, 1], [[0.3, 0.7], [0.1, 0.9]], labels=[0, 1]), abs=TOL)
    with pytest.raises(ValueError, match="only one label"):
        M.log_loss([1, 1], [0.5, 0.5])
    with pytest.raises(ValueError, match="greater than 1"):
        M.log_loss([0, 1], [0.5, 1.5])
    with pytest.raises(ValueError, match="columns"):
        M.log_loss([0, 1, 2], [[0.5, 0.5]] * 3)
    with pytest.warns(UserWarning, match="do not sum to one"):
        M.log_loss([0, 1], [[0.5, 0.4], [0.5, 0.5]])


@pytest.mark.parametrize("f", [M.accuracy_score, M.precision_score, M.recall_score, M.f1_score,
                               M.specificity_score, M.confusion_matrix, M.zero_one_loss])
def test_bad_input_is_rejected(f):
    with pytest.raises(ValueError, match="3 samples but y_pred has 2"):
        f([0, 1, 0], [0, 1])
    with pytest.raises(ValueError, match="empty"):
        f([], [])
    with pytest.raises(ValueError, match="continuous"):
        f([0.5, 1.0], [0, 1])
    with pytest.raises(ValueError, match="NaN"):
        f([np.nan, 1.0], [0, 1])
    with pytest.raises(ValueError, match="mix"):
        f(["a", "b"], [0, 1])
    with pytest.raises(ValueError, match="non-negative"):
        f([0, 1], [0, 1], sample_weight=[1, -1])
    with pytest.raises(ValueError, match="all are zero"):
        f([0, 1], [0, 1], sample_weight=[0, 0])


def test_unknown_average():
    with pytest.raises(ValueError, match="average"):
        M.f1_score([0, 1], [0, 1], average="samples_mean")


def test_repeated_labels_like_sklearn():
    y_true, y_pred = [0, 1, 2, 2], [0, 1, 1, 2]
    (ours, _), (theirs, _) = both(M.precision_recall_fscore_support, sk.precision_recall_fscore_support,
                                  y_true, y_pred, labels=[2, 0, 2])
    assert same_result(ours, theirs)
    (ours, _), (theirs, _) = both(M.confusion_matrix, sk.confusion_matrix, y_true, y_pred, labels=[0, 0, 1])
    assert same(ours, theirs)                              # the last of the repeated labels gets the counts


@pytest.mark.parametrize("labels", [None, [2, 0], ["missing"]])
def test_multilabel_confusion_matrix_matches_sklearn(labels):
    y_true, y_pred, w = problem(12, 40, 3, weighted=True)
    if labels == ["missing"]:
        y_true, y_pred = np.array(list("abc"))[y_true], np.array(list("abc"))[y_pred]
        labels = ["c", "missing", "a"]
    for weights in (None, w):
        ours = M.multilabel_confusion_matrix(y_true, y_pred, sample_weight=weights, labels=labels)
        theirs = sk.multilabel_confusion_matrix(y_true, y_pred, sample_weight=weights, labels=labels)
        assert same(ours, theirs) and ours.dtype.kind == theirs.dtype.kind
