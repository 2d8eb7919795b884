"""Part IV estimators without a pair elsewhere: SVR, LinearSVM and KernelNearestCentroid (read by tools/benchmark.py).

``tools/bench_svm.py`` times SVC, ``tools/bench_gp.py`` the Gaussian process and ``tools/benchmark.py`` the
kernel estimators of chapter 16; this module adds the rest of Part IV as :class:`benchmark.Pair` entries::

    .venv/bin/python tools/benchmark.py --only "SVR"        # or LinearSVM, KernelNearestCentroid

SVR and the nearest centroid have no ``coef_`` that is unique or comparable, so there the table's "coef"
column compares the *predictions* on the training data; LinearSVM and the linear SVC compare ``coef_`` and
``intercept_``. The "objective" column is the value of the problem both sides solve:

- ``SVR(rbf, C=1, epsilon=0.1)`` against ``sklearn.svm.SVR`` at ``tol=1e-6``: the primal objective
  ``1/2 a^T K a + C sum max(0, |y - f| - epsilon)`` of the fitted dual coefficients ``a`` (the dual
  coefficients themselves may be non-unique);
- ``LinearSVM(C=1)`` (the primal by subgradient descent, intercept not penalised) against
  ``sklearn.svm.SVC(kernel="linear")``, which solves the same problem exactly: the objective
  ``1/2 ||w||^2 + C sum hinge``; a subgradient method reaches it only slowly, so this row reports how far
  from the optimum ``max_iter`` iterations end, not parity;
- ``KernelNearestCentroid(kernel="linear")`` against ``sklearn.neighbors.NearestCentroid``: the same
  classifier (Euclidean distance to the class means), so the predictions agree exactly. Its time is not
  comparable: the kernel form needs the n x n kernel matrix for the centroids' norms (O(n^2 d)), where
  scikit-learn averages the samples (O(n d)); it is listed for completeness.
"""

import numpy as np

from benchmark import Pair, make_classification_data

SVR_PARAMS = dict(C=1.0, epsilon=0.1, kernel="rbf", gamma=0.05, tol=1e-6)


def _on_training_data(cls, output, has_intercept=False):
    """``cls`` that remembers its training ``X`` and exposes ``coef_ = output(est, X)`` (its predictions), and
    ``intercept_ = 0`` unless it has its own (``has_intercept``), for the table's coefficient columns."""

    def fit(self, X, y):
        self.X_bench_ = np.asarray(X)
        return cls.fit(self, X, y)

    members = {"fit": fit, "coef_": property(lambda est: output(est, est.X_bench_))}
    if not has_intercept:
        members["intercept_"] = property(lambda est: 0.0)
    return type(cls.__name__, (cls,), members)


def make_regression_data(n, d, seed=0):
    """A smooth nonlinear target with noise (for SVR)."""
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((n, d))
    return X, np.sin(X[:, 0]) + 0.5 * X[:, 1] ** 2 + 0.1 * rng.standard_normal(n)


def svr_primal_objective(est, X, y):
    """``1/2 a^T K a + C sum_i max(0, |y_i - f(x_i)| - epsilon)`` of a fitted SVR (either library's)."""
    from mlnotes.kernels import rbf_kernel

    a = np.ravel(est.dual_coef_)
    K = rbf_kernel(est.support_vectors_, gamma=SVR_PARAMS["gamma"])
    slack = np.maximum(0.0, np.abs(y - est.predict(X)) - SVR_PARAMS["epsilon"])
    return float(0.5 * a @ K @ a + SVR_PARAMS["C"] * slack.sum())


def hinge_objective(est, X, y):
    """``1/2 ||w||^2 + C sum_i max(0, 1 - s_i f(x_i))`` with labels ``s_i`` in {-1, +1}, C = 1."""
    w = np.ravel(est.coef_)
    s = np.where(y == est.classes_[1], 1.0, -1.0)
    return float(0.5 * w @ w + np.maximum(0.0, 1.0 - s * est.decision_function(X)).sum())


def _svr_pair():
    from sklearn.svm import SVR as SkSVR

    from mlnotes.svm import SVR

    predict = lambda est, X: est.predict(X)
    return Pair("SVR(rbf, C=1, eps=0.1, gamma=0.05, tol=1e-6)", lambda: _on_training_data(SVR, predict, True)(**SVR_PARAMS),
                lambda: _on_training_data(SkSVR, predict, True)(**SVR_PARAMS), svr_primal_objective, n=3_000, d=10,
                data=make_regression_data)


def _linear_svm_pair():
    from sklearn.svm import SVC as SkSVC

    from mlnotes.svm import LinearSVM

    return Pair("LinearSVM(C=1, 1000 subgradient steps) vs SVC(linear)", lambda: LinearSVM(C=1.0),
                lambda: SkSVC(kernel="linear", C=1.0, tol=1e-6), hinge_objective, n=2_000, d=20,
                data=make_classification_data)


def _nearest_centroid_pair():
    from sklearn.neighbors import NearestCentroid

    from mlnotes.kernels import KernelNearestCentroid

    predict = lambda est, X: est.predict(X).astype(float)
    return Pair("KernelNearestCentroid(linear) vs NearestCentroid", lambda: _on_training_data(
        KernelNearestCentroid, predict)(kernel="linear"), lambda: _on_training_data(NearestCentroid, predict)(),
        lambda est, X, y: float(np.mean(est.predict(X) != y)), n=5_000, d=20, data=make_classification_data)


PAIRS = [_svr_pair(), _linear_svm_pair(), _nearest_centroid_pair()]
