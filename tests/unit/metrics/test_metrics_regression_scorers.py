"""Regression scores and the scorers by name: parity with scikit-learn, edge cases and bad input."""

import numpy as np
import pytest
from sklearn import metrics as sk
from sklearn.exceptions import UndefinedMetricWarning

from mlnotes import metrics as M

TOL = 1e-12


@pytest.mark.parametrize("multioutput", ["raw_values", "uniform_average", [0.3, 0.7]])
@pytest.mark.parametrize("weighted", [False, True])
def test_regression_scores_match_sklearn(multioutput, weighted):
    rng = np.random.default_rng(0)
    y_true, y_pred = rng.normal(size=(30, 2)), rng.normal(size=(30, 2))
    w = rng.uniform(0, 2, 30) if weighted else None
    for ours, theirs in [(M.mean_squared_error, sk.mean_squared_error), (M.mean_absolute_error,
                                                                          sk.mean_absolute_error),
                         (M.r2_score, sk.r2_score)]:
        np.testing.assert_allclose(ours(y_true, y_pred, sample_weight=w, multioutput=multioutput),
                                   theirs(y_true, y_pred, sample_weight=w, multioutput=multioutput), rtol=0, atol=TOL)
    assert M.r2_score(y_true, y_pred, multioutput="variance_weighted") == pytest.approx(
        sk.r2_score(y_true, y_pred, multioutput="variance_weighted"), abs=TOL)
    assert M.mean_squared_error(y_true[:, 0], y_pred[:, 0]) == pytest.approx(
        sk.mean_squared_error(y_true[:, 0], y_pred[:, 0]), abs=TOL)


def test_r2_edge_cases_like_sklearn():
    for force_finite in (True, False):
        for y_pred in ([2.0, 2.0, 2.0], [1.0, 2.0, 3.0]):           # constant y_true: perfect or not
            with np.errstate(divide="ignore", invalid="ignore"):
                expected = sk.r2_score([2.0, 2.0, 2.0], y_pred, force_finite=force_finite)
            assert M.r2_score([2.0, 2.0, 2.0], y_pred, force_finite=force_finite) == pytest.approx(
                expected, nan_ok=True)
    with pytest.warns(UndefinedMetricWarning, match="less than two samples"):
        assert np.isnan(M.r2_score([1.0], [2.0]))


def test_regression_bad_input():
    with pytest.raises(ValueError, match="3 samples but y_pred has 2"):
        M.mean_squared_error([1, 2, 3], [1, 2])
    with pytest.raises(ValueError, match="NaN"):
        M.mean_absolute_error([1, np.nan], [1, 2])
    with pytest.raises(ValueError, match="outputs"):
        M.r2_score(np.ones((3, 2)), np.ones((3, 3)))
    with pytest.raises(ValueError, match="multioutput"):
        M.mean_squared_error([1, 2], [1, 2], multioutput="mean")
    with pytest.raises(ValueError, match="empty"):
        M.r2_score([], [])
    with pytest.raises(ValueError, match="all are zero"):
        M.mean_squared_error([1, 2], [1, 2], sample_weight=[0, 0])


def test_scorers_match_sklearn_scorers():
    from sklearn.datasets import make_classification, make_regression
    from sklearn.linear_model import LinearRegression, LogisticRegression

    X, y = make_classification(n_samples=80, random_state=0)
    clf = LogisticRegression().fit(X, y)
    for name in ("accuracy", "roc_auc", "average_precision", "neg_log_loss", "f1", "precision", "recall",
                 "f1_macro", "recall_weighted", "precision_micro"):
        assert M.get_scorer(name)(clf, X, y) == pytest.approx(sk.get_scorer(name)(clf, X, y), abs=TOL), name
    X, y = make_regression(n_samples=50, noise=5.0, random_state=0)
    reg = LinearRegression().fit(X, y)
    for name in ("r2", "neg_mean_squared_error", "neg_mean_absolute_error"):
        assert M.get_scorer(name)(reg, X, y) == pytest.approx(sk.get_scorer(name)(reg, X, y), abs=1e-9), name
    with pytest.raises(ValueError, match="not a known metric"):
        M.get_scorer("accuracy_score")
    with pytest.raises(TypeError, match="scoring"):
        M.get_scorer(3)
