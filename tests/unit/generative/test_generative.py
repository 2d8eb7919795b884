"""LDA, QDA, Gaussian and categorical naive Bayes: predictions, probabilities and scores agree with scikit-learn
to 1e-6 or better; the MLE of a Gaussian; the linear boundary of LDA; missing features (marginal posterior,
conditional-mean imputation); clear errors."""

import numpy as np
import pytest
import sklearn.discriminant_analysis as da
import sklearn.naive_bayes as nb
from scipy.special import logsumexp
from scipy.stats import multivariate_normal
from sklearn.datasets import load_breast_cancer, load_iris, load_wine
from sklearn.exceptions import NotFittedError

from mlnotes.datasets import make_gaussian_classes
from mlnotes.generative import (CategoricalNB, GaussianNB, LinearDiscriminantAnalysis, QuadraticDiscriminantAnalysis,
                                class_gaussians, gaussian_mle, impute_conditional_mean, marginal_log_posterior)
from mlnotes.stats import gaussian_condition

DATA = {name: loader(return_X_y=True) for name, loader in
        [("iris", load_iris), ("wine", load_wine), ("breast cancer", load_breast_cancer)]}
PAIRS = {
    "LDA": (LinearDiscriminantAnalysis, da.LinearDiscriminantAnalysis, {}),
    "LDA(priors)": (LinearDiscriminantAnalysis, da.LinearDiscriminantAnalysis, {"priors": "uniform"}),
    "QDA(reg_param=0.2)": (QuadraticDiscriminantAnalysis, da.QuadraticDiscriminantAnalysis, {"reg_param": 0.2}),
    "GaussianNB": (GaussianNB, nb.GaussianNB, {}),
    "GaussianNB(var_smoothing=1e-3)": (GaussianNB, nb.GaussianNB, {"var_smoothing": 1e-3}),
}


@pytest.mark.parametrize("pair", PAIRS)
@pytest.mark.parametrize("data", DATA)
def test_agrees_with_sklearn(pair, data):
    ours_cls, ref_cls, params = PAIRS[pair]
    X, y = DATA[data]
    if params.get("priors") == "uniform":
        params = {"priors": np.full(len(np.unique(y)), 1 / len(np.unique(y)))}
    ours, ref = ours_cls(**params).fit(X, y), ref_cls(**params).fit(X, y)
    np.testing.assert_allclose(ours.predict_proba(X), ref.predict_proba(X), atol=1e-9)
    np.testing.assert_allclose(ours.predict_log_proba(X), ref.predict_log_proba(X), atol=1e-6, rtol=1e-9)
    np.testing.assert_array_equal(ours.predict(X), ref.predict(X))
    if hasattr(ref, "decision_function"):
        np.testing.assert_allclose(ours.decision_function(X), ref.decision_function(X), rtol=1e-8, atol=1e-6)


def test_qda_without_regularisation_agrees_where_covariances_are_full_rank():
    X, y = DATA["iris"]
    ours, ref = QuadraticDiscriminantAnalysis().fit(X, y), da.QuadraticDiscriminantAnalysis().fit(X, y)
    np.testing.assert_allclose(ours.predict_proba(X), ref.predict_proba(X), atol=1e-9)


def test_lda_boundary_is_linear_and_qda_needs_the_log_determinant():
    rng = np.random.default_rng(0)
    X = np.vstack([rng.normal(size=(200, 2)), 3 * rng.normal(size=(200, 2)) + [1.0, 0.0]])
    y = np.repeat([0, 1], 200)
    lda = LinearDiscriminantAnalysis().fit(X, y)
    # the LDA score difference is affine in x: its value at a midpoint is the mean of the values
    a, b = rng.normal(size=(2, 5, 2))
    f = lda.decision_function
    np.testing.assert_allclose(f((a + b) / 2), (f(a) + f(b)) / 2, atol=1e-12)
    qda = QuadraticDiscriminantAnalysis().fit(X, y)
    # dropping -1/2 log det Sigma_k changes the classifier: the wide class loses points it should win
    without_logdet = qda.decision_function(X) + 0.5 * np.diff([np.linalg.slogdet(S)[1] for S in qda.covariance_])
    assert (np.sign(without_logdet) != np.sign(qda.decision_function(X))).any()
    assert qda.score(X, y) > (np.where(without_logdet > 0, 1, 0) == y).mean()


