"""ROC, AUC, precision-recall, average precision and lift: parity with scikit-learn on data with many ties,
the Mann-Whitney property by brute force, and the edge cases."""

import warnings

import numpy as np
import pytest
from sklearn import metrics as sk
from sklearn.exceptions import UndefinedMetricWarning

from mlnotes import metrics as M

TOL = 1e-12          # parity tolerance: equal up to the rounding of a different summation order


def tied_problem(seed, n, n_levels=5, labels=(0, 1), weighted=False):
    """Labels and integer-rounded scores (many ties), scores slightly informative; optional weights."""
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, n)
    y[:2] = [0, 1]                                                       # both classes present
    score = np.round(rng.normal(size=n) + y, 0) if n_levels is None else rng.integers(0, n_levels, n) + y
    w = rng.uniform(0, 3, n) * (rng.random(n) > 0.1) if weighted else None   # some weights exactly zero
    if weighted:
        w[:2] = 1.0
    return np.asarray(labels)[y], score.astype(float), w


def assert_arrays(actual, expected, tol=TOL):
    for a, e in zip(actual, expected):
        assert a.shape == e.shape
        np.testing.assert_allclose(a, e, rtol=0, atol=tol)


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("n", [2, 7, 60, 400])
def test_curves_and_areas_match_sklearn_with_ties(seed, weighted, n):
    y, s, w = tied_problem(seed, n, n_levels=3 if seed % 2 else None, weighted=weighted)
    for drop in (True, False):
        assert_arrays(M.roc_curve(y, s, sample_weight=w, drop_intermediate=drop),
                      sk.roc_curve(y, s, sample_weight=w, drop_intermediate=drop))
        assert_arrays(M.precision_recall_curve(y, s, sample_weight=w, drop_intermediate=drop),
                      sk.precision_recall_curve(y, s, sample_weight=w, drop_intermediate=drop))
    assert abs(M.roc_auc_score(y, s, sample_weight=w) - sk.roc_auc_score(y, s, sample_weight=w)) <= TOL
    assert abs(M.average_precision_score(y, s, sample_weight=w)
               - sk.average_precision_score(y, s, sample_weight=w)) <= TOL
    for max_fpr in (0.3, 0.75):
        assert abs(M.roc_auc_score(y, s, sample_weight=w, max_fpr=max_fpr)
                   - sk.roc_auc_score(y, s, sample_weight=w, max_fpr=max_fpr)) <= TOL


def test_string_labels_and_pos_label():
    y, s, w = tied_problem(3, 80, labels=("spam", "ham"), weighted=True)
    for pos in ("spam", "ham"):
        assert_arrays(M.roc_curve(y, s, pos_label=pos, sample_weight=w),
                      sk.roc_curve(y, s, pos_label=pos, sample_weight=w))
        assert_arrays(M.precision_recall_curve(y, s, pos_label=pos),
                      sk.precision_recall_curve(y, s, pos_label=pos))
        assert M.average_precision_score(y, s, pos_label=pos) == pytest.approx(
            sk.average_precision_score(y, s, pos_label=pos), abs=TOL)
    # roc_auc_score: the larger label in sorted order ("spam") is positive, as scikit-learn
    assert M.roc_auc_score(y, s) == pytest.approx(sk.roc_auc_score(y, s), abs=TOL)
    with pytest.raises(ValueError, match="pos_label is not specified"):
        M.roc_curve(y, s)
    with pytest.raises(ValueError, match="not a valid label"):
        M.average_precision_score(y, s)                    # default pos_label=1 is not a label


def test_labels_minus_one_one_and_multiclass_with_pos_label():
    y, s, _ = tied_problem(4, 50, labels=(-1, 1))
    assert_arrays(M.roc_curve(y, s), sk.roc_curve(y, s))
    y3 = np.random.default_rng(0).integers(0, 3, 50)
    assert_arrays(M.roc_curve(y3, s, pos_label=2), sk.roc_curve(y3, s, pos_label=2))
    with pytest.raises(ValueError, match="3 classes"):
        M.roc_curve(y3, s)
    with pytest.raises(ValueError, match="only the binary ROC AUC"):
        M.roc_auc_score(y3, s)


