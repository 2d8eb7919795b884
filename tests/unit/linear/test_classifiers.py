"""Perceptron, OneVsRestClassifier and OneVsOneClassifier: the update rule and its convergence
guarantee, exact agreement of the perceptron's updates and of the multiclass wrappers with scikit-learn's,
the configuration where one-vs-rest fails (foundations notes 001, section 24), the chapter's drawing and
widget, and clear errors."""

import warnings

import numpy as np
import pytest
import sklearn.linear_model as sk
import sklearn.multiclass as skm
from sklearn.datasets import load_iris, load_wine
from sklearn.exceptions import ConvergenceWarning
from sklearn.preprocessing import StandardScaler

from mlnotes.linear import LogisticRegression, OneVsOneClassifier, OneVsRestClassifier, Perceptron


def separable(n=200, d=3, margin=0.5, seed=0):
    rng = np.random.default_rng(seed)
    w = rng.normal(size=d)
    w /= np.linalg.norm(w)
    X = rng.normal(size=(4 * n, d))
    X = X[np.abs(X @ w - 0.3) > margin][:n]
    return X, np.where(X @ w - 0.3 > 0, "yes", "no"), w, margin


@pytest.mark.parametrize("seed", range(5))
def test_perceptron_separates_separable_data_within_novikoffs_bound(seed):
    X, y, w, margin = separable(seed=seed)
    model = Perceptron(random_state=seed).fit(X, y)
    assert model.converged_ and model.mistakes_[-1] == 0
    assert model.score(X, y) == 1.0
    # Novikoff: mistakes <= (R / gamma)^2 with R = max ||(x, 1)|| and gamma the margin of the unit separator
    # (w, -0.3) / ||(w, -0.3)||
    Xt = np.column_stack([X, np.ones(len(X))])
    gamma = margin / np.linalg.norm(np.r_[w, -0.3])
    assert model.mistakes_.sum() <= (np.linalg.norm(Xt, axis=1).max() / gamma) ** 2


def test_perceptron_update_rule_on_a_hand_example():
    X = np.array([[1.0, 0.0], [0.0, 1.0]])
    y = np.array([1, -1])
    with pytest.warns(ConvergenceWarning):                     # one epoch, with two mistakes
        model = Perceptron(shuffle=False, max_iter=1).fit(X, y)
    # theta = (w, b) = 0. x1 = (1, 0), label +1, score 0: mistake, theta = (1, 0, 1).
    # x2 = (0, 1), label -1, score 0 + 0 + 1 = 1: mistake, theta = (1, 0, 1) - (0, 1, 1) = (1, -1, 0).
    np.testing.assert_array_equal(model.coef_, [[1.0, -1.0]])
    np.testing.assert_array_equal(model.intercept_, [0.0])


def test_perceptron_warns_on_non_separable_data():
    X = np.array([[0.0], [1.0], [2.0], [3.0]])
    y = np.array([0, 1, 0, 1])
    with pytest.warns(ConvergenceWarning, match="not be linearly separable"):
        model = Perceptron(max_iter=20, random_state=0).fit(X, y)
    assert not model.converged_ and len(model.mistakes_) == 20


def iris():
    X, y = load_iris(return_X_y=True)
    return StandardScaler().fit_transform(X), y


def test_one_vs_rest_agrees_with_sklearn():
    # decision_function, predict and (issue 11) predict_proba
    X, y = iris()
    ours = OneVsRestClassifier(LogisticRegression(solver="newton", tol=1e-10)).fit(X, y)
    ref = skm.OneVsRestClassifier(sk.LogisticRegression(solver="newton-cholesky", tol=1e-10)).fit(X, y)
    np.testing.assert_allclose(ours.decision_function(X), ref.decision_function(X), atol=1e-7)
    np.testing.assert_array_equal(ours.predict(X), ref.predict(X))
    P = ours.predict_proba(X)
    np.testing.assert_allclose(P, ref.predict_proba(X), rtol=1e-6, atol=1e-9)
    np.testing.assert_allclose(P.sum(axis=1), 1.0, rtol=1e-12)
    assert not hasattr(OneVsRestClassifier(Perceptron()), "predict_proba")     # only if the base has it


def test_one_vs_one_agrees_with_sklearn():
    X, y = load_wine(return_X_y=True)
    X = StandardScaler().fit_transform(X)
    ours = OneVsOneClassifier(LogisticRegression(solver="newton", tol=1e-10)).fit(X, y)
    ref = skm.OneVsOneClassifier(sk.LogisticRegression(solver="newton-cholesky", tol=1e-10)).fit(X, y)
    np.testing.assert_array_equal(ours.predict(X), ref.predict(X))
    assert ours.votes(X).sum(axis=1).tolist() == [3] * len(X)


