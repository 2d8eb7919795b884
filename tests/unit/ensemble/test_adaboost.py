"""AdaBoostClassifier (SAMME) on mlnotes' stumps: exact parity with scikit-learn's AdaBoostClassifier with
scikit-learn's stumps on tie-free data (sample weights, estimator weights and errors, decision function,
probabilities, staged predictions, importances), two and three classes, the FSAM relation, stopping rules, errors."""

import warnings

import numpy as np
import pytest
import sklearn.ensemble
from sklearn.tree import DecisionTreeClassifier as SkTree                  # scikit-learn's side of the parity only

from mlnotes.ensemble import AdaBoostClassifier
from mlnotes.generative import GaussianNB
from mlnotes.tree import DecisionTreeClassifier


def _data(n, n_classes, seed):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, 4))                                   # continuous features: no ties between thresholds
    score = X[:, 0] + 0.6 * X[:, 1]**2 - 0.4 * X[:, 2] + 0.5 * rng.normal(size=n)
    return X, np.digitize(score, np.quantile(score, np.linspace(0, 1, n_classes + 1)[1:-1]))


class _WeightRecorder(SkTree):
    """scikit-learn's stump that keeps the weights it was fitted with (to compare the sample weights)."""

    def fit(self, X, y, sample_weight=None, check_input=True):
        self.seen_weight_ = np.array(sample_weight)
        return super().fit(X, y, sample_weight=sample_weight, check_input=check_input)


@pytest.mark.parametrize("n_classes, seed", [(2, 0), (2, 1), (3, 2), (4, 3)])
def test_exact_parity_with_scikit_learn(n_classes, seed):
    X, y = _data(150, n_classes, seed)
    X_test, _ = _data(80, n_classes, seed + 10)
    w0 = np.random.default_rng(seed).uniform(0.5, 2.0, len(y))
    ours = AdaBoostClassifier(n_estimators=25).fit(X, y, sample_weight=w0)
    theirs = sklearn.ensemble.AdaBoostClassifier(_WeightRecorder(max_depth=1), n_estimators=25).fit(
        X, y, sample_weight=w0)
    assert len(ours.estimators_) == len(theirs.estimators_) == 25
    np.testing.assert_allclose(ours.estimator_weights_, theirs.estimator_weights_, rtol=1e-12, atol=0)
    np.testing.assert_allclose(ours.estimator_errors_, theirs.estimator_errors_, rtol=1e-12, atol=0)
    np.testing.assert_allclose(ours.sample_weights_, [est.seen_weight_ for est in theirs.estimators_], rtol=1e-12,
                               atol=0)
    for Z in (X, X_test):
        np.testing.assert_array_equal(ours.predict(Z), theirs.predict(Z))
        np.testing.assert_allclose(ours.decision_function(Z), theirs.decision_function(Z), atol=1e-12)
        np.testing.assert_allclose(ours.predict_proba(Z), theirs.predict_proba(Z), atol=1e-12)
        for a, b in zip(ours.staged_predict(Z), theirs.staged_predict(Z), strict=True):
            np.testing.assert_array_equal(a, b)
        for a, b in zip(ours.staged_predict_proba(Z), theirs.staged_predict_proba(Z), strict=True):
            np.testing.assert_allclose(a, b, atol=1e-12)
    np.testing.assert_allclose(ours.feature_importances_, theirs.feature_importances_, atol=1e-12)


def test_two_classes_fsam_relation_and_reweighting():
    # alpha_m = 2 v_m with v_m = 1/2 ln((1 - err)/err), and the weights are proportional to exp(-y f_{m}) with
    # f = sum_j v_j h_j (labels +-1): SAMME's reweighting is FSAM's with the exponential loss
    X, y = _data(120, 2, 5)
    model = AdaBoostClassifier(n_estimators=10).fit(X, y)
    y_pm = np.where(y == 1, 1.0, -1.0)
    f = np.zeros(len(y))
    for m, est in enumerate(model.estimators_):
        w = np.exp(-y_pm * f)
        np.testing.assert_allclose(model.sample_weights_[m], w / w.sum(), rtol=1e-10)
        err = model.estimator_errors_[m]
        v = 0.5 * np.log((1 - err) / err)
        assert model.estimator_weights_[m] == pytest.approx(2 * v, rel=1e-12)
        f += v * np.where(est.predict(X) == 1, 1.0, -1.0)
    np.testing.assert_array_equal(model.predict(X), np.where(f > 0, 1, 0))


