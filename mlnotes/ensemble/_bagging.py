r"""Bagging (chapter 20, *Bootstrap, bagging and random forests*): average the predictions of one learner
fitted on many bootstrap samples (Breiman 1996).

Each member :math:`\hat f_b` is fitted on a bootstrap sample of the training data (and, optionally, a subset of
the features); the ensemble predicts the average :math:`\hat f_{\text{bag}} = \frac1B\sum_b \hat f_b` (class
probabilities for classifiers, or votes if the learner has no probabilities). The observations a member did not
draw, about :math:`1/e` of them, are its *out-of-bag* sample: predicting each observation with the members that
did not see it gives the out-of-bag error, an estimate of the test error without a held-out set.

The machinery here (drawing the samples, fitting the members, in parallel if asked, averaging, out-of-bag
predictions) is shared with :mod:`mlnotes.ensemble._forest`.
"""

import inspect
import warnings
from numbers import Integral, Real

import numpy as np
from joblib import Parallel, delayed
from sklearn.base import BaseEstimator, ClassifierMixin, RegressorMixin, clone, is_classifier, is_regressor
from sklearn.utils.validation import check_is_fitted, validate_data

from ..metrics import r2_score
from ..utils._classifier import ArgmaxPredictMixin
from ..utils.validation import check_bool, check_classes, check_sample_weight, check_scalar

__all__ = ["BaggingClassifier", "BaggingRegressor", "staged_errors"]

#: joblib backend of ``n_jobs``: threads share X without copying; the members' numpy work releases the GIL.
PREFER = "threads"
#: Seeds are drawn in [0, SEED_BOUND): one for the member's sample, one for the member's own randomness.
SEED_BOUND = np.iinfo(np.int32).max


def _accepts_sample_weight(estimator):
    try:
        return "sample_weight" in inspect.signature(estimator.fit).parameters
    except (TypeError, ValueError):
        return False


def _check_count_or_fraction(value, name, total, what):
    """``value`` (an int in [1, total] or a float in (0, 1]) as a count in [1, total]."""
    if isinstance(value, Integral) and not isinstance(value, (bool, np.bool_)):
        count = check_scalar(value, name, Integral, min_val=1)
        if count > total:
            raise ValueError(f"{name} = {count} exceeds the number of {what} ({total}); give at most {total} or a "
                             f"fraction in (0, 1]")
        return count
    fraction = check_scalar(value, name, Real, min_val=0, max_val=1, include_boundaries="right")
    return max(1, int(round(fraction * total)))


def draw_member(n_samples, n_drawn, n_features, n_features_drawn, bootstrap, bootstrap_features, seed):
    """The samples and features of one member: ``n_drawn`` row indices (with replacement if ``bootstrap``), and
    ``n_features_drawn`` sorted feature indices (all of them if equal to ``n_features``)."""
    rng = np.random.default_rng(seed)
    rows = rng.integers(0, n_samples, n_drawn) if bootstrap else rng.permutation(n_samples)[:n_drawn]
    if n_features_drawn == n_features and not bootstrap_features:
        features = np.arange(n_features)
    elif bootstrap_features:
        features = np.sort(rng.integers(0, n_features, n_features_drawn))
    else:
        features = np.sort(rng.permutation(n_features)[:n_features_drawn])
    return rows, features


def run_jobs(n_jobs, jobs):
    """Run ``jobs`` (``joblib.delayed`` calls) in order: in this thread for ``n_jobs`` None or 1 (no pool, no
    threads left behind in a notebook kernel), else with joblib threads; the results in the order of ``jobs``."""
    if n_jobs is None or n_jobs == 1:
        return [function(*args, **kwargs) for function, args, kwargs in jobs]
    return Parallel(n_jobs=n_jobs, prefer=PREFER)(jobs)