def brute_force_auc(y, s, w):
    """The fraction of (positive, negative) pairs ranked correctly, ties half, pairs weighted by w_i w_j."""
    pos, neg = y == 1, y == 0
    diff = s[pos][:, None] - s[neg][None, :]
    pair_w = w[pos][:, None] * w[neg][None, :]
    return float(np.sum(pair_w * ((diff > 0) + 0.5 * (diff == 0))) / pair_w.sum())


@pytest.mark.parametrize("seed", range(20))
def test_auc_is_the_fraction_of_correctly_ordered_pairs(seed):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(2, 30))
    y = rng.integers(0, 2, n)
    y[:2] = [0, 1]
    s = rng.integers(0, 4, n).astype(float)
    ones = np.ones(n)
    assert M.roc_auc_score(y, s) == pytest.approx(brute_force_auc(y, s, ones), abs=1e-14)
    w = rng.uniform(0.1, 2, n)
    assert M.roc_auc_score(y, s, sample_weight=w) == pytest.approx(brute_force_auc(y, s, w), abs=1e-14)
    # and the trapezoid under the curve, with and without the intermediate points
    for drop in (True, False):
        fpr, tpr, _ = M.roc_curve(y, s, drop_intermediate=drop)
        assert M.auc(fpr, tpr) == pytest.approx(brute_force_auc(y, s, ones), abs=1e-14)


def test_auc_invariant_under_order_and_monotone_transform():
    y, s, _ = tied_problem(7, 300)
    perm = np.random.default_rng(1).permutation(300)
    a = M.roc_auc_score(y, s)
    assert M.roc_auc_score(y[perm], s[perm]) == a
    assert M.roc_auc_score(y, np.exp(s / 3)) == a
    assert M.roc_auc_score(y, -s) == pytest.approx(1 - a, abs=1e-15)


def test_integer_weight_equals_duplicated_rows():
    y, s, _ = tied_problem(8, 40)
    k = np.random.default_rng(2).integers(0, 4, 40)
    k[np.flatnonzero(y == 0)[0]] = k[np.flatnonzero(y == 1)[0]] = 1
    dup_y, dup_s = np.repeat(y, k), np.repeat(s, k)
    assert M.roc_auc_score(y, s, sample_weight=k) == pytest.approx(M.roc_auc_score(dup_y, dup_s), abs=1e-14)
    assert M.average_precision_score(y, s, sample_weight=k) == pytest.approx(
        M.average_precision_score(dup_y, dup_s), abs=1e-14)


def test_single_class_warns_and_returns_nan_as_installed_sklearn():
    y, s = np.zeros(5, dtype=int), np.arange(5.0)
    with pytest.warns(UndefinedMetricWarning, match="Only one class"):
        ours = M.roc_auc_score(y, s)
    with pytest.warns(UndefinedMetricWarning):
        theirs = sk.roc_auc_score(y, s)
    assert np.isnan(ours) and np.isnan(theirs)
    with pytest.warns(UndefinedMetricWarning, match="No positive samples"):
        fpr, tpr, _ = M.roc_curve(y, s)
    with pytest.warns(UndefinedMetricWarning):
        expected_fpr = sk.roc_curve(y, s)[0]
    assert np.isnan(tpr).all() and np.allclose(fpr, expected_fpr)
    with pytest.warns(UndefinedMetricWarning, match="No negative samples"):
        M.roc_curve(np.ones(3), [1, 2, 3])
    with pytest.warns(UserWarning, match="No positive class"):
        ours = M.average_precision_score(y, s)
    with pytest.warns(UserWarning):
        assert ours == sk.average_precision_score(y, s)
    assert M.UndefinedMetricWarning is UndefinedMetricWarning


def test_weights_leaving_one_class_give_nan_like_sklearn():
    y, s, w = np.array([0, 1, 0, 1]), np.array([0.1, 0.4, 0.3, 0.9]), np.array([1.0, 0, 2, 0])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        expected = sk.roc_auc_score(y, s, sample_weight=w)
    with pytest.warns(UndefinedMetricWarning):
        assert np.isnan(M.roc_auc_score(y, s, sample_weight=w)) and np.isnan(expected)