@pytest.mark.parametrize("covariance_type", ["full", "diag", "spherical"])
def test_gaussian_mle_maximises_the_likelihood(covariance_type):
    from scipy.stats import multivariate_normal

    rng = np.random.default_rng(1)
    X = rng.multivariate_normal([1.0, -1.0, 0.5], [[2.0, 0.5, 0.0], [0.5, 1.0, 0.3], [0.0, 0.3, 0.5]], size=300)
    mean, cov = gaussian_mle(X, covariance_type)
    best = multivariate_normal(mean, cov).logpdf(X).sum()
    for _ in range(20):   # perturbations within the family never do better
        dm = 0.05 * rng.normal(size=3)
        scale = np.exp(0.05 * rng.normal(size=3))
        if covariance_type == "full":
            A = np.eye(3) + 0.05 * rng.normal(size=(3, 3))
            cov2 = A @ cov @ A.T
        elif covariance_type == "diag":
            cov2 = np.diag(np.diag(cov) * scale)
        else:
            cov2 = cov * scale[0]
        assert multivariate_normal(mean + dm, cov2).logpdf(X).sum() <= best
    if covariance_type == "full":
        np.testing.assert_allclose(cov, np.cov(X, rowvar=False, bias=True))


@pytest.mark.parametrize("covariance_type", ["full", "diag", "spherical"])
def test_gaussian_mle_refuses_a_singular_estimate_unless_allowed(covariance_type):
    rng = np.random.default_rng(2)
    X = rng.normal(size=(30, 4))
    singular = {"full": [X[:4], np.column_stack([X[:, :3], X[:, 0] - 2 * X[:, 1]]), np.column_stack([X[:, :3], np.full(30, 2.5)])],
                "diag": [np.column_stack([X[:, :3], np.full(30, 2.5)]), X[:1]],
                "spherical": [np.tile(X[:1], (5, 1)), X[:1]]}[covariance_type]
    for Xs in singular:
        with pytest.raises(ValueError, match="does not exist.*allow_singular=True"):
            gaussian_mle(Xs, covariance_type)
        mean, cov = gaussian_mle(Xs, covariance_type, allow_singular=True)
        Xc = Xs - Xs.mean(axis=0)
        full = Xc.T @ Xc / len(Xs)
        expected = {"full": full, "diag": np.diag(np.diag(full)), "spherical": np.trace(full) / 4 * np.eye(4)}
        np.testing.assert_allclose(mean, Xs.mean(axis=0), rtol=1e-12)
        np.testing.assert_allclose(cov, expected[covariance_type], rtol=1e-12, atol=1e-15)
        if covariance_type != "spherical":
            assert np.linalg.eigvalsh(cov).min() <= 1e-12 * np.abs(cov).max()       # singular indeed
    # a constant feature does not make the spherical estimate singular; enough samples make full ones regular
    gaussian_mle(np.column_stack([X[:, :3], np.full(30, 2.5)]), "spherical")
    assert np.linalg.eigvalsh(gaussian_mle(X[:5], covariance_type)[1]).min() > 0


def test_qda_tol_is_an_absolute_threshold_as_in_sklearn():
    X, y = DATA["iris"]
    small = 1e-3 * X                                          # the same data in other units
    with pytest.raises(ValueError, match=r"an eigenvalue is <= tol = 0.0001"):
        QuadraticDiscriminantAnalysis().fit(small, y)
    import scipy.linalg
    with pytest.raises(scipy.linalg.LinAlgError):
        da.QuadraticDiscriminantAnalysis().fit(small, y)     # scikit-learn refuses it too
    ours = QuadraticDiscriminantAnalysis(tol=1e-10).fit(small, y)
    ref = da.QuadraticDiscriminantAnalysis(tol=1e-10).fit(small, y)
    np.testing.assert_allclose(ours.predict_proba(small), ref.predict_proba(small), atol=1e-9)
    # scaling tol with the squared units gives the same classifier
    np.testing.assert_allclose(ours.predict_proba(small), QuadraticDiscriminantAnalysis().fit(X, y).predict_proba(X),
                               atol=1e-9)
    with pytest.raises(ValueError, match="tol"):
        QuadraticDiscriminantAnalysis(tol=-1.0).fit(X, y)


@pytest.mark.parametrize("cls", [LinearDiscriminantAnalysis, QuadraticDiscriminantAnalysis, GaussianNB])
def test_a_zero_prior_is_refused(cls):
    X, y = DATA["iris"]
    with pytest.raises(ValueError, match="positive numbers summing to 1 .*prior 0"):
        cls(priors=[0.5, 0.5, 0.0]).fit(X, y)
    with pytest.raises(ValueError, match="positive numbers"):
        cls(priors=[np.nan, 0.5, 0.5]).fit(X, y)