def _check_member_kind(estimator, is_kind, kind):
    """Raise unless ``estimator`` is None (the default tree) or a scikit-learn style ``kind`` (``is_kind`` is
    scikit-learn's ``is_classifier`` or ``is_regressor``, which need the estimator API to answer)."""
    if estimator is None:
        return
    if not all(callable(getattr(estimator, name, None)) for name in ("fit", "predict", "get_params")):
        raise TypeError(f"estimator must be a scikit-learn style {kind} with fit, predict and get_params, "
                        f"got {estimator!r}")
    if not is_kind(estimator):
        raise ValueError(f"estimator must be a {kind}, got {estimator!r}")


def _fit_member(estimator, X, y, sample_weight, rows, features, use_weights):
    """Fit one member on its sample: with counts as weights on the distinct rows drawn (a row drawn twice weighs
    2) if the learner takes weights, else on the rows drawn, repeats included."""
    if use_weights:
        counts = np.bincount(rows, minlength=X.shape[0]).astype(float)
        if sample_weight is not None:
            counts *= sample_weight
        drawn = np.flatnonzero(counts)
        if len(drawn) == 1:
            # one distinct row drawn (tiny data): give it as two half-weight copies, the same weighted data, since
            # a learner may refuse a single sample (mlnotes.tree fits one, some scikit-learn learners do not)
            drawn = np.repeat(drawn, 2)
            counts = counts / 2
        return estimator.fit(X[np.ix_(drawn, features)] if len(features) < X.shape[1] else X[drawn], y[drawn],
                             sample_weight=counts[drawn])
    return estimator.fit(X[np.ix_(rows, features)], y[rows])


