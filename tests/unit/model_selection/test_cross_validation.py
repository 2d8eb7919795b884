"""cross_val_score / cross_validate: scikit-learn's scores for the same unshuffled folds, with mlnotes estimators,
clones, fit parameters, scorers and failures."""

import numpy as np
import pytest
from sklearn import model_selection as sk
from sklearn.datasets import make_classification, make_regression
from sklearn.linear_model import LinearRegression

from mlnotes import model_selection as M
from mlnotes.linear import LogisticRegression


@pytest.fixture(scope="module")
def classification():
    return make_classification(n_samples=90, n_features=4, random_state=0)


@pytest.mark.parametrize("scoring", [None, "accuracy", "roc_auc", "f1_macro", "neg_log_loss"])
def test_mlnotes_estimator_scores_equal_sklearn_cross_val_score(classification, scoring):
    X, y = classification
    ours = M.cross_val_score(LogisticRegression(), X, y, scoring=scoring, cv=4)
    theirs = sk.cross_val_score(LogisticRegression(), X, y, scoring=scoring, cv=4)
    np.testing.assert_allclose(ours, theirs, rtol=0, atol=1e-12)


def test_cv_objects_and_iterables(classification):
    X, y = classification
    est = LogisticRegression()
    folds = list(M.KFold(3).split(X))
    a = M.cross_val_score(est, X, y, cv=M.KFold(3))
    np.testing.assert_array_equal(a, M.cross_val_score(est, X, y, cv=folds))
    np.testing.assert_allclose(a, sk.cross_val_score(est, X, y, cv=sk.KFold(3)), rtol=0, atol=1e-12)
    assert M.cross_val_score(est, X[:12], y[:12], cv=M.LeaveOneOut()).shape == (12,)
    assert not hasattr(est, "coef_")                               # clones are fitted, never the estimator


def test_regression_defaults_to_kfold_and_custom_scorer():
    X, y = make_regression(n_samples=40, n_features=3, noise=1.0, random_state=1)
    np.testing.assert_allclose(M.cross_val_score(LinearRegression(), X, y),
                               sk.cross_val_score(LinearRegression(), X, y), rtol=0, atol=1e-12)
    out = M.cross_validate(LinearRegression(), X, y, cv=4, scoring=lambda est, X, y: float(len(y)),
                           return_train_score=True, return_estimator=True)
    np.testing.assert_array_equal(out["test_score"], [10, 10, 10, 10])
    np.testing.assert_array_equal(out["train_score"], [30, 30, 30, 30])
    assert len(out["estimator"]) == 4 and (out["fit_time"] >= 0).all()


def test_sample_weight_is_split_with_the_folds():
    X, y = make_regression(n_samples=30, n_features=2, noise=5.0, random_state=2)
    w = np.random.default_rng(0).uniform(0.1, 3, 30)
    np.testing.assert_allclose(
        M.cross_val_score(LinearRegression(), X, y, cv=3, params={"sample_weight": w}),
        sk.cross_val_score(LinearRegression(), X, y, cv=3, params={"sample_weight": w}), rtol=0, atol=1e-12)


def test_failures_and_bad_arguments(classification):
    X, y = classification
    with pytest.raises(ValueError, match="not a known metric"):
        M.cross_val_score(LogisticRegression(), X, y, scoring="acc")
    with pytest.raises(TypeError, match="cv must be"):
        M.cross_val_score(LogisticRegression(), X, y, cv="five")
    with pytest.raises(ValueError, match="90 samples but y has 89"):
        M.cross_val_score(LogisticRegression(), X, y[:-1])
    with pytest.raises(ValueError, match="All the 3 fits failed"):
        M.cross_val_score(LogisticRegression(C=-1.0), X, y, cv=3)
    with pytest.raises(ValueError, match="C"):
        M.cross_val_score(LogisticRegression(C=-1.0), X, y, cv=3, error_score="raise")


def test_some_failed_fits_score_error_score_with_a_warning():
    from sklearn.exceptions import FitFailedWarning

    X = np.random.default_rng(0).normal(size=(30, 2))
    y = np.r_[np.zeros(10), np.ones(20)]                 # KFold(3): the fold testing on 0..9 trains on one class
    with pytest.warns(FitFailedWarning, match="1 of the 3 fits failed"):
        scores = M.cross_val_score(LogisticRegression(), X, y, cv=M.KFold(3))
    assert np.isnan(scores[0]) and np.isfinite(scores[1:]).all()
    with pytest.raises(ValueError, match="error_score"):
        M.cross_val_score(LogisticRegression(), X, y, error_score="ignore")


def test_check_cv_rule(classification):
    X, y = classification
    assert isinstance(M.check_cv(4, y, classifier=True), M.StratifiedKFold)
    assert isinstance(M.check_cv(4, y.astype(str), classifier=True), M.StratifiedKFold)
    assert type(M.check_cv(4, y + 0.5, classifier=True)) is M.KFold          # not class labels
    assert type(M.check_cv(None, y, classifier=False)) is M.KFold and M.check_cv(None).n_splits == 5
    labels = np.array(["no", "yes"])[y]
    np.testing.assert_allclose(M.cross_val_score(LogisticRegression(), X, labels, cv=3),
                               sk.cross_val_score(LogisticRegression(), X, labels, cv=3), rtol=0, atol=1e-12)