def test_class_moments_are_those_of_gaussian_mle():
    X, y = DATA["wine"]
    lda = LinearDiscriminantAnalysis().fit(X, y)
    qda = QuadraticDiscriminantAnalysis().fit(X, y)
    gnb = GaussianNB(var_smoothing=0.0).fit(X, y)
    for k in range(3):
        mean, cov = gaussian_mle(X[y == k])
        for means in (lda.means_, qda.means_, gnb.theta_):
            np.testing.assert_allclose(means[k], mean, rtol=1e-12)
        np.testing.assert_allclose(qda.covariance_[k], cov, rtol=1e-12)
        np.testing.assert_allclose(gnb.var_[k], np.diag(gaussian_mle(X[y == k], "diag")[1]), rtol=1e-12)
    residuals = X - lda.means_[y]
    np.testing.assert_allclose(lda.covariance_, residuals.T @ residuals / len(X), rtol=1e-10)   # pooled
    assert lda.rank_ == X.shape[1]


def test_bad_input_is_rejected():
    X, y = DATA["iris"]
    for cls in (LinearDiscriminantAnalysis, QuadraticDiscriminantAnalysis, GaussianNB):
        with pytest.raises(ValueError, match="only one class"):
            cls().fit(X, np.zeros(len(y)))
        with pytest.raises(ValueError, match="NaN"):
            cls().fit(np.where(X > 5, np.nan, X), y)
        with pytest.raises(ValueError, match="priors must be"):
            cls(priors=[0.5, 0.6, -0.1]).fit(X, y)
    with pytest.raises(ValueError, match="singular"):
        QuadraticDiscriminantAnalysis().fit(*DATA["breast cancer"])
    with pytest.raises(ValueError, match="covariance_type"):
        gaussian_mle(X, "tied")
    with pytest.raises(ValueError, match="reg_param"):
        QuadraticDiscriminantAnalysis(reg_param=2.0).fit(X, y)


# ---------------------------------------------------------------------------------------------
# categorical naive Bayes
# ---------------------------------------------------------------------------------------------

def _discretise(X, bins=3):
    """Quantile bins per feature: integer codes 0..bins-1."""
    edges = np.quantile(X, np.linspace(0, 1, bins + 1)[1:-1], axis=0)
    return np.column_stack([np.searchsorted(edges[:, j], X[:, j]) for j in range(X.shape[1])])


def _random_categorical(seed, n=120, d=4, K=3):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, K, size=n)
    V = rng.integers(2, 6, size=d)
    X = np.column_stack([(rng.integers(0, V[j], size=n) + y) % V[j] for j in range(d)])
    return X, y


CATEGORICAL_DATA = {"iris (3 bins)": (_discretise(DATA["iris"][0]), DATA["iris"][1]),
                    "wine (4 bins)": (_discretise(DATA["wine"][0], 4), DATA["wine"][1]),
                    "random, seed 0": _random_categorical(0), "random, seed 1": _random_categorical(1, n=30, d=1, K=2)}


@pytest.mark.parametrize("params", [{}, {"alpha": 0.5}, {"alpha": 0.0}, {"fit_prior": False},
                                    {"class_prior": "uniform"}, {"min_categories": 7}])
@pytest.mark.parametrize("data", CATEGORICAL_DATA)
def test_categorical_nb_agrees_with_sklearn(data, params):
    X, y = CATEGORICAL_DATA[data]
    if params.get("class_prior") == "uniform":
        params = {"class_prior": np.full(len(np.unique(y)), 1 / len(np.unique(y)))}
    ours = CategoricalNB(**params).fit(X, y)
    with np.errstate(divide="ignore"):
        ref = nb.CategoricalNB(**params).fit(X, y)
    np.testing.assert_allclose(ours.predict_proba(X), ref.predict_proba(X), atol=1e-12)
    np.testing.assert_array_equal(ours.predict(X), ref.predict(X))
    np.testing.assert_array_equal(ours.n_categories_, ref.n_categories_)
    for ours_log, ref_log in zip(ours.feature_log_prob_, ref.feature_log_prob_):
        np.testing.assert_allclose(ours_log, ref_log, rtol=1e-12)
    np.testing.assert_allclose(ours.class_log_prior_, ref.class_log_prior_, rtol=1e-12)