def test_one_vs_rest_with_perceptrons_on_three_separable_blobs():
    rng = np.random.default_rng(0)
    centres = np.array([[0.0, 6.0], [6.0, -3.0], [-6.0, -3.0]])
    X = np.vstack([c + rng.normal(size=(30, 2)) for c in centres])
    y = np.repeat(["a", "b", "c"], 30)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        model = OneVsRestClassifier(Perceptron(random_state=0)).fit(X, y)
    assert model.score(X, y) == 1.0


def test_bad_input_is_rejected():
    X, y = iris()
    with pytest.raises(ValueError, match="exactly 2 classes"):
        Perceptron().fit(X, y)
    with pytest.raises(ValueError, match="max_iter"):
        Perceptron(max_iter=0).fit(X, y)
    with pytest.raises(ValueError, match="at least 2 classes"):
        OneVsRestClassifier(Perceptron()).fit(X, np.zeros(len(y)))
    with pytest.raises(ValueError, match="Unknown label type"):
        OneVsOneClassifier(Perceptron()).fit(X, np.linspace(0, 1, len(y)))


@pytest.mark.parametrize("seed", range(3))
def test_perceptron_makes_exactly_sklearns_updates(seed):
    X, y, _, _ = separable(n=60, d=2, margin=0.05, seed=seed)
    ours = Perceptron(shuffle=False, max_iter=30).fit(X, y)
    ref = sk.Perceptron(shuffle=False, max_iter=30, tol=None).fit(X, y)
    # same start (0), same condition (score <= 0), same step (1), same order: the same weights, bit for bit
    np.testing.assert_array_equal(ours.coef_, ref.coef_)
    np.testing.assert_array_equal(ours.intercept_, ref.intercept_)
    np.testing.assert_array_equal(ours.predict(X), ref.predict(X))


def cone_data(seed=7):
    """Three classes around the directions 150, 90 and 30 degrees (foundations notes 001, section 24)."""
    rng = np.random.default_rng(seed)
    angle = np.concatenate([a + rng.normal(scale=0.12, size=30) for a in np.deg2rad([150, 90, 30])])
    radius = 1 + rng.normal(scale=0.1, size=90)
    return np.column_stack([radius * np.cos(angle), radius * np.sin(angle)]), np.repeat([1, 2, 3], 30)


def test_one_vs_rest_without_intercept_fails_where_a_joint_score_succeeds():
    from mlnotes.linear import MulticlassSVM

    directions = np.array([[np.cos(a), np.sin(a)] for a in np.deg2rad([150, 90, 30])])
    W = np.random.default_rng(0).normal(size=(20000, 2))
    scores = W @ directions.T
    # x2 = x1 + x3, so no w scores x2 positive and x1, x3 negative: "2 against the rest" is not separable
    np.testing.assert_allclose(scores[:, 1], scores[:, 0] + scores[:, 2], atol=1e-12)
    assert not np.any((scores[:, 1] > 0) & (scores[:, 0] < 0) & (scores[:, 2] < 0))
    X, y = cone_data()
    ovr = OneVsRestClassifier(MulticlassSVM(C=1.0, fit_intercept=False)).fit(X, y)
    joint = MulticlassSVM(C=1.0, fit_intercept=False).fit(X, y)
    assert np.mean(ovr.predict(X)[y == 2] == 2) < 0.5
    assert joint.score(X, y) == 1.0


def test_decision_boundary_drawing_and_c_widget():
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from mlnotes.widgets import draw_decision_boundary, logistic_c_demo

    X, y, _, _ = separable(n=60, d=2, seed=1)
    fig, ax = plt.subplots()
    model = LogisticRegression(C=1.0).fit(X, y)
    assert draw_decision_boundary(ax, model, X, y) is ax
    assert len(ax.collections) >= 4                          # regions, boundary, probability contours, points
    assert ax.get_legend_handles_labels()[1] == ["class no", "class yes"]
    assert len(ax.texts) >= 2                                # the probability contours are labelled
    plt.close(fig)
    X3, y3 = cone_data()
    fig, ax = plt.subplots()
    draw_decision_boundary(ax, LogisticRegression().fit(X3, y3), X3, y3)
    assert ax.get_legend_handles_labels()[1] == ["class 1", "class 2", "class 3"]
    plt.close("all")
    demo = logistic_c_demo(X, y, log10_C=1.0)
    assert demo.children[0].description == "log10 C" and demo.children[0].value == 1.0
    plt.close("all")
    with pytest.raises(ValueError, match="exactly 2 features"):
        draw_decision_boundary(ax, model, np.column_stack([X, X[:, :1]]), y)
    with pytest.raises(ValueError, match="to match X"):
        draw_decision_boundary(ax, model, X, y[:-1])
    with pytest.raises(ValueError, match="resolution"):
        draw_decision_boundary(ax, model, X, y, resolution=1)
    with pytest.raises(ValueError, match="exactly 2 classes"):
        logistic_c_demo(X3, y3)
    with pytest.raises(ValueError, match="log10_C must be <= 3"):
        logistic_c_demo(X, y, log10_C=5.0)


