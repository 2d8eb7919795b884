"""MulticlassSVM (Crammer-Singer, interior point and subgradient descent): the multivector feature map, the objective against a
loop over classes, the subgradient inequality, agreement with scikit-learn's LinearSVC(multi_class=
"crammer_singer"), the two-class case as the binary SVM, the estimator checks, and clear errors."""

import numpy as np
import pytest
from scipy.optimize import approx_fprime
from sklearn.datasets import load_iris, load_wine
from sklearn.preprocessing import StandardScaler
from sklearn.svm import LinearSVC

from mlnotes.linear import (MulticlassSVM, multiclass_hinge_objective, multiclass_hinge_subgradient,
                            multivector_feature)


def standardised(loader):
    X, y = loader(return_X_y=True)
    return StandardScaler().fit_transform(X), y


DATA = {"iris": standardised(load_iris), "wine": standardised(load_wine)}


def objective_by_loops(w, X, y, C):
    """The Crammer-Singer objective written with explicit loops over samples and classes."""
    K = w.size // X.shape[1]
    W = w.reshape(K, X.shape[1])
    total = 0.0
    for x_i, y_i in zip(X, y):
        total += max(max(0.0, 1.0 - (W[y_i] - W[k]) @ x_i) for k in range(K) if k != y_i)
    return 0.5 * w @ w + C * total


@pytest.mark.parametrize("K, d", [(3, 4), (2, 1), (5, 3)])
def test_multivector_feature_gives_the_score_of_the_class(K, d):
    rng = np.random.default_rng(K * 10 + d)
    X, y, W = rng.normal(size=(20, d)), rng.integers(0, K, 20), rng.normal(size=(K, d))
    Psi = multivector_feature(X, y, K)
    assert Psi.shape == (20, K * d)
    np.testing.assert_allclose(Psi @ W.ravel(), (X @ W.T)[np.arange(20), y], rtol=1e-14)
    blocks = Psi.reshape(20, K, d).copy()
    np.testing.assert_array_equal(blocks[np.arange(20), y], X)          # block y_i holds x_i ...
    blocks[np.arange(20), y] = 0.0
    assert not blocks.any()                                              # ... and every other block is 0


@pytest.mark.parametrize("seed", range(4))
def test_objective_matches_loops_and_subgradient_inequality_holds(seed):
    X, y = DATA["wine"]
    rng = np.random.default_rng(seed)
    C = [0.01, 0.1, 1.0, 5.0][seed]
    w, v = rng.normal(size=3 * 13), rng.normal(size=3 * 13)
    np.testing.assert_allclose(multiclass_hinge_objective(w, X, y, C), objective_by_loops(w, X, y, C), rtol=1e-12)
    g = multiclass_hinge_subgradient(w, X, y, C)
    assert multiclass_hinge_objective(v, X, y, C) >= multiclass_hinge_objective(w, X, y, C) + g @ (v - w) - 1e-10
    # where the objective is differentiable (no ties, no margin exactly 1) the subgradient is the gradient
    f = lambda t: multiclass_hinge_objective(t, X, y, C)
    np.testing.assert_allclose(g, approx_fprime(w, f, 1e-8), atol=1e-4 * max(1.0, C * len(y)))


@pytest.mark.parametrize("data", DATA)
@pytest.mark.parametrize("fit_intercept", [True, False])
@pytest.mark.parametrize("C_notes", [1.0, 10.0])
def test_reaches_the_minimum_of_sklearn_crammer_singer(data, fit_intercept, C_notes):
    X, y = DATA[data]
    C = C_notes / len(y)                               # the notes' C / n is scikit-learn's C
    ours = MulticlassSVM(C=C, fit_intercept=fit_intercept, max_iter=2000).fit(X, y)
    ref = LinearSVC(multi_class="crammer_singer", C=C, fit_intercept=fit_intercept, tol=1e-10,
                    max_iter=100000).fit(X, y)
    Xt = np.column_stack([X, np.ones(len(y))]) if fit_intercept else X
    w_ref = np.column_stack([ref.coef_, ref.intercept_]).ravel() if fit_intercept else ref.coef_.ravel()
    f_ref = multiclass_hinge_objective(w_ref, Xt, y, C)
    # the best iterate of subgradient descent is above the minimum, and close to it
    assert f_ref - 1e-9 <= ours.objective_ <= f_ref * (1 + 1e-4)
    np.testing.assert_allclose(ours.coef_, ref.coef_, atol=2e-2)
    assert np.mean(ours.predict(X) == ref.predict(X)) >= 0.98