def test_categorical_nb_estimates_are_smoothed_frequencies():
    X, y = _random_categorical(2)
    for alpha in (0.0, 1.0, 2.5):
        model = CategoricalNB(alpha=alpha).fit(X, y)
        for j, log_theta in enumerate(model.feature_log_prob_):
            theta = np.exp(log_theta)
            np.testing.assert_allclose(theta.sum(axis=1), 1.0, rtol=1e-12)      # a distribution per class
            for k in range(3):
                values = X[y == k, j]
                counts = np.array([(values == v).sum() for v in range(theta.shape[1])])
                np.testing.assert_allclose(theta[k], (counts + alpha) / (len(values) + alpha * theta.shape[1]))


def test_categorical_nb_api_contract():
    from sklearn.base import clone
    from sklearn.model_selection import cross_val_score

    X, y = CATEGORICAL_DATA["iris (3 bins)"]
    model = CategoricalNB(alpha=0.3)
    assert clone(model).get_params()["alpha"] == 0.3
    scores = cross_val_score(model, X, y, cv=3)
    assert scores.shape == (3,) and (scores > 0.6).all()


def test_categorical_nb_bad_input():
    X, y = CATEGORICAL_DATA["iris (3 bins)"]
    with pytest.raises(ValueError, match="non-negative integers"):
        CategoricalNB().fit(X + 0.5, y)
    with pytest.raises(ValueError, match="non-negative integers"):
        CategoricalNB().fit(X - 1, y)
    model = CategoricalNB().fit(X, y)
    with pytest.raises(ValueError, match="only 3 categories"):
        model.predict(X + 1)
    with pytest.raises(ValueError, match="alpha"):
        CategoricalNB(alpha=-1.0).fit(X, y)
    with pytest.raises(ValueError, match="min_categories"):
        CategoricalNB(min_categories=[2, 3]).fit(X, y)
    with pytest.raises(ValueError, match="only one class"):
        CategoricalNB().fit(X, np.zeros(len(y)))
    with pytest.raises(ValueError, match="priors must be"):
        CategoricalNB(class_prior=[0.5, 0.5]).fit(X, y)
    with pytest.raises(ValueError, match="positive numbers"):
        CategoricalNB(class_prior=[0.5, 0.5, 0.0]).fit(X, y)
    # without smoothing, a value seen with no class has probability 0 under every class
    X2, y2 = np.array([[0], [1], [0], [1]]), np.array([0, 0, 1, 1])
    with pytest.raises(ValueError, match="probability 0 under every class"):
        CategoricalNB(alpha=0.0, min_categories=3).fit(X2, y2).predict([[2]])


# ---------------------------------------------------------------------------------------------
# missing features: marginalise, impute
# ---------------------------------------------------------------------------------------------

GAUSSIAN_MODELS = {"LDA": lambda: LinearDiscriminantAnalysis(), "QDA": lambda: QuadraticDiscriminantAnalysis(),
                   "QDA(reg_param=0.3)": lambda: QuadraticDiscriminantAnalysis(reg_param=0.3),
                   "GaussianNB": lambda: GaussianNB(var_smoothing=0.0)}


def _with_holes(X, seed, fraction=0.3):
    """A copy of X with a random fraction of its entries set to NaN (each row keeps one entry at least)."""
    rng = np.random.default_rng(seed)
    holes = rng.random(X.shape) < fraction
    holes[np.arange(len(X)), rng.integers(0, X.shape[1], size=len(X))] = False
    return np.where(holes, np.nan, X)


@pytest.mark.parametrize("name", GAUSSIAN_MODELS)
def test_class_gaussians_reproduce_the_posterior(name):
    X, y = DATA["wine"]
    model = GAUSSIAN_MODELS[name]().fit(X, y)
    priors, means, covariances = class_gaussians(model)
    assert priors.shape == (3,) and means.shape == (3, 13) and covariances.shape == (3, 13, 13)
    joint = np.log(priors) + np.column_stack([multivariate_normal(m, S).logpdf(X) for m, S in zip(means, covariances)])
    np.testing.assert_allclose(joint - logsumexp(joint, axis=1, keepdims=True), model.predict_log_proba(X),
                               atol=1e-7)


@pytest.mark.parametrize("name", GAUSSIAN_MODELS)
def test_marginal_posterior_of_complete_data_is_the_posterior(name):
    X, y = DATA["iris"]
    model = GAUSSIAN_MODELS[name]().fit(X, y)
    np.testing.assert_allclose(marginal_log_posterior(model, X), model.predict_log_proba(X), atol=1e-9)