class BaseBagging(BaseEstimator):
    """The machinery shared by bagging and random forests; subclasses say how a member is made and sampled."""

    #: The subclass's tree, a name in :mod:`mlnotes.tree`: a forest's members, bagging's default learner.
    _tree_name = None

    def _tree_class(self):
        """``mlnotes.tree.<_tree_name>``, the class itself."""
        from .. import tree              # the same layer; imported on use

        return getattr(tree, self._tree_name)

    # hooks of the subclasses -------------------------------------------------------------------------------
    def _make_member(self):
        """An unfitted clone of the learner."""
        raise NotImplementedError

    def _sampling(self, n_samples, n_features):
        """(rows drawn, features drawn, bootstrap, bootstrap_features) per member."""
        raise NotImplementedError

    def _member_weights(self, y, sample_weight, rows):
        """Extra per-sample weights of one member (class_weight of the forest); None for none."""
        return sample_weight

    # shared -------------------------------------------------------------------------------------------------
    def _check_common(self):
        B = check_scalar(self.n_estimators, "n_estimators", Integral, min_val=1)
        oob = check_bool(self.oob_score, "oob_score")
        bootstrap = check_bool(self.bootstrap, "bootstrap")
        if oob and not bootstrap:
            raise ValueError("oob_score=True needs bootstrap=True: without resampling no sample is out of bag")
        if self.n_jobs is not None:
            n_jobs = check_scalar(self.n_jobs, "n_jobs", Integral)
            if n_jobs == 0:
                raise ValueError("n_jobs must be a positive number of workers, or -1 (all cores), or None (1); got 0")
        return B, oob

    def _fit_members(self, X, y, sample_weight):
        """Draw the members' samples, fit the members, and set ``estimators_``, ``estimators_samples_`` and
        ``estimators_features_``. The seeds are drawn before any fit, so the result does not depend on n_jobs."""
        B, _ = self._check_common()
        n, d = X.shape
        n_drawn, n_features_drawn, bootstrap, bootstrap_features = self._sampling(n, d)
        seeds = np.random.default_rng(self.random_state).integers(0, SEED_BOUND, size=(B, 2))
        members = []
        for b in range(B):
            member = self._make_member()
            if "random_state" in member.get_params(deep=False):
                member.set_params(random_state=int(seeds[b, 1]))
            members.append(member)
        use_weights = _accepts_sample_weight(members[0])
        if sample_weight is not None and not use_weights:
            raise ValueError(f"sample_weight was given but the learner {type(members[0]).__name__} does not accept "
                             f"sample_weight in fit")
        draws = [draw_member(n, n_drawn, d, n_features_drawn, bootstrap, bootstrap_features, seeds[b, 0])
                 for b in range(B)]
        jobs = (delayed(_fit_member)(member, X, y, self._member_weights(y, sample_weight, rows), rows, features,
                                     use_weights)
                for member, (rows, features) in zip(members, draws))
        self.estimators_ = run_jobs(self.n_jobs, jobs)
        self.estimators_samples_ = [rows for rows, _ in draws]
        self.estimators_features_ = [features for _, features in draws]
        return self

    def _out_of_bag_masks(self, n_samples):
        """(n_estimators, n_samples) bool: True where the sample is out of the member's bag."""
        masks = np.ones((len(self.estimators_), n_samples), dtype=bool)
        for b, rows in enumerate(self.estimators_samples_):
            masks[b, rows] = False
        return masks

    def _accumulate(self, X, output, width, out_of_bag=None):
        """Sum of ``output(member, X[:, features])`` over the members (only at each member's out-of-bag rows if
        ``out_of_bag`` is given), and how many members contributed to each row."""
        total = np.zeros((X.shape[0], width))
        count = np.zeros(X.shape[0])

        def one(b, member, features):
            rows = slice(None) if out_of_bag is None else np.flatnonzero(out_of_bag[b])
            if out_of_bag is not None and rows.size == 0:
                return rows, None
            return rows, output(member, X[rows][:, features] if len(features) < X.shape[1] else X[rows])

        results = run_jobs(self.n_jobs, (
            delayed(one)(b, member, features)
            for b, (member, features) in enumerate(zip(self.estimators_, self.estimators_features_))))
        for rows, values in results:            # summed in member order: the same floats for every n_jobs
            if values is not None:
                total[rows] += values.reshape(len(total[rows]), width)
                count[rows] += 1
        return total, count

    def _sum_over_trees(self, X, node_values, width):
        """The sum over the members, in member order (as :meth:`_accumulate`), of ``node_values(member)`` (an
        ndarray of shape (node_count, width)) at the leaf each row of ``X`` (n_samples, n_features) reaches in the
        member, shape (n_samples, width); None unless every member is a tree of :mod:`mlnotes.tree` (then all the
        rows descend all the trees at once: :class:`mlnotes.tree._tree.StackedTrees`)."""
        from ..tree._classes import split_values            # the same layer; imported on use
        from ..tree._tree import StackedTrees, tree_blocks

        tree_class = self._tree_class()
        if not all(type(member) is tree_class for member in self.estimators_):
            return None
        used = np.unique(np.concatenate(self.estimators_features_))          # the columns some member sees
        Xf = split_values(X if len(used) == X.shape[1] else X[:, used])
        total = np.zeros((X.shape[0], width))
        for block in tree_blocks(len(self.estimators_), X.shape[0]):
            members = self.estimators_[block]
            stack = StackedTrees([member.tree_ for member in members],
                                 [np.searchsorted(used, features) for features in self.estimators_features_[block]])
            values = np.concatenate([node_values(member) for member in members])
            leaves = stack.descend(Xf)
            for b in range(len(members)):
                total += values[leaves[:, b]]
        return total

    @staticmethod
    def _warn_never_out_of_bag(count):
        missing = int(np.sum(count == 0))
        if missing:
            warnings.warn(f"{missing} training samples were in the bag of every member, so they have no out-of-bag "
                          f"prediction (NaN) and are left out of oob_score_: use more estimators", UserWarning,
                          stacklevel=4)
        return count > 0


