r"""Splitting data for validation (chapter 18, *Nearest neighbours and evaluation*): k-fold, stratified k-fold,
leave-one-out and a train/test split.

Without shuffling the folds are scikit-learn's, index for index. With ``shuffle=True`` the randomness comes from
``np.random.default_rng(random_state)``, so the folds have scikit-learn's sizes and class proportions but not
its members (scikit-learn draws from the legacy ``RandomState``).
"""

import warnings
from math import ceil, floor
from numbers import Integral, Real

import numpy as np

from ..utils.validation import check_bool, check_scalar


def num_samples(X):
    """The number of samples (rows) of an array-like, a sparse matrix or a data frame."""
    if X is None:
        raise TypeError("X must be an array-like of samples, got None")
    shape = getattr(X, "shape", None)
    if shape is not None and len(shape) > 0:
        return int(shape[0])
    try:
        return len(X)
    except TypeError:
        raise TypeError(f"X must be an array-like of samples, got {type(X).__name__}") from None


def take_rows(X, indices):
    """The rows ``indices`` of ``X``: a data frame by position, a sparse matrix or array by indexing, a list as an
    array (scikit-learn returns a list there)."""
    if hasattr(X, "iloc"):
        return X.iloc[indices]
    if hasattr(X, "shape"):
        return X[indices]
    return np.asarray(X)[indices]


def _as_target(y, n_samples):
    """``y`` as a 1-D array of class labels of length ``n_samples`` (a column vector is flattened)."""
    if y is None:
        raise ValueError("y is required for a stratified split (the class of each sample)")
    y = np.asarray(y)
    if y.ndim == 2 and y.shape[1] == 1:
        y = y[:, 0]
    if y.ndim != 1:
        raise ValueError(f"y must be 1-D of shape (n_samples,) with class labels, got shape {y.shape}")
    if y.shape[0] != n_samples:
        raise ValueError(f"X has {n_samples} samples but y has {y.shape[0]}")
    if y.dtype.kind == "f":
        if not np.isfinite(y).all():
            raise ValueError("y contains NaN or infinity")
        if not np.array_equal(y, np.round(y)):
            raise ValueError("Supported target types are: ('binary', 'multiclass'). Got 'continuous' instead.")
    return y


def _encode_by_appearance(y):
    """Class codes numbered in order of first appearance in ``y`` (scikit-learn's stratified encoding)."""
    _, first, inverse = np.unique(y, return_index=True, return_inverse=True)
    rank_of_class = np.argsort(np.argsort(first))
    return rank_of_class[inverse.reshape(-1)], first.shape[0]


def _check_random_state(random_state):
    if random_state is None or isinstance(random_state, np.random.Generator):
        return random_state
    if isinstance(random_state, Integral) and not isinstance(random_state, (bool, np.bool_)):
        return check_scalar(random_state, "random_state", Integral, min_val=0)
    raise TypeError(f"random_state must be None, a non-negative integer or a numpy Generator, got {random_state!r}")


class _Splitter:
    """Shared parts of the splitters: ``split`` from the test index sets, ``get_n_splits`` and ``repr``."""

    def split(self, X, y=None, groups=None):
        """Generate (train, test) index arrays, one pair per fold.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Only its number of samples is used.
        y : array-like of shape (n_samples,), optional
            Class labels (required by the stratified splitter).
        groups : ignored
            For scikit-learn's signature.

        Yields
        ------
        train : ndarray of int of shape (n_train,)
        test : ndarray of int of shape (n_test,)
            Sorted indices; the test sets of the folds partition ``range(n_samples)``.
        """
        n_samples = num_samples(X)
        indices = np.arange(n_samples)
        for test in self._test_indices(n_samples, y):
            mask = np.zeros(n_samples, dtype=bool)
            mask[test] = True
            yield indices[~mask], indices[mask]

    def __repr__(self):
        params = ", ".join(f"{k}={getattr(self, k)!r}" for k in sorted(self._params))
        return f"{type(self).__name__}({params})"