@pytest.mark.parametrize("name", GAUSSIAN_MODELS)
@pytest.mark.parametrize("observed", [[0], [1, 3], [0, 2, 3]])
def test_marginalising_equals_refitting_on_the_observed_features(name, observed):
    # the maximum-likelihood fit on a subset of the features is the marginal of the full fit
    X, y = DATA["iris"]
    full = GAUSSIAN_MODELS[name]().fit(X, y)
    sub = GAUSSIAN_MODELS[name]().fit(X[:, observed], y)
    X_missing = np.full_like(X, np.nan)
    X_missing[:, observed] = X[:, observed]
    np.testing.assert_allclose(marginal_log_posterior(full, X_missing), sub.predict_log_proba(X[:, observed]),
                               atol=1e-8)


def test_marginal_density_is_the_integral_over_the_missing_feature():
    from scipy.integrate import quad

    rng = np.random.default_rng(3)
    X = np.vstack([rng.multivariate_normal([0, 0], [[1.0, 0.8], [0.8, 1.0]], 60),
                   rng.multivariate_normal([1.5, -1], [[2.0, -0.5], [-0.5, 0.7]], 40)])
    y = np.repeat([0, 1], [60, 40])
    qda = QuadraticDiscriminantAnalysis().fit(X, y)
    for x1 in rng.normal(size=4):
        joint = [p * quad(lambda x2: multivariate_normal(m, S).pdf([x1, x2]), -np.inf, np.inf, epsabs=1e-13)[0]
                 for p, m, S in zip(qda.priors_, qda.means_, qda.covariance_)]
        posterior = np.exp(marginal_log_posterior(qda, [[x1, np.nan]]))[0]
        np.testing.assert_allclose(posterior, np.array(joint) / sum(joint), rtol=1e-8)


def test_categorical_marginal_drops_the_missing_factors():
    X, y = CATEGORICAL_DATA["wine (4 bins)"]
    full = CategoricalNB().fit(X, y)
    observed = [0, 5, 9]
    X_missing = np.full(X.shape, np.nan)
    X_missing[:, observed] = X[:, observed]
    sub = CategoricalNB().fit(X[:, observed], y)
    np.testing.assert_allclose(marginal_log_posterior(full, X_missing), sub.predict_log_proba(X[:, observed]),
                               atol=1e-12)
    np.testing.assert_allclose(marginal_log_posterior(full, X), full.predict_log_proba(X), atol=1e-12)


@pytest.mark.parametrize("name", GAUSSIAN_MODELS)
def test_posterior_with_missing_features(name):
    X, y = DATA["wine"]
    model = GAUSSIAN_MODELS[name]().fit(X, y)
    X_missing = _with_holes(X[::3], seed=4)
    X_missing[0] = np.nan                                 # nothing observed: the prior
    log_post = marginal_log_posterior(model, X_missing)
    np.testing.assert_allclose(np.exp(log_post).sum(axis=1), 1.0, rtol=1e-12)
    np.testing.assert_allclose(np.exp(log_post[0]), class_gaussians(model)[0], rtol=1e-12)
    # rows with the same pattern agree with a row-by-row evaluation
    for i in range(1, 6):
        o = ~np.isnan(X_missing[i])
        priors, means, covariances = class_gaussians(model)
        joint = np.log(priors) + [multivariate_normal(m[o], S[np.ix_(o, o)]).logpdf(X_missing[i, o])
                                  for m, S in zip(means, covariances)]
        np.testing.assert_allclose(log_post[i], joint - logsumexp(joint), atol=1e-9)


@pytest.mark.parametrize("name", GAUSSIAN_MODELS)
def test_imputation_is_the_conditional_mean(name):
    X, y = DATA["wine"]
    model = GAUSSIAN_MODELS[name]().fit(X, y)
    X, y = X[::3], y[::3]                                 # a third of the samples lose entries
    X_missing = _with_holes(X, seed=5)
    for labels in (None, y):
        X_hat = impute_conditional_mean(model, X_missing, labels)
        holes = np.isnan(X_missing)
        np.testing.assert_array_equal(X_hat[~holes], X[~holes])              # observed entries untouched
        assert np.isfinite(X_hat).all()
        k = (np.argmax(marginal_log_posterior(model, X_missing), axis=1) if labels is None
             else np.searchsorted(model.classes_, labels))
        _, means, covariances = class_gaussians(model)
        for i in np.flatnonzero(holes.any(axis=1))[:10]:
            o, m = ~holes[i], holes[i]
            # the mean of mlnotes.stats.gaussian_condition (chapter 3)
            mean_cond, _ = gaussian_condition(means[k[i]], covariances[k[i]], np.flatnonzero(o), X[i, o])
            np.testing.assert_allclose(X_hat[i, m], mean_cond, rtol=1e-9, atol=1e-9)
            # it maximises the class density over the missing entries: the gradient Sigma^{-1}(x - mu) of the
            # log-density vanishes in those coordinates
            grad = np.linalg.solve(covariances[k[i]], X_hat[i] - means[k[i]])
            np.testing.assert_allclose(grad[m], 0.0, atol=1e-7)