# ------------------------------------------------------------------ pieces users of scikit-learn rely on (issue 11)

def test_one_vs_one_decision_function_as_sklearn_and_calibration_accepts_it():
    from sklearn.calibration import CalibratedClassifierCV

    X, y = iris()
    ours = OneVsOneClassifier(LogisticRegression(solver="newton", tol=1e-10)).fit(X, y)
    ref = skm.OneVsOneClassifier(sk.LogisticRegression(solver="newton-cholesky", tol=1e-10)).fit(X, y)
    D = ours.decision_function(X)
    np.testing.assert_allclose(D, ref.decision_function(X), rtol=1e-6, atol=1e-8)
    np.testing.assert_array_equal(ours.predict(X), ref.predict(X))
    np.testing.assert_array_equal(ours.predict(X), ours.classes_[D.argmax(axis=1)])
    assert (np.abs(D - ours.votes(X)) < 1 / 3).all()                           # confidences never overturn a vote
    calibrated = CalibratedClassifierCV(OneVsOneClassifier(LogisticRegression()), cv=3).fit(X, y)
    P = calibrated.predict_proba(X)
    np.testing.assert_allclose(P.sum(axis=1), 1.0, rtol=1e-12)
    assert calibrated.score(X, y) > 0.9


def test_perceptron_sample_weight_as_sklearn():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(60, 2))
    y = (X @ [1.0, -2.0] + 0.3 > 0).astype(int)
    s = rng.integers(0, 4, size=60).astype(float)
    ours = Perceptron(shuffle=False, max_iter=1000).fit(X, y, sample_weight=s)
    ref = sk.Perceptron(shuffle=False, max_iter=1000, tol=None).fit(X, y, sample_weight=s)
    np.testing.assert_allclose(ours.coef_, ref.coef_, rtol=1e-12)
    np.testing.assert_allclose(ours.intercept_, ref.intercept_, rtol=1e-12)
    keep = s > 0                                                # weight 0 = the sample removed
    alone = Perceptron(shuffle=False).fit(X[keep], y[keep], sample_weight=s[keep])
    np.testing.assert_array_equal(alone.coef_, ours.coef_)


@pytest.mark.parametrize("scale", [2.0**-1020, 1e-307, 1e-310])
@pytest.mark.parametrize("fit_intercept", [False, True])
def test_perceptron_on_features_near_the_smallest_float(fit_intercept, scale):
    # issue 11: at 1e-307 the products w^T x underflowed to 0, every sample was "on the boundary", and the
    # perceptron never separated anything (training accuracy 0.475 instead of 0.9). Exactly: without an intercept
    # the perceptron does not depend on the scale of the features; with one, the update of b (by +-1) dwarfs
    # that of w (by +-x) on tiny features, and the algorithm is the same for every scale small enough for the
    # products not to matter next to b: 2^-300 (where nothing underflows) is the reference.
    rng = np.random.default_rng(0)
    X = rng.normal(size=(40, 2))
    y = np.where(X @ [1.0, -0.5] + 0.2 > 0, 1, 0)
    reference_scale = 2.0**-300 if fit_intercept else 1.0
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        ref = Perceptron(fit_intercept=fit_intercept, max_iter=200, random_state=0).fit(X * reference_scale, y)
        tiny = Perceptron(fit_intercept=fit_intercept, max_iter=200, random_state=0).fit(X * scale, y)
    np.testing.assert_array_equal(tiny.mistakes_, ref.mistakes_)
    np.testing.assert_array_equal(tiny.intercept_, ref.intercept_)
    np.testing.assert_allclose(tiny.coef_ / scale, ref.coef_ / reference_scale, rtol=1e-6)
    np.testing.assert_array_equal(tiny.predict(X * scale), ref.predict(X * reference_scale))
    assert tiny.score(X * scale, y) == ref.score(X * reference_scale, y) >= 0.9
    scores = tiny.decision_function(X * scale)
    assert np.all(np.isfinite(scores)) and np.all((scores > 0) <= (tiny.predict(X * scale) == 1))


def test_perceptron_on_ordinary_features_is_unchanged_by_the_underflow_guard():
    # the guard scales only features below 2^-256: elsewhere the updates are the textbook ones, bit for bit
    X = np.array([[2.0, 0.0], [0.0, 1.0], [1.0, 1.0]])
    model = Perceptron(shuffle=False).fit(X, np.array([1, -1, 1]))
    np.testing.assert_array_equal(np.r_[model.coef_[0], model.intercept_], [2.0, -1.0, 0.0])
    np.testing.assert_array_equal(model.mistakes_, [2, 0])