def test_string_labels_and_other_base_learner():
    X, y = _data(90, 2, 6)
    labels = np.array(["no", "yes"])[y]
    model = AdaBoostClassifier(n_estimators=5).fit(X, labels)
    assert set(model.predict(X)) <= {"no", "yes"}
    np.testing.assert_array_equal(model.classes_, ["no", "yes"])
    nb = AdaBoostClassifier(GaussianNB(), n_estimators=3).fit(X, y)
    assert nb.score(X, y) > 0.6


def test_stopping_rules():
    X = np.array([[0.0], [1.0], [2.0], [3.0]])
    y = np.array([0, 0, 1, 1])
    perfect = AdaBoostClassifier(n_estimators=10).fit(X, y)             # a stump separates: one round, weight 1
    assert len(perfect.estimators_) == 1
    assert perfect.estimator_weights_[0] == 1.0 and perfect.estimator_errors_[0] == 0.0
    np.testing.assert_array_equal(perfect.predict(X), y)
    # weights concentrated on the points a stump cannot get right: the second round is no better than chance
    X2 = np.array([[0.0], [1.0], [2.0], [3.0]])
    y2 = np.array([0, 1, 1, 0])
    model = AdaBoostClassifier(n_estimators=50).fit(X2, y2)
    reference = sklearn.ensemble.AdaBoostClassifier(SkTree(max_depth=1), n_estimators=50).fit(X2, y2)
    assert len(model.estimators_) == len(reference.estimators_)
    np.testing.assert_allclose(model.estimator_weights_, reference.estimator_weights_, atol=1e-12)


def test_zero_weights_take_no_part():
    X, y = _data(60, 2, 7)
    w = np.ones(60)
    w[:10] = 0
    a = AdaBoostClassifier(n_estimators=8).fit(X, y, sample_weight=w)
    b = AdaBoostClassifier(n_estimators=8).fit(X[10:], y[10:])
    np.testing.assert_allclose(a.estimator_weights_, b.estimator_weights_, rtol=1e-10)
    assert (a.sample_weights_[:, :10] == 0).all()


def test_errors():
    X, y = _data(30, 2, 8)
    with pytest.raises(ValueError, match="n_estimators"):
        AdaBoostClassifier(n_estimators=0).fit(X, y)
    with pytest.raises(ValueError, match="learning_rate"):
        AdaBoostClassifier(learning_rate=0.0).fit(X, y)
    with pytest.raises(ValueError, match="only one class"):
        AdaBoostClassifier().fit(X, np.zeros(30))
    with pytest.raises(ValueError, match="NaN"):
        AdaBoostClassifier().fit(np.full((30, 4), np.nan), y)
    with pytest.raises(ValueError, match="infinity|inf"):
        AdaBoostClassifier().fit(np.full((30, 4), np.inf), y)
    with pytest.raises(ValueError, match="negative"):
        AdaBoostClassifier().fit(X, y, sample_weight=-np.ones(30))
    with pytest.raises(ValueError, match="zero"):
        AdaBoostClassifier().fit(X, y, sample_weight=np.zeros(30))

    class NoWeights:
        def get_params(self, deep=True):
            return {}

        def fit(self, X, y):
            return self

    with pytest.raises(ValueError, match="sample_weight"):
        AdaBoostClassifier(NoWeights()).fit(X, y)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        AdaBoostClassifier(DecisionTreeClassifier(max_depth=2), n_estimators=3).fit(X, y)