def test_lda_imputation_with_the_predicted_class_only_increases_confidence():
    # classify, then impute with that class: under a shared covariance the completed point is classified
    # the same way, with a log-odds larger by (1/2) Delta^T Sigma_{m|o}^{-1} Delta >= 0
    X, y = DATA["wine"]
    lda = LinearDiscriminantAnalysis().fit(X, y)
    X_missing = _with_holes(X[::2], seed=6, fraction=0.5)
    marginal = marginal_log_posterior(lda, X_missing)
    completed = lda.predict_log_proba(impute_conditional_mean(lda, X_missing))
    np.testing.assert_array_equal(completed.argmax(axis=1), marginal.argmax(axis=1))
    assert (completed.max(axis=1) >= marginal.max(axis=1) - 1e-9).all()
    assert (completed.max(axis=1) > marginal.max(axis=1) + 1e-3).any()


def test_lda_with_collinear_features_is_refused_by_the_missing_data_functions():
    # LDA drops the directions of (nearly) collinear features and predicts with a pseudo-inverse; the marginals
    # of its Gaussians would then not match its predictions, so both functions refuse it with a clear error
    X, y = DATA["iris"]
    rng = np.random.default_rng(7)
    for noise in (1e-5, 0.0):
        X5 = np.column_stack([X, X[:, 0] + X[:, 1] + noise * rng.normal(size=len(X))])
        lda = LinearDiscriminantAnalysis().fit(X5, y)
        assert lda.rank_ == 4
        np.testing.assert_allclose(lda.predict_proba(X5), da.LinearDiscriminantAnalysis().fit(X5, y).predict_proba(X5),
                                   atol=1e-9)
        for call in (lambda: marginal_log_posterior(lda, X5), lambda: impute_conditional_mean(lda, _with_holes(X5, 0)),
                     lambda: impute_conditional_mean(lda, _with_holes(X5, 0), y)):
            with pytest.raises(ValueError, match=r"LinearDiscriminantAnalysis\(tol=0.0001\) dropped 1 of the 5"):
                call()
    # with a smaller tol nothing is dropped, and the guarantee holds again
    X5 = np.column_stack([X, X[:, 0] + X[:, 1] + 1e-3 * rng.normal(size=len(X))])
    lda = LinearDiscriminantAnalysis(tol=1e-8).fit(X5, y)
    assert lda.rank_ == 5
    np.testing.assert_allclose(marginal_log_posterior(lda, X5), lda.predict_log_proba(X5), atol=1e-6)


def test_imputation_groups_rows_by_pattern_and_class():
    X, y = DATA["wine"]
    qda = QuadraticDiscriminantAnalysis(reg_param=0.1).fit(X, y)
    np.testing.assert_array_equal(impute_conditional_mean(qda, X), X)           # nothing missing: unchanged
    # one pattern, the three classes: each row is completed with the conditional of its own class
    X_missing = X[::10].copy()
    X_missing[:, [2, 7]] = np.nan
    X_hat = impute_conditional_mean(qda, X_missing, y[::10])
    _, means, covariances = class_gaussians(qda)
    observed = np.setdiff1d(np.arange(13), [2, 7])
    for i, k in enumerate(y[::10]):
        mean_cond, _ = gaussian_condition(means[k], covariances[k], observed, X_missing[i, observed], [2, 7])
        np.testing.assert_allclose(X_hat[i, [2, 7]], mean_cond, rtol=1e-10)