@pytest.mark.parametrize("bad, message", [
    (dict(y_score=[0.1, np.nan, 0.3]), "NaN"),
    (dict(y_score=[0.1, np.inf, 0.3]), "infinity"),
    (dict(y_score=[0.1, 0.2]), "3 samples but y_score has 2"),
    (dict(y_score=[[0.1, 0.9], [0.2, 0.8], [0.5, 0.5]]), "1-D"),
    (dict(y_true=[], y_score=[]), "empty"),
    (dict(sample_weight=[1, -1, 1]), "non-negative"),
    (dict(sample_weight=[0, 0, 0]), "all are zero"),
    (dict(y_true=[0.5, 1, 0]), "continuous"),
])
def test_bad_input_is_rejected(bad, message):
    args = dict(y_true=[0, 1, 0], y_score=[0.1, 0.2, 0.3]) | bad
    for f in (M.roc_auc_score, M.roc_curve, M.precision_recall_curve, M.average_precision_score, M.lift_curve):
        kwargs = {"sample_weight": args["sample_weight"]} if "sample_weight" in args else {}
        with pytest.raises(ValueError, match=message):
            f(args["y_true"], args["y_score"], **kwargs)


def test_unknown_options():
    with pytest.raises(ValueError, match="average"):
        M.roc_auc_score([0, 1], [0, 1], average="mean")
    with pytest.raises(ValueError, match="max_fpr"):
        M.roc_auc_score([0, 1], [0, 1], max_fpr=0)
    with pytest.raises(TypeError, match="drop_intermediate"):
        M.roc_curve([0, 1], [0, 1], drop_intermediate=1)


def test_auc_of_points():
    assert M.auc([0, 1, 2], [0, 1, 1]) == sk.auc([0, 1, 2], [0, 1, 1]) == 1.5
    assert M.auc([2, 1, 0], [0, 1, 1]) == sk.auc([2, 1, 0], [0, 1, 1])
    with pytest.raises(ValueError, match="neither increasing nor decreasing"):
        M.auc([0, 2, 1], [0, 1, 1])
    with pytest.raises(ValueError, match="At least 2 points"):
        M.auc([0], [1])


def test_lift_curve_definition_and_ties():
    y = np.array([1, 0, 1, 1, 0, 0, 0, 0, 1, 0])
    s = np.array([9, 9, 8, 7, 7, 7, 3, 3, 2, 1], dtype=float)
    fraction, lift, thresholds = M.lift_curve(y, s, return_thresholds=True)
    np.testing.assert_array_equal(thresholds, [9, 8, 7, 3, 2, 1])        # one point per distinct score
    np.testing.assert_allclose(fraction, [0.2, 0.3, 0.6, 0.8, 0.9, 1.0])
    base = 0.4
    np.testing.assert_allclose(lift, np.array([1 / 2, 2 / 3, 3 / 6, 3 / 8, 4 / 9, 4 / 10]) / base)
    # the same from the ROC counts: lift = tpr / fraction; order of the samples does not matter
    fpr, tpr, _ = M.roc_curve(y, s, drop_intermediate=False)
    np.testing.assert_allclose(lift, tpr[1:] / fraction)
    perm = np.random.default_rng(0).permutation(10)
    np.testing.assert_array_equal(M.lift_curve(y[perm], s[perm])[1], lift)
    with pytest.raises(ValueError, match="no positive"):
        M.lift_curve(np.zeros(4), np.arange(4.0))


@pytest.mark.parametrize("weighted", [False, True])
def test_confusion_matrix_at_thresholds_matches_sklearn(weighted):
    y, s, w = tied_problem(5, 90, labels=("a", "b"), weighted=weighted)
    assert_arrays(M.confusion_matrix_at_thresholds(y, s, pos_label="a", sample_weight=w),
                  sk.confusion_matrix_at_thresholds(y, s, pos_label="a", sample_weight=w))


def test_auc_exact_on_large_tied_input():
    """Integer rank sums: the unweighted AUC is the exact fraction, rounded once."""
    from fractions import Fraction

    rng = np.random.default_rng(0)
    n = 200_000
    y = rng.integers(0, 2, n)
    s = rng.integers(0, 50, n) + y
    # exact count by groups: positives above negatives plus half the tied pairs
    pos = np.bincount(s[y == 1], minlength=51)
    neg = np.bincount(s[y == 0], minlength=51)
    below = np.cumsum(neg) - neg
    twice_pairs = int(np.sum(pos * (2 * below + neg)))
    exact = Fraction(twice_pairs, 2 * int(pos.sum()) * int(neg.sum()))
    assert M.roc_auc_score(y, s) == float(exact)
    assert abs(sk.roc_auc_score(y, s) - float(exact)) <= 1e-12