class _ClassifierOutputs(ArgmaxPredictMixin):
    """The averaging of classifier members: probabilities on the class codes ``0..K-1``, or votes."""

    def _member_proba(self, member, X):
        n_classes = len(self.classes_)
        present = np.asarray(member.classes_, dtype=int)
        if self._soft_vote:
            values = member.predict_proba(X)
        else:
            values = (np.asarray(member.predict(X), dtype=int)[:, None] == present[None, :]).astype(float)
        if len(present) == n_classes:
            return values
        full = np.zeros((X.shape[0], n_classes))         # a class the member never saw: probability 0
        full[:, present] = values
        return full

    def _node_proba(self, member):
        """The class fractions of every node of a tree member, on the ensemble's classes (0 for a class the tree
        never saw), shape (node_count, n_classes)."""
        fractions = member.tree_.value[:, 0, :]
        if len(member.classes_) == len(self.classes_):
            return fractions
        full = np.zeros((len(fractions), len(self.classes_)))
        full[:, np.asarray(member.classes_, dtype=int)] = fractions
        return full

    def _fit_classifier(self, X, y, sample_weight, weigh_classes=None):
        X, y, codes = check_classes(self, X, y, dtype=np.float64)
        self.n_classes_ = len(self.classes_)
        weights = None if sample_weight is None else check_sample_weight(sample_weight, X.shape[0])
        if weigh_classes is not None:                      # the forest's class_weight
            weights = weigh_classes(codes, weights)
        self._soft_vote = hasattr(self._make_member(), "predict_proba")
        self._fit_members(X, codes, weights)
        if self.oob_score:
            total, count = self._accumulate(X, self._member_proba, self.n_classes_,
                                            self._out_of_bag_masks(X.shape[0]))
            seen = self._warn_never_out_of_bag(count)
            with np.errstate(invalid="ignore", divide="ignore"):
                self.oob_decision_function_ = total / count[:, None]
            self.oob_score_ = float(np.mean(self.oob_decision_function_[seen].argmax(axis=1) == codes[seen]))
        return self

    def predict_proba(self, X):
        """The average of the members' class probabilities (the fraction of their votes if the learner has no
        ``predict_proba``), shape (n_samples, n_classes), columns in the order of ``classes_``."""
        check_is_fitted(self)
        X = validate_data(self, X, reset=False, dtype=np.float64)
        total = self._sum_over_trees(X, self._node_proba, self.n_classes_)
        if total is None:
            total, _ = self._accumulate(X, self._member_proba, self.n_classes_)
        return total / len(self.estimators_)


class _RegressorOutputs:
    """The averaging of regressor members."""

    @staticmethod
    def _member_prediction(member, X):
        return np.asarray(member.predict(X), dtype=float).reshape(-1, 1)

    @staticmethod
    def _node_prediction(member):
        """The mean target of every node of a tree member, shape (node_count, 1)."""
        return member.tree_.value[:, 0, :1]

    def _fit_regressor(self, X, y, sample_weight):
        X, y = validate_data(self, X, y, dtype=np.float64, y_numeric=True)
        weights = None if sample_weight is None else check_sample_weight(sample_weight, X.shape[0])
        self._fit_members(X, y, weights)
        if self.oob_score:
            total, count = self._accumulate(X, self._member_prediction, 1, self._out_of_bag_masks(X.shape[0]))
            seen = self._warn_never_out_of_bag(count)
            with np.errstate(invalid="ignore", divide="ignore"):
                self.oob_prediction_ = total[:, 0] / count
            # scikit-learn's rule for a constant target: 1 if the out-of-bag predictions are exact, else 0
            self.oob_score_ = float(r2_score(y[seen], self.oob_prediction_[seen]))
        return self

    def predict(self, X):
        """The average of the members' predictions, shape (n_samples,)."""
        check_is_fitted(self)
        X = validate_data(self, X, reset=False, dtype=np.float64)
        total = self._sum_over_trees(X, self._node_prediction, 1)
        if total is None:
            total, _ = self._accumulate(X, self._member_prediction, 1)
        return total[:, 0] / len(self.estimators_)