def test_missing_data_bad_input():
    X, y = DATA["iris"]
    lda = LinearDiscriminantAnalysis().fit(X, y)
    with pytest.raises(ValueError, match="infinity"):
        marginal_log_posterior(lda, np.where(X > 7, np.inf, X))
    with pytest.raises(ValueError, match="shape"):
        marginal_log_posterior(lda, X[:, :3])
    with pytest.raises(ValueError, match="no observed feature"):
        impute_conditional_mean(lda, np.full((2, 4), np.nan))
    with pytest.raises(ValueError, match="not a class"):
        impute_conditional_mean(lda, _with_holes(X, 0), np.full(len(y), 7))
    with pytest.raises(TypeError, match="Gaussian model"):
        impute_conditional_mean(CategoricalNB().fit(*CATEGORICAL_DATA["iris (3 bins)"]), X)
    with pytest.raises(TypeError, match="class_gaussians needs"):
        class_gaussians(CategoricalNB())
    with pytest.raises(NotFittedError):
        marginal_log_posterior(QuadraticDiscriminantAnalysis(), X)


# ---------------------------------------------------------------------------------------------
# the chapter's figure and widget
# ---------------------------------------------------------------------------------------------

def test_draw_class_densities_and_demo():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from mlnotes.widgets import draw_class_densities, generative_demo

    X, y = DATA["iris"][0][:, :2], DATA["iris"][1]
    for model in (LinearDiscriminantAnalysis(), QuadraticDiscriminantAnalysis(), GaussianNB()):
        model.fit(X, y)
        fig, ax = plt.subplots()
        n_before = len(ax.collections)
        assert draw_class_densities(ax, model, X, y, compare=LinearDiscriminantAnalysis().fit(X, y)) is ax
        # regions, boundary, 3 points, 3 ellipse sets, 3 mean markers, the compared boundary
        assert len(ax.collections) - n_before >= 12
        plt.close(fig)
    fig, ax = plt.subplots()
    with pytest.raises(ValueError, match="2 features"):
        draw_class_densities(ax, LinearDiscriminantAnalysis().fit(*DATA["iris"]), *DATA["iris"])
    with pytest.raises(ValueError, match="sigma"):
        draw_class_densities(ax, GaussianNB().fit(X, y), X, y, sigmas=(1.0, -1.0))
    with pytest.raises(TypeError, match="class_gaussians needs"):
        draw_class_densities(ax, CategoricalNB().fit(CATEGORICAL_DATA["iris (3 bins)"][0][:, :2], y), X, y)
    plt.close(fig)
    demo = generative_demo(n_samples=30)
    assert [w.description for w in demo.children[:2]] == ["scale of Σ₁", "ρ of Σ₁"]
    plt.close("all")
    with pytest.raises(ValueError, match="n_samples"):
        generative_demo(n_samples=2)


# ---------------------------------------------------------------------------------------------
# the data generator of the chapter
# ---------------------------------------------------------------------------------------------

def test_make_gaussian_classes_draws_the_given_gaussians():
    means = np.array([[0.0, 0.0, 1.0], [2.0, -1.0, 0.0]])
    covariances = np.array([np.eye(3), [[2.0, 0.8, 0.0], [0.8, 1.0, -0.3], [0.0, -0.3, 0.5]]])
    X, y = make_gaussian_classes(means, covariances, [20000, 30000], random_state=1)
    assert X.shape == (50000, 3) and np.array_equal(np.bincount(y), [20000, 30000])
    for k in range(2):
        mean, cov = gaussian_mle(X[y == k])
        np.testing.assert_allclose(mean, means[k], atol=0.05)
        np.testing.assert_allclose(cov, covariances[k], atol=0.05)
    # one shared covariance; a fixed seed: changing class 1 leaves class 0 in place and moves class 1 smoothly
    X1, y1 = make_gaussian_classes(means, covariances[1], 50, random_state=3)
    X2, _ = make_gaussian_classes(means, [covariances[1], 1.01 * covariances[1]], 50, random_state=3)
    np.testing.assert_array_equal(X1[y1 == 0], X2[y1 == 0])
    assert 0 < np.abs(X1[y1 == 1] - X2[y1 == 1]).max() < 0.1
    np.testing.assert_array_equal(make_gaussian_classes(means, covariances, 5, random_state=3)[0],
                                  make_gaussian_classes(means, covariances, 5, random_state=3)[0])


def test_make_gaussian_classes_bad_input():
    means, cov = np.zeros((2, 2)), np.eye(2)
    with pytest.raises(ValueError, match="not positive definite"):
        make_gaussian_classes(means, [cov, np.diag([1.0, 0.0])])
    with pytest.raises(ValueError, match="shape"):
        make_gaussian_classes(means, np.eye(3))
    with pytest.raises(ValueError, match="means must be"):
        make_gaussian_classes([0.0, 1.0], cov)
    for n in (0, 2.5, [10], True):
        with pytest.raises(ValueError, match="n_samples"):
            make_gaussian_classes(means, cov, n)


