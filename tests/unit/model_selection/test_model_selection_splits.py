"""Splitters: the same folds as scikit-learn without shuffling (index for index, warnings and errors included),
sizes and stratification with shuffling, and bad input."""

import warnings

import numpy as np
import pytest
from sklearn import model_selection as sk

from mlnotes import model_selection as M


def folds(splitter, X, y=None):
    """The folds as lists, or the ValueError's message; and the warning messages."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            out = [(train.tolist(), test.tolist()) for train, test in splitter.split(X, y)]
        except ValueError as exc:
            out = str(exc)
    return out, [str(w.message) for w in caught]


@pytest.mark.parametrize("seed", range(60))
def test_unshuffled_folds_equal_sklearn(seed):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(1, 30))
    k = int(rng.integers(2, 9))
    X = np.zeros((n, 2))
    y = rng.integers(0, int(rng.integers(1, 5)), n)     # classes of any size, some smaller than k
    if seed % 3 == 0:
        y = np.array(["b", "a", "c"])[y % 3]           # string labels, order of appearance != sorted order
    assert folds(M.KFold(k), X) == folds(sk.KFold(k), X)
    assert folds(M.StratifiedKFold(k), X, y) == folds(sk.StratifiedKFold(k), X, y)
    assert folds(M.LeaveOneOut(), X) == folds(sk.LeaveOneOut(), X)


def test_stratified_fold_of_samples_small_classes():
    y = np.array([0] * 7 + [1] * 2 + [2] * 3)
    with pytest.warns(UserWarning, match="only 2 members, which is less than n_splits=3"):
        fold = M.StratifiedKFold(3).fold_of_samples(y)
    expected = np.empty(12, dtype=int)
    with pytest.warns(UserWarning):
        for f, (_, test) in enumerate(sk.StratifiedKFold(3).split(np.zeros(12), y)):
            expected[test] = f
    np.testing.assert_array_equal(fold, expected)
    with pytest.raises(ValueError, match="cannot be greater than the number of members in each class"):
        M.StratifiedKFold(4).fold_of_samples([0, 0, 1, 1, 1, 2, 2, 2])


@pytest.mark.parametrize("seed", range(5))
def test_shuffled_folds_sizes_and_stratification(seed):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 3, 47)
    X = np.zeros((47, 1))
    for ours, theirs in [(M.KFold(5, shuffle=True, random_state=seed), sk.KFold(5)),
                         (M.StratifiedKFold(5, shuffle=True, random_state=seed), sk.StratifiedKFold(5))]:
        a = list(ours.split(X, y))
        b = list(theirs.split(X, y))
        assert [len(te) for _, te in a] == [len(te) for _, te in b]
        np.testing.assert_array_equal(np.sort(np.concatenate([te for _, te in a])), np.arange(47))
        for (train, test) in a:
            assert np.intersect1d(train, test).size == 0 and train.size + test.size == 47
        if isinstance(ours, M.StratifiedKFold):
            assert [np.bincount(y[te], minlength=3).tolist() for _, te in a] == \
                   [np.bincount(y[te], minlength=3).tolist() for _, te in b]
        assert [te.tolist() for _, te in a] == [te.tolist() for _, te in ours.split(X, y)]   # seeded: repeatable
    assert [te.tolist() for _, te in M.KFold(5, shuffle=True, random_state=0).split(X)] != \
           [te.tolist() for _, te in M.KFold(5, shuffle=True, random_state=1).split(X)]


def test_splitter_bad_input():
    with pytest.raises(ValueError, match=">= 2"):
        M.KFold(1)
    with pytest.raises(TypeError, match="integer"):
        M.KFold(2.5)
    with pytest.raises(ValueError, match="greater than the number of samples"):
        list(M.KFold(5).split(np.zeros((3, 1))))
    with pytest.raises(ValueError, match="random_state has no effect"):
        M.StratifiedKFold(3, random_state=0)
    with pytest.raises(ValueError, match="continuous"):
        list(M.StratifiedKFold(2).split(np.zeros((4, 1)), [0.5, 1.5, 0.2, 0.1]))
    with pytest.raises(ValueError, match="y is required"):
        list(M.StratifiedKFold(2).split(np.zeros((4, 1)), None))
    with pytest.raises(ValueError, match="4 samples but y has 3"):
        list(M.StratifiedKFold(2).split(np.zeros((4, 1)), [0, 1, 0]))
    with pytest.raises(ValueError, match="n_samples=1"):
        list(M.LeaveOneOut().split(np.zeros((1, 1))))
    assert repr(M.KFold(3)) == "KFold(n_splits=3, random_state=None, shuffle=False)"


@pytest.mark.parametrize("sizes", [dict(), dict(test_size=0.3), dict(test_size=3), dict(train_size=0.6),
                                   dict(train_size=5, test_size=4), dict(train_size=0.5, test_size=0.25)])
def test_train_test_split_sizes_and_unshuffled_parity(sizes):
    X, y = np.arange(26).reshape(13, 2), np.arange(13)
    ours = M.train_test_split(X, y, shuffle=False, **sizes)
    theirs = sk.train_test_split(X, y, shuffle=False, **sizes)
    for a, b in zip(ours, theirs):
        np.testing.assert_array_equal(a, b)
    shuffled = M.train_test_split(X, y, random_state=0, **sizes)
    assert [len(a) for a in shuffled] == [len(b) for b in theirs]
    np.testing.assert_array_equal(shuffled[0][:, 0] // 2, shuffled[2])     # rows stay together


def test_train_test_split_stratified():
    y = np.array(["a"] * 30 + ["b"] * 12 + ["c"] * 6)
    X = np.arange(48)
    X_train, X_test, y_train, y_test = M.train_test_split(X, y, test_size=0.25, stratify=y, random_state=3)
    _, _, sk_train, sk_test = sk.train_test_split(X, y, test_size=0.25, stratify=y, random_state=3)
    assert len(y_test) == len(sk_test) == 12 and len(y_train) == len(sk_train) == 36
    for label in "abc":
        assert (y_test == label).sum() == (sk_test == label).sum()
    np.testing.assert_array_equal(y[X_test], y_test)
    with pytest.raises(ValueError, match="only 1 member"):
        M.train_test_split(X[:5], stratify=[0, 0, 0, 1, 1][:4] + [2], random_state=0)
    with pytest.raises(ValueError, match="shuffle=False"):
        M.train_test_split(X, stratify=y, shuffle=False)


def test_train_test_split_bad_input():
    with pytest.raises(ValueError, match="At least one array"):
        M.train_test_split()
    with pytest.raises(ValueError, match="inconsistent numbers of samples"):
        M.train_test_split(np.zeros(4), np.zeros(5))
    with pytest.raises(ValueError, match="test_size=1.5"):
        M.train_test_split(np.zeros(4), test_size=1.5)
    with pytest.raises(ValueError, match="test_size=4"):
        M.train_test_split(np.zeros(4), test_size=4)
    with pytest.raises(ValueError, match="should be in the \\(0, 1\\) range"):
        M.train_test_split(np.zeros(10), test_size=0.6, train_size=0.6)
    with pytest.raises(ValueError, match="train set will be empty"):
        M.train_test_split(np.zeros(2), test_size=0.9)
    with pytest.raises(ValueError, match="empty"):
        M.train_test_split(np.zeros(0))


def test_train_test_split_sizes_and_errors_match_sklearn_on_random_arguments():
    rng = np.random.default_rng(0)
    for _ in range(150):
        n = int(rng.integers(1, 15))
        options = [None, 0.1, 0.25, 0.5, 0.9, 1.0, 0.0, 1, 2, 5, n - 1, n, n + 1]
        sizes = {name: options[rng.integers(len(options))] for name in ("test_size", "train_size")}
        sizes = {k: v for k, v in sizes.items() if v is not None}
        y = rng.integers(0, 3, n)
        outcomes = []
        for module in (M, sk):
            try:
                plain = [a.tolist() for a in module.train_test_split(np.arange(n), shuffle=False, **sizes)]
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    parts = module.train_test_split(np.arange(n), y, stratify=y, random_state=0, **sizes)
                outcomes.append((plain, [len(p) for p in parts]))
            except ValueError:
                outcomes.append("ValueError")
                continue
            if module is M:                  # each class's test count: n_test * its share, rounded down or up
                share = len(parts[3]) * np.bincount(y, minlength=3) / n
                in_test = np.bincount(parts[3], minlength=3)
                assert ((in_test == np.floor(share)) | (in_test == np.ceil(share))).all()
        assert outcomes[0] == outcomes[1], (n, sizes, y, outcomes)