class _BaggingParams(BaseBagging):
    def __init__(self, estimator=None, n_estimators=10, *, max_samples=1.0, max_features=1.0, bootstrap=True,
                 bootstrap_features=False, oob_score=False, n_jobs=None, random_state=None):
        self.estimator = estimator
        self.n_estimators = n_estimators
        self.max_samples = max_samples
        self.max_features = max_features
        self.bootstrap = bootstrap
        self.bootstrap_features = bootstrap_features
        self.oob_score = oob_score
        self.n_jobs = n_jobs
        self.random_state = random_state

    def _make_member(self):
        return clone(self._tree_class()() if self.estimator is None else self.estimator)

    def _sampling(self, n_samples, n_features):
        return (_check_count_or_fraction(self.max_samples, "max_samples", n_samples, "samples"),
                _check_count_or_fraction(self.max_features, "max_features", n_features, "features"),
                check_bool(self.bootstrap, "bootstrap"), check_bool(self.bootstrap_features, "bootstrap_features"))


_BAGGING_DOC = r"""
    Parameters
    ----------
    estimator : {kind}, optional
        The learner, cloned for every member; default :class:`mlnotes.tree.{tree}` (grown fully: low bias,
        high variance, the learner bagging helps).
    n_estimators : int >= 1, default 10
        The number :math:`B` of members.
    max_samples : int or float, default 1.0
        Rows drawn per member: an int in :math:`[1, n]`, or a fraction of :math:`n` in (0, 1].
    max_features : int or float, default 1.0
        Features drawn per member (once per member, unlike a random forest's per split), same forms.
    bootstrap : bool, default True
        Draw rows with replacement (False: without, "pasting").
    bootstrap_features : bool, default False
        Draw features with replacement.
    oob_score : bool, default False
        Compute the out-of-bag estimate of the test performance (needs ``bootstrap``).
    n_jobs : int, optional
        Members fitted and evaluated in parallel (joblib threads); None is 1, -1 all cores. Members that are
        trees of :mod:`mlnotes.tree` predict all at once instead, in one thread. The result does not depend on
        it.
    random_state : None, int or numpy Generator
        Seeds :func:`numpy.random.default_rng`, which draws two seeds per member (its sample; its own
        ``random_state`` if it has one).

    Attributes
    ----------
    estimators_ : list of fitted learners
    estimators_samples_ : list of ndarray of int
        The rows each member drew (with repeats).
    estimators_features_ : list of ndarray of int
        The features each member saw.
    n_features_in_ : int
    {attributes}
    Raises
    ------
    ValueError
        ``n_estimators < 1``, ``max_samples``/``max_features`` outside their ranges, ``oob_score`` without
        ``bootstrap``, NaN/inf, {errors}negative or all-zero sample weights, sample weights for a learner
        without them.

    Notes
    -----
    A learner that accepts ``sample_weight`` is fitted on the distinct rows drawn with their counts as weights (a
    row drawn twice weighs 2; times the given sample weight); otherwise on the rows drawn, repeats included.
    Samples that no member left out get no out-of-bag prediction (NaN, with a warning) and are left out of
    ``oob_score_`` (scikit-learn scores them with a zero prediction instead). Breiman (1996).
"""


class BaggingClassifier(_ClassifierOutputs, ClassifierMixin, _BaggingParams):
    __doc__ = ("Bagging for classification: average the class probabilities (or votes) of one classifier fitted "
               "on B bootstrap samples.\n" + _BAGGING_DOC.format(
                   kind="classifier", tree="DecisionTreeClassifier", errors="one class, ",
                   attributes="classes_ : ndarray of shape (n_classes,)\n    n_classes_ : int\n    oob_score_ : float\n"
                              "        Out-of-bag accuracy (``oob_score=True``).\n"
                              "    oob_decision_function_ : ndarray of shape (n_samples, n_classes)\n"
                              "        Out-of-bag class probabilities of the training samples.\n"))

    _tree_name = "DecisionTreeClassifier"

    def fit(self, X, y, sample_weight=None):
        """Fit the B members on their samples. ``X`` (n_samples, n_features), ``y`` (n_samples,) labels,
        ``sample_weight`` (n_samples,) or None. Returns ``self``."""
        _check_member_kind(self.estimator, is_classifier, "classifier")
        return self._fit_classifier(X, y, sample_weight)