class KFold(_Splitter):
    r"""K-fold cross-validation: the samples, in order (or shuffled), cut into ``n_splits`` consecutive folds.

    The first ``n_samples % n_splits`` folds have :math:`\lfloor n/k \rfloor + 1` samples, the others
    :math:`\lfloor n/k \rfloor`; each fold is the test set once, the rest the training set.

    Parameters
    ----------
    n_splits : int, default 5
        The number of folds :math:`k \ge 2`.
    shuffle : bool, default False
        Shuffle the samples before cutting them (then the folds are not scikit-learn's: see the module notes).
    random_state : int, numpy Generator or None
        Seed of ``np.random.default_rng`` when shuffling; must be None without shuffling (as scikit-learn).

    Raises
    ------
    ValueError
        ``n_splits < 2``, a ``random_state`` without ``shuffle``, or (in ``split``) more folds than samples.
    """

    _params = ("n_splits", "shuffle", "random_state")

    def __init__(self, n_splits=5, *, shuffle=False, random_state=None):
        self.n_splits = check_scalar(n_splits, "n_splits", Integral, min_val=2)
        self.shuffle = check_bool(shuffle, "shuffle")
        self.random_state = _check_random_state(random_state)
        if not self.shuffle and random_state is not None:
            raise ValueError("Setting a random_state has no effect since shuffle is False. You should leave "
                             "random_state to its default (None), or set shuffle=True.")

    def get_n_splits(self, X=None, y=None, groups=None):
        """The number of folds, ``n_splits``."""
        return self.n_splits

    def _check_n_samples(self, n_samples):
        if self.n_splits > n_samples:
            raise ValueError(f"Cannot have number of splits n_splits={self.n_splits} greater than the number of "
                             f"samples: n_samples={n_samples}.")

    def _test_indices(self, n_samples, y):
        self._check_n_samples(n_samples)
        order = np.arange(n_samples)
        if self.shuffle:
            order = np.random.default_rng(self.random_state).permutation(n_samples)
        fold_sizes = np.full(self.n_splits, n_samples // self.n_splits)
        fold_sizes[: n_samples % self.n_splits] += 1
        bounds = np.r_[0, np.cumsum(fold_sizes)]
        for start, stop in zip(bounds[:-1], bounds[1:]):
            yield order[start:stop]


class StratifiedKFold(KFold):
    r"""Stratified k-fold: each fold holds about the same proportion of every class as the whole data.

    The fold of each sample is scikit-learn's (without shuffling, index for index): the labels sorted by class
    are dealt round-robin to the folds, which fixes how many samples of each class every fold gets; each class
    then gives its samples, in their order, to the folds in blocks of those sizes. With ``shuffle=True`` the
    samples of each class are dealt to the folds in a random order (``np.random.default_rng(random_state)``):
    the same fold sizes per class as scikit-learn, other members.

    Parameters
    ----------
    n_splits : int, default 5
    shuffle : bool, default False
    random_state : int, numpy Generator or None

    Raises
    ------
    ValueError
        (in ``split``) continuous targets, more folds than samples, or ``n_splits`` above the size of every
        class.

    Warns
    -----
    UserWarning
        When the smallest class has fewer members than ``n_splits`` (some folds then lack it), as scikit-learn.
    """

    def split(self, X, y, groups=None):
        """Generate (train, test) index arrays, one pair per fold; ``y`` (class labels) is required."""
        return super().split(X, y, groups)

    def fold_of_samples(self, y):
        """The fold (0 to ``n_splits - 1``) whose test set holds each sample.

        Parameters
        ----------
        y : array-like of shape (n_samples,)

        Returns
        -------
        ndarray of int of shape (n_samples,)
        """
        y = _as_target(y, num_samples(y))
        self._check_n_samples(y.shape[0])
        codes, n_classes = _encode_by_appearance(y)
        counts = np.bincount(codes, minlength=n_classes)
        if np.all(self.n_splits > counts):
            raise ValueError(f"n_splits={self.n_splits} cannot be greater than the number of members in each class.")
        if self.n_splits > counts.min():
            warnings.warn(f"The least populated class in y has only {counts.min()} members, which is less than "
                          f"n_splits={self.n_splits}.", UserWarning, stacklevel=3)
        # dealing the class-sorted labels round-robin: fold f gets the positions p = f (mod k) of the sorted list;
        # class c occupies positions [start_c, stop_c), of which ceil((stop_c - f)/k) - ceil((start_c - f)/k) are f
        stop = np.cumsum(counts)
        start = stop - counts
        folds = np.arange(self.n_splits)[:, None]
        allocation = -((folds - stop) // self.n_splits) + ((folds - start) // self.n_splits)  # (n_splits, n_classes)
        rng = np.random.default_rng(self.random_state) if self.shuffle else None
        fold = np.empty(y.shape[0], dtype=np.int64)
        for c in range(n_classes):                  # a loop over classes; each class is filled at once
            fold_of_member = np.repeat(np.arange(self.n_splits), allocation[:, c])
            if rng is not None:
                rng.shuffle(fold_of_member)
            fold[codes == c] = fold_of_member
        return fold

    def _test_indices(self, n_samples, y):
        y = _as_target(y, n_samples)
        fold = self.fold_of_samples(y)
        for f in range(self.n_splits):
            yield np.flatnonzero(fold == f)


class LeaveOneOut(_Splitter):
    """Leave-one-out: ``n_samples`` folds, each testing on one sample and training on all the others.

    Raises
    ------
    ValueError
        (in ``split``) fewer than two samples.
    """

    _params = ()

    def get_n_splits(self, X, y=None, groups=None):
        """The number of samples of ``X``."""
        return num_samples(X)

    def _test_indices(self, n_samples, y):
        if n_samples <= 1:
            raise ValueError(f"Cannot perform LeaveOneOut with n_samples={n_samples}.")
        return (np.array([i]) for i in range(n_samples))


def _split_sizes(n_samples, test_size, train_size):
    """scikit-learn's train and test sizes: a float is a fraction (test rounded up, train down), an int a count;
    a missing one takes the rest (test defaults to 0.25)."""
    if test_size is None and train_size is None:
        test_size = 0.25
    sizes = {}
    for name, size in (("test_size", test_size), ("train_size", train_size)):
        if size is None:
            continue
        if isinstance(size, Integral) and not isinstance(size, (bool, np.bool_)):
            if not 0 < size < n_samples:
                raise ValueError(f"{name}={size} should be either positive and smaller than the number of samples "
                                 f"{n_samples} or a float in the (0, 1) range")
            sizes[name] = int(size)
        elif isinstance(size, Real) and not isinstance(size, (bool, np.bool_)):
            if not 0 < size < 1:
                raise ValueError(f"{name}={size} should be either positive and smaller than the number of samples "
                                 f"{n_samples} or a float in the (0, 1) range")
            sizes[name] = ceil(size * n_samples) if name == "test_size" else floor(size * n_samples)
        else:
            raise TypeError(f"{name} must be an int, a float or None, got {size!r}")
    if isinstance(test_size, float) and isinstance(train_size, float) and test_size + train_size > 1:
        raise ValueError(f"The sum of test_size and train_size = {test_size + train_size}, should be in the (0, 1) "
                         f"range. Reduce test_size and/or train_size.")
    n_test = sizes.get("test_size", n_samples - sizes.get("train_size", 0))
    n_train = sizes.get("train_size", n_samples - n_test)
    if n_train + n_test > n_samples:
        raise ValueError(f"The sum of train_size and test_size = {n_train + n_test}, should be smaller than the "
                         f"number of samples {n_samples}. Reduce test_size and/or train_size.")
    if n_train == 0:
        raise ValueError(f"With n_samples={n_samples}, test_size={test_size} and train_size={train_size}, the "
                         f"resulting train set will be empty. Adjust any of the aforementioned parameters.")
    return n_train, n_test


def _apportion(counts, n_draws, rng):
    r"""Split ``n_draws`` among classes in proportion to ``counts`` (largest remainders; ties broken at random).

    Returns integers :math:`m_c \le` ``counts[c]`` summing to ``n_draws``, each :math:`\lfloor n p_c \rfloor` or
    one more (scikit-learn's rule for stratified splits)."""
    exact = n_draws * counts / counts.sum()
    drawn = np.floor(exact).astype(np.int64)
    remainder = exact - drawn
    order = np.lexsort((rng.random(counts.shape[0]), -remainder))
    drawn[order[: n_draws - drawn.sum()]] += 1
    return drawn


def _stratified_split(y, n_train, n_test, rng):
    """Train and test indices with the classes of ``y`` in (nearly) the proportions of the whole."""
    classes, codes = np.unique(y, return_inverse=True)
    codes = codes.reshape(-1)
    counts = np.bincount(codes)
    if counts.min() < 2:
        raise ValueError("The least populated class in y has only 1 member, which is too few. The minimum number of "
                         "groups for any class cannot be less than 2.")
    for name, size in (("train_size", n_train), ("test_size", n_test)):
        if size < classes.shape[0]:
            raise ValueError(f"The {name} = {size} should be greater or equal to the number of classes = "
                             f"{classes.shape[0]}")
    n_test_per_class = _apportion(counts, n_test, rng)
    n_train_per_class = _apportion(counts - n_test_per_class, n_train, rng)
    members = np.split(np.argsort(codes, kind="stable"), np.cumsum(counts)[:-1])
    train, test = [], []
    for idx, k_test, k_train in zip(members, n_test_per_class, n_train_per_class):   # a loop over classes
        idx = rng.permutation(idx)
        test.append(idx[:k_test])
        train.append(idx[k_test:k_test + k_train])
    return rng.permutation(np.concatenate(train)), rng.permutation(np.concatenate(test))


def train_test_split(*arrays, test_size=None, train_size=None, random_state=None, shuffle=True, stratify=None):
    r"""Split arrays into a random training and test part.

    Parameters
    ----------
    *arrays : array-likes with the same number of samples
        Arrays, lists, sparse matrices or data frames (a list comes back as an array).
    test_size : float in (0, 1) or int, optional
        The fraction (rounded up) or number of test samples; default 0.25 when ``train_size`` is also None, else
        the rest.
    train_size : float in (0, 1) or int, optional
        The fraction (rounded down) or number of training samples; default the rest.
    random_state : int, numpy Generator or None
        Seed of ``np.random.default_rng`` (the draw differs from scikit-learn's; the sizes are the same).
    shuffle : bool, default True
        Without shuffling the first ``n_train`` samples train and the next ``n_test`` test (scikit-learn's split).
    stratify : array-like of shape (n_samples,), optional
        Class labels: each class is split in the proportions of the whole (needs ``shuffle=True``).

    Returns
    -------
    list
        ``[a_train, a_test, b_train, b_test, ...]``, two entries per input.

    Raises
    ------
    ValueError
        No arrays, lengths that differ, empty input, sizes that are out of range or leave no training sample,
        ``stratify`` without shuffling, or a class with a single member.
    """
    if not arrays:
        raise ValueError("At least one array required as input")
    n_samples = num_samples(arrays[0])
    for a in arrays[1:]:
        if num_samples(a) != n_samples:
            raise ValueError(f"Found input variables with inconsistent numbers of samples: "
                             f"{[num_samples(b) for b in arrays]}")
    if n_samples == 0:
        raise ValueError("The input arrays are empty: at least one sample is needed")
    check_bool(shuffle, "shuffle")
    n_train, n_test = _split_sizes(n_samples, test_size, train_size)
    if not shuffle:
        if stratify is not None:
            raise ValueError("Stratified train/test split is not implemented for shuffle=False")
        train, test = np.arange(n_train), np.arange(n_train, n_train + n_test)
    else:
        rng = np.random.default_rng(_check_random_state(random_state))
        if stratify is not None:
            train, test = _stratified_split(_as_target(stratify, n_samples), n_train, n_test, rng)
        else:
            order = rng.permutation(n_samples)
            test, train = order[:n_test], order[n_test:n_test + n_train]
    return [part for a in arrays for part in (take_rows(a, train), take_rows(a, test))]