def test_two_classes_is_the_binary_svm_with_C_doubled():
    X, y = DATA["iris"]
    mask = y > 0                                            # versicolor against virginica: not separable
    X2, y2 = X[mask], y[mask]
    C = 0.05
    ours = MulticlassSVM(C=C, fit_intercept=False, max_iter=4000).fit(X2, y2)
    binary = LinearSVC(loss="hinge", C=2 * C, fit_intercept=False, tol=1e-10, max_iter=100000).fit(X2, y2)
    v = ours.coef_[1] - ours.coef_[0]
    np.testing.assert_allclose(v, binary.coef_[0], atol=5e-3)
    np.testing.assert_allclose(ours.coef_[1], -ours.coef_[0], atol=5e-3)     # w_1 = -w_0 = v / 2 at the optimum
    np.testing.assert_allclose(ours.decision_function(X2), X2 @ v, rtol=1e-12)


def test_decision_function_and_predict_are_consistent():
    X, y = DATA["iris"]
    labels = np.array(["setosa", "versicolor", "virginica"])[y]
    model = MulticlassSVM(C=0.1, max_iter=300).fit(X, labels)
    S = model.decision_function(X)
    assert S.shape == (150, 3)
    np.testing.assert_array_equal(model.predict(X), model.classes_[S.argmax(axis=1)])
    np.testing.assert_allclose(S, X @ model.coef_.T + model.intercept_)
    assert model.score(X, labels) > 0.9


@pytest.mark.parametrize("bad, match", [(dict(y=np.array([0, 1, 5])), "class indices"),
                                        (dict(y=np.array([0.0, 1.0, 1.0])), "integer array"),
                                        (dict(n_classes=0), "n_classes"),
                                        (dict(X=np.array([[0.0], [np.nan], [1.0]])), "NaN")])
def test_multivector_feature_rejects_bad_input(bad, match):
    args = dict(X=np.ones((3, 1)), y=np.array([0, 1, 1]), n_classes=2)
    args.update(bad)
    with pytest.raises(ValueError, match=match):
        multivector_feature(args["X"], args["y"], args["n_classes"])


def test_bad_input_is_rejected():
    X, y = DATA["iris"]
    with pytest.raises(ValueError, match="C must be > 0"):
        MulticlassSVM(C=0).fit(X, y)
    with pytest.raises(ValueError, match="max_iter"):
        MulticlassSVM(max_iter=0).fit(X, y)
    with pytest.raises(ValueError, match="at least 2 classes"):
        MulticlassSVM().fit(X, np.zeros(len(y)))
    with pytest.raises(ValueError, match="solver must be"):
        MulticlassSVM(solver="newton").fit(X, y)
    with pytest.raises(ValueError, match="tol"):
        MulticlassSVM(tol=0.0).fit(X, y)
    with pytest.raises(ValueError, match="n_classes \\* n_features"):
        multiclass_hinge_objective(np.ones(5), X, y, 1.0)
    with pytest.raises(ValueError, match="C must be > 0"):
        multiclass_hinge_subgradient(np.ones(12), X, y, -1.0)


@pytest.fixture(scope="module")
def digits_reference():
    """Unscaled digits (features 0..16) and the Crammer-Singer minimum at C = 1, found independently by
    liblinear's dual solver (scikit-learn's LinearSVC) run to a tight tolerance."""
    from sklearn.datasets import load_digits
    import warnings

    X, y = load_digits(return_X_y=True)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")                  # liblinear may say it hit max_iter: the value is what counts
        ref = LinearSVC(multi_class="crammer_singer", C=1.0, tol=1e-6, max_iter=100000).fit(X, y)
    Xt = np.column_stack([X, np.ones(len(y))])
    f_ref = multiclass_hinge_objective(np.column_stack([ref.coef_, ref.intercept_]).ravel(), Xt, y, 1.0)
    return X, y, f_ref