class BaggingRegressor(_RegressorOutputs, RegressorMixin, _BaggingParams):
    __doc__ = ("Bagging for regression: average the predictions of one regressor fitted on B bootstrap samples.\n"
               + _BAGGING_DOC.format(
                   kind="regressor", tree="DecisionTreeRegressor", errors="",
                   attributes="oob_score_ : float\n        Out-of-bag :math:`R^2` (``oob_score=True``).\n"
                              "    oob_prediction_ : ndarray of shape (n_samples,)\n"
                              "        Out-of-bag predictions of the training samples.\n"))

    _tree_name = "DecisionTreeRegressor"

    def fit(self, X, y, sample_weight=None):
        """Fit the B members on their samples. ``X`` (n_samples, n_features), ``y`` (n_samples,) numbers,
        ``sample_weight`` (n_samples,) or None. Returns ``self``."""
        _check_member_kind(self.estimator, is_regressor, "regressor")
        return self._fit_regressor(X, y, sample_weight)


def staged_errors(ensemble, X, y, *, out_of_bag=False):
    r"""The error of the average of the first :math:`b` members, for :math:`b = 1, \dots, B`.

    Parameters
    ----------
    ensemble : fitted bagging or random forest (classifier or regressor) of :mod:`mlnotes.ensemble`
    X : array-like of shape (n_samples, n_features)
    y : array-like of shape (n_samples,)
    out_of_bag : bool, default False
        False: the test error of the first :math:`b` members on ``(X, y)``. True: ``(X, y)`` must be the training
        data, and each sample is predicted by those of the first :math:`b` members that left it out of their bag
        (samples that none of them left out yet are skipped): the out-of-bag error as trees are added.

    Returns
    -------
    errors : ndarray of shape (n_estimators,)
        Misclassification rate (classifiers) or mean squared error (regressors); NaN where no sample has a
        prediction yet (out of bag, :math:`b` small).
    """
    check_is_fitted(ensemble)
    out_of_bag = check_bool(out_of_bag, "out_of_bag")
    X = validate_data(ensemble, X, reset=False, dtype=np.float64)
    y = np.asarray(y)
    if y.shape != (X.shape[0],):
        raise ValueError(f"y must have shape ({X.shape[0]},) to match X, got {y.shape}")
    classifier = is_classifier(ensemble)
    output = ensemble._member_proba if classifier else ensemble._member_prediction
    members = zip(ensemble.estimators_, ensemble.estimators_features_)
    outputs = np.stack([output(member, X[:, features] if len(features) < X.shape[1] else X)
                        for member, features in members])                          # (B, n, width)
    if out_of_bag:
        if len(ensemble.estimators_samples_[0]) and X.shape[0] <= max(rows.max() for rows in
                                                                       ensemble.estimators_samples_):
            raise ValueError("out_of_bag=True needs the training data: X has fewer rows than the members drew from")
        use = ensemble._out_of_bag_masks(X.shape[0]).astype(float)
    else:
        use = np.ones(outputs.shape[:2])
    totals = np.cumsum(outputs * use[:, :, None], axis=0)
    counts = np.cumsum(use, axis=0)
    seen = counts > 0
    with np.errstate(invalid="ignore", divide="ignore"):
        averages = totals / counts[:, :, None]
    if classifier:
        codes = np.searchsorted(ensemble.classes_, y)
        if not np.array_equal(ensemble.classes_[np.minimum(codes, len(ensemble.classes_) - 1)], y):
            raise ValueError("y holds labels that are not classes of the ensemble")
        wrong = (averages.argmax(axis=2) != codes[None, :]).astype(float)
    else:
        wrong = (averages[:, :, 0] - y.astype(float)[None, :]) ** 2
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(seen, wrong, 0.0).sum(axis=1) / seen.sum(axis=1)
