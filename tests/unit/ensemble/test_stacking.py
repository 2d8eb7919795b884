"""StackingClassifier: equal to scikit-learn's (same base and final estimators, same folds), the out-of-fold
features, the default final estimator and folds, missing classes in a fold, sample weights, and the errors."""

import numpy as np
import pytest
import sklearn.ensemble
from sklearn.datasets import load_breast_cancer, load_iris, load_wine
from sklearn.linear_model import LogisticRegression as SkLogisticRegression
from sklearn.model_selection import KFold, StratifiedKFold
from sklearn.naive_bayes import GaussianNB
from sklearn.neighbors import KNeighborsClassifier, KNeighborsRegressor
from sklearn.svm import SVC

from mlnotes.ensemble import StackingClassifier
from mlnotes.ensemble._stacking import cross_val_predictions


def _standardised(loader):
    X, y = loader(return_X_y=True)
    return (X - X.mean(axis=0)) / X.std(axis=0), y


def _bases():
    return [("knn", KNeighborsClassifier(7)), ("nb", GaussianNB()), ("svm", SVC(C=0.5))]


@pytest.mark.parametrize("loader", [load_iris, load_breast_cancer, load_wine])
@pytest.mark.parametrize("passthrough", [False, True])
def test_equals_scikit_learn(loader, passthrough):
    X, y = _standardised(loader)
    kwargs = dict(cv=StratifiedKFold(4), passthrough=passthrough)
    ours = StackingClassifier(_bases(), SkLogisticRegression(max_iter=1000), **kwargs).fit(X, y)
    theirs = sklearn.ensemble.StackingClassifier(_bases(), SkLogisticRegression(max_iter=1000), **kwargs).fit(X, y)
    assert ours.stack_method_ == theirs.stack_method_ == ["predict_proba", "predict_proba", "decision_function"]
    np.testing.assert_allclose(ours.transform(X), theirs.transform(X), rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(ours.predict_proba(X), theirs.predict_proba(X), rtol=1e-10, atol=1e-12)
    np.testing.assert_array_equal(ours.predict(X), theirs.predict(X))


def test_final_estimator_sees_out_of_fold_predictions():
    X, y = _standardised(load_iris)
    folds = list(StratifiedKFold(5).split(X, y))
    stack = StackingClassifier([("knn", KNeighborsClassifier(1))], cv=folds, stack_method="predict").fit(X, y)
    # 1-NN predicts its own training points perfectly; out of fold it errs: the final estimator's features
    # are the out-of-fold predictions, recomputed here by hand
    expected = np.empty(len(y))
    for train, test in folds:
        expected[test] = KNeighborsClassifier(1).fit(X[train], y[train]).predict(X[test])
    assert np.mean(expected != y) > 0
    ours_meta = cross_val_predictions(KNeighborsClassifier(1), X, y, folds, "predict", 3)[:, 0]
    np.testing.assert_array_equal(ours_meta, expected)
    # the final estimator was fitted on exactly these features
    refit = SkLogisticRegression().fit(expected.reshape(-1, 1), y)
    stack_sk = StackingClassifier([("knn", KNeighborsClassifier(1))], SkLogisticRegression(), cv=folds,
                                  stack_method="predict").fit(X, y)
    np.testing.assert_allclose(stack_sk.final_estimator_.coef_, refit.coef_, rtol=1e-12)
    np.testing.assert_array_equal(stack.transform(X)[:, 0], y)          # refitted on all data: 1-NN is exact


def test_default_final_estimator_is_logistic_regression_close_to_scikit_learn():
    X, y = _standardised(load_breast_cancer)
    ours = StackingClassifier(_bases(), cv=StratifiedKFold(5)).fit(X, y)
    theirs = sklearn.ensemble.StackingClassifier(_bases(), cv=StratifiedKFold(5)).fit(X, y)
    assert type(ours.final_estimator_).__module__.startswith("mlnotes.linear")
    # the same objective, solved to the two solvers' tolerances
    np.testing.assert_allclose(ours.predict_proba(X), theirs.predict_proba(X), atol=2e-3)


def test_labels_are_kept_and_a_fold_may_lack_a_class():
    X, y = _standardised(load_iris)
    labels = np.array(["setosa", "versicolor", "virginica"])[y]
    order = np.argsort(y, kind="stable")          # unshuffled KFold on sorted labels: folds lack whole classes
    X, labels = X[order], labels[order]
    stack = StackingClassifier([("nb", GaussianNB())], SkLogisticRegression(), cv=KFold(3)).fit(X, labels)
    assert set(stack.predict(X)) <= set(labels)
    np.testing.assert_array_equal(stack.classes_, ["setosa", "versicolor", "virginica"])
    theirs = sklearn.ensemble.StackingClassifier([("nb", GaussianNB())], SkLogisticRegression(), cv=KFold(3))
    theirs.fit(X, labels)
    np.testing.assert_allclose(stack.predict_proba(X), theirs.predict_proba(X), rtol=1e-10, atol=1e-12)


def test_sample_weight_reaches_every_fit():
    X, y = _standardised(load_breast_cancer)
    weights = np.random.default_rng(0).integers(0, 3, len(y)).astype(float)
    kwargs = dict(cv=StratifiedKFold(3))
    ours = StackingClassifier([("nb", GaussianNB())], SkLogisticRegression(), **kwargs).fit(X, y, sample_weight=weights)
    theirs = sklearn.ensemble.StackingClassifier([("nb", GaussianNB())], SkLogisticRegression(), **kwargs)
    theirs.fit(X, y, sample_weight=weights)
    np.testing.assert_allclose(ours.predict_proba(X), theirs.predict_proba(X), rtol=1e-8, atol=1e-10)
    unweighted = StackingClassifier([("nb", GaussianNB())], SkLogisticRegression(), **kwargs).fit(X, y)
    assert np.abs(unweighted.predict_proba(X) - ours.predict_proba(X)).max() > 1e-3


def test_drop():
    X, y = _standardised(load_iris)
    stack = StackingClassifier([("nb", GaussianNB()), ("off", "drop")], cv=StratifiedKFold(3)).fit(X, y)
    assert len(stack.estimators_) == 1 and stack.named_estimators_["off"] == "drop"
    assert stack.transform(X).shape == (150, 3)


@pytest.mark.parametrize("estimators, kwargs, error, match", [
    ([], {}, ValueError, "non-empty list"),
    ([("a", GaussianNB()), ("a", GaussianNB())], {}, ValueError, "unique"),
    ([("a", "drop")], {}, ValueError, "all estimators are 'drop'"),
    ([("r", KNeighborsRegressor())], {}, ValueError, "must be a classifier"),
    ([("nb", GaussianNB())], {"stack_method": "decision_function"}, ValueError, "none of the methods"),
    ([("nb", GaussianNB())], {"stack_method": "vote"}, ValueError, "stack_method"),
    ([("nb", GaussianNB())], {"cv": [(np.arange(50), np.arange(50, 100))]}, ValueError, "exactly one test fold"),
    ([("nb", GaussianNB())], {"cv": 1}, ValueError, "cv must be"),
    ([("nb", GaussianNB())], {"cv": "five"}, TypeError, "cv must be"),
])
def test_errors(estimators, kwargs, error, match):
    X, y = _standardised(load_iris)
    with pytest.raises(error, match=match):
        StackingClassifier(estimators, **kwargs).fit(X, y)


def test_bad_data():
    X, y = _standardised(load_iris)
    stack = StackingClassifier([("nb", GaussianNB())], cv=StratifiedKFold(3))
    X_nan = X.copy()
    X_nan[0, 0] = np.nan
    with pytest.raises(ValueError, match="NaN"):
        stack.fit(X_nan, y)
    with pytest.raises(ValueError, match="only one class"):
        stack.fit(X, np.zeros(len(y)))
    with pytest.raises(ValueError, match="negative"):
        stack.fit(X, y, sample_weight=-np.ones(len(y)))
    with pytest.raises(ValueError, match="all are zero"):
        stack.fit(X, y, sample_weight=np.zeros(len(y)))
    with pytest.raises(ValueError, match="does not accept sample_weight"):
        StackingClassifier([("knn", KNeighborsClassifier())], cv=StratifiedKFold(3)).fit(X, y, sample_weight=np.ones(150))


def test_default_folds_are_five_stratified_folds():
    X, y = _standardised(load_wine)
    ours = StackingClassifier(_bases(), SkLogisticRegression(max_iter=1000)).fit(X, y)
    theirs = sklearn.ensemble.StackingClassifier(_bases(), SkLogisticRegression(max_iter=1000)).fit(X, y)
    np.testing.assert_allclose(ours.predict_proba(X), theirs.predict_proba(X), rtol=1e-10, atol=1e-12)
    three = StackingClassifier(_bases(), SkLogisticRegression(max_iter=1000), cv=3).fit(X, y)
    theirs3 = sklearn.ensemble.StackingClassifier(_bases(), SkLogisticRegression(max_iter=1000), cv=3).fit(X, y)
    np.testing.assert_allclose(three.transform(X), theirs3.transform(X), rtol=1e-12, atol=1e-12)