def test_converges_on_unscaled_digits(digits_reference):
    # issue 11: on the unscaled digits subgradient descent returned the all-zero model (accuracy 0.099)
    import time
    import warnings
    from sklearn.exceptions import ConvergenceWarning

    X, y, f_ref = digits_reference
    start = time.perf_counter()
    with warnings.catch_warnings():
        warnings.simplefilter("error", ConvergenceWarning)
        model = MulticlassSVM().fit(X, y)
    elapsed = time.perf_counter() - start
    Xt = np.column_stack([X, np.ones(len(y))])
    f = multiclass_hinge_objective(np.column_stack([model.coef_, model.intercept_]).ravel(), Xt, y, 1.0)
    assert model.objective_ == pytest.approx(f, rel=1e-12)
    assert abs(f - f_ref) <= 1e-3 * f_ref                 # liblinear's value is within 1e-5 of the minimum
    assert model.score(X, y) >= 0.99
    # the certificate: 0 <= gap and F(w) - F* <= gap <= tol F(w)
    assert 0 <= model.duality_gap_ <= model.tol * model.objective_
    assert elapsed < 20                                     # measured about 1 s alone; generous on a shared machine


def test_duality_gap_is_a_dual_bound():
    from sklearn.exceptions import ConvergenceWarning

    # the reported gap is F(w) - D(alpha) for a dual-feasible alpha: D(alpha) <= F(v) for every v
    X, y = DATA["wine"]
    with pytest.warns(ConvergenceWarning):
        model = MulticlassSVM(C=0.05, max_iter=4).fit(X, y)
    lower = model.objective_ - model.duality_gap_
    best = MulticlassSVM(C=0.05, tol=1e-10).fit(X, y)
    assert lower <= best.objective_ + 1e-9
    assert model.duality_gap_ > best.duality_gap_


def test_unmet_stopping_criterion_is_reported():
    from sklearn.datasets import load_digits
    from sklearn.exceptions import ConvergenceWarning

    X, y = load_digits(return_X_y=True)
    with pytest.warns(ConvergenceWarning, match="duality gap"):
        model = MulticlassSVM(max_iter=3).fit(X, y)
    assert model.n_iter_ == 3
    assert model.duality_gap_ > model.tol * model.objective_


def test_subgradient_solver_reports_no_progress_on_unscaled_data():
    # the subgradient solver of chapter 8 stays available; with the step 1/t it cannot move on the unscaled digits
    from sklearn.datasets import load_digits
    from sklearn.exceptions import ConvergenceWarning

    X, y = load_digits(return_X_y=True)
    with pytest.warns(ConvergenceWarning, match="no progress from w = 0"):
        MulticlassSVM(solver="subgradient", max_iter=50).fit(X, y)


def test_sample_weight_weights_the_hinge_losses_as_linear_svc():
    from sklearn.datasets import load_iris
    from sklearn.preprocessing import StandardScaler

    X, y = load_iris(return_X_y=True)
    X = StandardScaler().fit_transform(X)
    s = np.random.default_rng(0).uniform(0.2, 2.0, size=len(y))
    model = MulticlassSVM(C=0.05, max_iter=3000).fit(X, y, sample_weight=s)
    W = np.column_stack([model.coef_, model.intercept_])
    Xt = np.column_stack([X, np.ones(len(X))])
    # the weighted objective is the objective with C_i = C s_i; weight 2 = the sample twice
    assert model.objective_ == pytest.approx(0.5 * np.sum(W * W) + 0.05 * s @ _losses(W, Xt, y), rel=1e-12)
    ref = LinearSVC(multi_class="crammer_singer", C=0.05, tol=1e-10, max_iter=100000).fit(X, y, sample_weight=s)
    Wr = np.column_stack([ref.coef_, ref.intercept_])
    assert model.objective_ <= (0.5 * np.sum(Wr * Wr) + 0.05 * s @ _losses(Wr, Xt, y)) * (1 + 1e-3)


def _losses(W, Xt, y):
    S = Xt @ W.T
    margins = 1 + S - S[np.arange(len(y)), y][:, None]
    margins[np.arange(len(y)), y] = 0
    return margins.max(axis=1)