def test_gaussian_nb_is_finite_at_values_near_1e307():
    # issue 11: NaN probabilities (the squares overflowed)
    X = np.array([[1e307], [2e307], [1.2e307], [-1e307], [-2e307], [-1.5e307]])
    y = np.array([1, 1, 1, 0, 0, 0])
    model = GaussianNB().fit(X, y)
    P = model.predict_proba(X)
    assert np.isfinite(P).all()
    np.testing.assert_array_equal(model.predict(X), y)
    ref = GaussianNB().fit(X / 1e307, y)                     # the same problem in other units
    np.testing.assert_allclose(P, ref.predict_proba(X / 1e307), rtol=1e-9, atol=1e-300)


def test_naive_bayes_sample_weight_agrees_with_sklearn():
    # issue 11: fit had no sample_weight
    X, y = load_wine(return_X_y=True)
    s = np.random.default_rng(0).uniform(0.1, 3.0, size=len(y))
    ours, ref = GaussianNB().fit(X, y, sample_weight=s), nb.GaussianNB().fit(X, y, sample_weight=s)
    np.testing.assert_allclose(ours.theta_, ref.theta_, rtol=1e-10)
    # the variances agree; the smoothing differs by design: var_smoothing times the largest *weighted* variance
    # (scikit-learn takes the unweighted one), so that a weight of 2 is a repeated sample
    np.testing.assert_allclose(ours.var_ - ours.epsilon_, ref.var_ - ref.epsilon_, rtol=1e-8)
    assert ours.epsilon_ == pytest.approx(1e-9 * np.cov(X.T, aweights=s, bias=True).diagonal().max(), rel=1e-10)
    np.testing.assert_allclose(ours.class_prior_, ref.class_prior_, rtol=1e-12)
    ours0 = GaussianNB(var_smoothing=0).fit(X, y, sample_weight=s)
    ref0 = nb.GaussianNB(var_smoothing=0).fit(X, y, sample_weight=s)
    np.testing.assert_allclose(ours0.predict_proba(X), ref0.predict_proba(X), rtol=1e-7, atol=1e-14)
    Xc = np.random.default_rng(1).integers(0, 4, size=(len(y), 5))
    ours, ref = CategoricalNB().fit(Xc, y, sample_weight=s), nb.CategoricalNB().fit(Xc, y, sample_weight=s)
    np.testing.assert_allclose(ours.class_count_, ref.class_count_, rtol=1e-12)
    for a, b in zip(ours.feature_log_prob_, ref.feature_log_prob_):
        np.testing.assert_allclose(a, b, rtol=1e-12)
    np.testing.assert_allclose(ours.predict_proba(Xc), ref.predict_proba(Xc), rtol=1e-10)
    # a weight of 2 is a repeated sample
    twice = np.r_[np.arange(len(y)), np.arange(10)]
    w = np.ones(len(y))
    w[:10] = 2
    np.testing.assert_allclose(GaussianNB().fit(X, y, sample_weight=w).decision_function(X),
                               GaussianNB().fit(X[twice], y[twice]).decision_function(X), rtol=1e-9)


@pytest.mark.parametrize("scale", [1e307, 1e-307])
def test_lda_computes_in_feature_units_at_extreme_scales(scale):
    # issue 11: at values near 1e307 LDA failed with scipy's "array must not contain infs or NaNs"; it is
    # the same classifier in any units, so at both extreme scales it predicts as on the unscaled data
    X, y = load_iris(return_X_y=True)
    reference = LinearDiscriminantAnalysis().fit(X, y)
    model = LinearDiscriminantAnalysis().fit(X * scale, y)
    np.testing.assert_array_equal(model.predict(X * scale), reference.predict(X))
    np.testing.assert_allclose(model.predict_proba(X * scale), reference.predict_proba(X), rtol=1e-8, atol=1e-12)
    np.testing.assert_allclose(model.means_, reference.means_ * scale, rtol=1e-12)


def test_qda_refuses_values_whose_squares_overflow():
    X, y = load_iris(return_X_y=True)
    with pytest.raises(ValueError, match="X has values up to .*sums of squares overflow float64"):
        QuadraticDiscriminantAnalysis().fit(X * 1e307, y)
