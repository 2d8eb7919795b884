"""Fit-time and accuracy benchmark of mlnotes estimators against their scikit-learn counterparts.

A tool, not a test (it lives beside the other tools; no test imports it). Usage::

    .venv/bin/python tools/benchmark.py [--quick] [--only NAME] [--repeats R] [--n N] [--d D] [--threads T] [--check]

For every entry of ``PAIRS`` both estimators are fitted on the same seeded data, alternately
(mlnotes, sklearn, sklearn, mlnotes, ...) so that load from other processes hits both alike, and
one table row reports: the median fit time of each, the median of the per-repeat time ratios
(mlnotes / sklearn), max |coef diff|, |intercept diff| and the objective difference
(objective(mlnotes fit) - objective(sklearn fit), negative means mlnotes found the lower value).

Each pair runs at its own size (``n``, ``d`` of the pair, e.g. the lasso at n=10,000, d=200 as its
issue asks); ``--quick`` divides every n by 5, and ``--n`` / ``--d`` override all sizes.

Targets (``target_ratio`` / ``target_coef`` of a pair): the default least-squares solvers must fit in
at most 1.5x scikit-learn's time with coefficients equal to 1e-8; the lasso and the elastic net in at
most 3x with coefficients equal to 1e-6 (both run with the same tight ``tol``, so both reach the same
solution); logistic regression (lbfgs, n=50,000, d=50) in at most 2x with coefficients equal to 1e-5; LDA,
QDA and Gaussian naive Bayes (n=50,000, d=50, three classes) in at most 2x with predicted probabilities
equal to 1e-6 (their "max|dcoef|" column is the largest probability difference). With ``--check`` the script exits with status 1 if a target is missed; otherwise it only
reports.

Pairs come from ``PAIRS`` here and from every module ``tools/bench_*.py`` (in name order), each exposing
its own ``PAIRS`` list, so a part adds its pairs in a file of its own without editing this one
(``tools/bench_generative.py`` is an example). A pair is a :class:`Pair`: a name, two zero-argument
factories returning unfitted estimators, an objective ``f(estimator, X, y) -> float`` of the fitted model,
and its size and data generator; a pair module imports ``Pair`` and the data generators from
``benchmark`` (``tools/`` is on the path when this script runs).
"""

import argparse
import importlib.util
import statistics
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

import numpy as np
from sklearn import linear_model as sk

from mlnotes.linear import ElasticNet, Lasso, LinearRegression, LogisticRegression, Ridge, logistic_objective


def squared_loss(est, X, y):
    r = y - X @ est.coef_.T - est.intercept_
    return float(np.sum(r**2))


def ridge_objective(alpha):
    def objective(est, X, y):
        return squared_loss(est, X, y) + alpha * float(np.sum(np.asarray(est.coef_) ** 2))

    return objective


@dataclass
class Pair:
    name: str
    make_mlnotes: Callable
    make_sklearn: Callable
    objective: Callable
    target_ratio: float | None = None  # max median time ratio mlnotes/sklearn, None: report only
    target_coef: float | None = None  # max |coef diff| and |intercept diff|, None: report only
    n: int = 100_000
    d: int = 100
    data: Callable = None               # (n, d, seed) -> (X, y); make_data if None
    probabilities: bool = False         # classifiers without coefficients: compare predict_proba instead


def enet_objective(alpha, l1_ratio):
    def objective(est, X, y):
        r = y - est.predict(X)
        w = np.ravel(est.coef_)
        return float(r @ r / (2 * len(y)) + alpha * l1_ratio * np.abs(w).sum() + alpha * (1 - l1_ratio) / 2 * w @ w)
    return objective


def make_data(n, d, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.normal(loc=rng.uniform(-3, 3, d), scale=rng.uniform(0.5, 2.0, d), size=(n, d))
    y = X @ rng.standard_normal(d) + 1.5 + rng.standard_normal(n)
    return X, y


def make_sparse_data(n, d, seed=0):
    """Regression data whose true weights are mostly zero (10% non-zero), with two correlated columns."""
    rng = np.random.default_rng(seed)
    X = rng.normal(loc=rng.uniform(-3, 3, d), scale=rng.uniform(0.5, 2.0, d), size=(n, d))
    X[:, 1] = X[:, 0] + 0.3 * rng.standard_normal(n)
    w = np.where(rng.random(d) < 0.1, rng.normal(scale=2.0, size=d), 0.0)
    return X, X @ w + 1.5 + rng.standard_normal(n)


def make_classification_data(n, d, seed=0):
    """Two classes from a logistic model with standard normal features."""
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((n, d))
    p = 1 / (1 + np.exp(-(X @ rng.standard_normal(d) + 0.5)))
    return X, (rng.random(n) < p).astype(int)


def log_loss(est, X, y):
    """Mean negative log-probability of the true classes."""
    P = est.predict_proba(X)
    return float(-np.mean(np.log(P[np.arange(len(y)), np.searchsorted(est.classes_, y)])))


def make_three_classes(n, d, seed=0):
    """Three Gaussian classes with different means and covariances (for LDA, QDA, naive Bayes)."""
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 3, size=n)
    means = rng.normal(scale=0.15, size=(3, d))                       # overlapping classes
    scales = [np.eye(d) + 0.3 * rng.standard_normal((d, d)) / np.sqrt(d) for _ in range(3)]   # well conditioned
    X = means[y] + np.einsum("nij,nj->ni", np.array(scales)[y], rng.standard_normal((n, d)))
    return X, y


def logistic_regression_objective(C):
    def objective(est, X, y):
        theta = np.column_stack([est.coef_, est.intercept_]).ravel()
        return logistic_objective(theta, X, (y == est.classes_[1]).astype(float)[:, None], np.ones(len(y)), C)[0]
    return objective


CD_TOL = 1e-8   # the same tolerance on both sides: both certify the same duality gap

PAIRS = [
    Pair("LinearRegression(lstsq) [default]", lambda: LinearRegression(), lambda: sk.LinearRegression(),
         squared_loss, target_ratio=1.5, target_coef=1e-8),
    Pair("LinearRegression(normal)", lambda: LinearRegression(solver="normal"), lambda: sk.LinearRegression(),
         squared_loss),
    Pair("Ridge(alpha=1, auto) [default]", lambda: Ridge(alpha=1.0), lambda: sk.Ridge(alpha=1.0),
         ridge_objective(1.0), target_ratio=1.5, target_coef=1e-8),
    Pair("Ridge(alpha=1, svd)", lambda: Ridge(alpha=1.0, solver="svd"), lambda: sk.Ridge(alpha=1.0),
         ridge_objective(1.0)),
    # same algorithm on both sides, for a like-for-like time comparison of the SVD path
    Pair("Ridge(alpha=1, svd) vs sk svd", lambda: Ridge(alpha=1.0, solver="svd"),
         lambda: sk.Ridge(alpha=1.0, solver="svd"), ridge_objective(1.0)),
    Pair("Lasso(alpha=0.1)", lambda: Lasso(alpha=0.1, tol=CD_TOL), lambda: sk.Lasso(alpha=0.1, tol=CD_TOL),
         enet_objective(0.1, 1.0), target_ratio=3.0, target_coef=1e-6, n=10_000, d=200, data=make_sparse_data),
    Pair("ElasticNet(alpha=0.1, l1_ratio=0.5)", lambda: ElasticNet(alpha=0.1, l1_ratio=0.5, tol=CD_TOL),
         lambda: sk.ElasticNet(alpha=0.1, l1_ratio=0.5, tol=CD_TOL), enet_objective(0.1, 0.5),
         target_ratio=3.0, target_coef=1e-6, n=10_000, d=200, data=make_sparse_data),
    # both at tol=1e-8: at the default tol=1e-4 each stops ~1e-3 from the optimum in its own way (mlnotes on the
    # gradient norm of its objective, scikit-learn on L-BFGS's projected gradient of its mean loss), so their
    # coefficients differ by ~2e-3 although mlnotes' default fit is the closer one to the optimum
    Pair("LogisticRegression(C=1, lbfgs, tol=1e-8)", lambda: LogisticRegression(C=1.0, tol=1e-8),
         lambda: sk.LogisticRegression(C=1.0, tol=1e-8), logistic_regression_objective(1.0), target_ratio=2.0,
         target_coef=1e-5, n=50_000, d=50, data=make_classification_data),
    Pair("LogisticRegression(C=1, newton) vs sk newton-cholesky", lambda: LogisticRegression(C=1.0, solver="newton"),
         lambda: sk.LogisticRegression(C=1.0, solver="newton-cholesky"), logistic_regression_objective(1.0),
         n=50_000, d=50, data=make_classification_data),
]


# ------------------------------------------------------------------ Part IV, chapter 16: kernel estimators
# They have no coef_: the "coef" and "intercept" columns compare what determines the fit. KernelRidge: dual_coef_
# (and intercept 0); KernelPCA: eigenvalues_ and |eigenvectors_| (each column's sign is arbitrary); KernelKMeans
# (linear kernel, the same start as scikit-learn's KMeans(init=X[idx], algorithm="lloyd")): the centres and the
# inertia. Targets (issue 12): KernelRidge at n=5000 and KernelPCA at n=2000 at most 1.5x scikit-learn.
KERNEL_RIDGE = dict(alpha=1.0, kernel="rbf", gamma=0.05)
KERNEL_PCA = dict(n_components=10, kernel="rbf", gamma=0.05)
KMEANS_START = np.arange(0, 800, 100)          # 8 centres: samples 0, 100, ..., 700


def _exposing(cls, coef, intercept):
    """``cls`` with read-only ``coef_``/``intercept_`` computed from its fitted attributes (for the table)."""
    return type(cls.__name__, (cls,), {"coef_": property(coef), "intercept_": property(intercept)})


def _kernel_ridge_pair():
    from sklearn.kernel_ridge import KernelRidge as SkKernelRidge

    from mlnotes.kernels import KernelRidge, rbf_kernel

    def objective(est, X, y):          # ||y - K a||^2 + alpha a^T K a
        a = est.dual_coef_
        Ka = rbf_kernel(X, gamma=KERNEL_RIDGE["gamma"]) @ a
        return float(np.sum((y - Ka) ** 2) + KERNEL_RIDGE["alpha"] * a @ Ka)

    dual = (lambda est: est.dual_coef_, lambda est: 0.0)
    return Pair("KernelRidge(alpha=1, rbf, gamma=0.05)", lambda: _exposing(KernelRidge, *dual)(**KERNEL_RIDGE),
                lambda: _exposing(SkKernelRidge, *dual)(**KERNEL_RIDGE), objective, target_ratio=1.5,
                target_coef=1e-8, n=5_000, d=20)


def _kernel_pca_pair():
    from sklearn.decomposition import KernelPCA as SkKernelPCA

    from mlnotes.decomposition import KernelPCA

    spectrum = (lambda est: est.eigenvalues_, lambda est: np.abs(est.eigenvectors_))
    return Pair("KernelPCA(10, rbf, gamma=0.05) vs sk dense", lambda: _exposing(KernelPCA, *spectrum)(**KERNEL_PCA),
                lambda: _exposing(SkKernelPCA, *spectrum)(**KERNEL_PCA, eigen_solver="dense"),
                lambda est, X, y: -float(np.sum(est.eigenvalues_)), target_ratio=1.5, target_coef=1e-8, n=2_000, d=20)


def _kernel_kmeans_pair():
    from sklearn.cluster import KMeans

    from mlnotes.cluster import KernelKMeans

    class KMeansFromSamples(KMeans):         # the start X[KMEANS_START] needs X: set when fitting
        def fit(self, X, y=None):
            self.init = X[KMEANS_START]
            return super().fit(X)

    ours = _exposing(KernelKMeans, lambda est: est.cluster_weights_.T @ est.X_fit_, lambda est: est.inertia_)
    ref = _exposing(KMeansFromSamples, lambda est: est.cluster_centers_, lambda est: est.inertia_)
    return Pair("KernelKMeans(8, linear) vs sk KMeans lloyd", lambda: ours(8, init=KMEANS_START, tol=0.0),
                lambda: ref(8, n_init=1, algorithm="lloyd", tol=0.0), lambda est, X, y: float(est.inertia_),
                n=5_000, d=20)


def _kernel_knn_pair():
    from sklearn.neighbors import KNeighborsClassifier

    from mlnotes.kernels import KernelKNeighborsClassifier

    return Pair("KernelKNeighborsClassifier(5, linear) (fit only)", lambda: KernelKNeighborsClassifier(5),
                lambda: KNeighborsClassifier(5), log_loss_or_zero, n=2_000, d=20, data=make_classification_data,
                probabilities=True)


def log_loss_or_zero(est, X, y):
    """Mean negative log-probability of the true classes, with log 0 counted as 0 (kNN probabilities can be 0)."""
    P = est.predict_proba(X)[np.arange(len(y)), np.searchsorted(est.classes_, y)]
    return float(-np.mean(np.log(P, out=np.zeros_like(P), where=P > 0)))


PAIRS += [_kernel_ridge_pair(), _kernel_pca_pair(), _kernel_kmeans_pair(), _kernel_knn_pair()]


def extra_pairs(directory=None):
    """The ``PAIRS`` of every module ``bench_*.py`` in ``directory`` (default: this script's folder), in name order.
    A module without ``PAIRS`` is a timing tool of its own (run it directly) and adds none.

    Raises
    ------
    TypeError
        If a module's ``PAIRS`` is not a list of :class:`Pair`.
    """
    directory = Path(__file__).resolve().parent if directory is None else Path(directory)
    sys.modules.setdefault("benchmark", sys.modules[__name__])   # pair modules import Pair from here
    if str(directory) not in sys.path:
        sys.path.insert(0, str(directory))
    pairs = []
    for path in sorted(directory.glob("bench_*.py")):
        spec = importlib.util.spec_from_file_location(path.stem, path)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        if not hasattr(module, "PAIRS"):  # a timing tool of its own (functions, predict, a whole forest)
            continue
        found = module.PAIRS
        if not isinstance(found, list) or not all(isinstance(p, Pair) for p in found):
            raise TypeError(f"{path.name}: PAIRS must be a list of benchmark.Pair")
        pairs += found
    return pairs


def time_fit(make, X, y):
    est = make()
    t0 = time.perf_counter()
    est.fit(X, y)
    return time.perf_counter() - t0, est


def time_alternating(make_mlnotes, make_sklearn, X, y, repeats):
    """Fit both ``repeats`` times, alternating which goes first; returns the last fitted pair and the lists of
    times of mlnotes, of scikit-learn, and their ratios."""
    t_ml, t_sk, ratios = [], [], []
    for r in range(repeats):
        times, fitted = [None, None], [None, None]
        for i in ([0, 1] if r % 2 == 0 else [1, 0]):
            times[i], fitted[i] = time_fit(make_mlnotes if i == 0 else make_sklearn, X, y)
        t_ml.append(times[0])
        t_sk.append(times[1])
        ratios.append(times[0] / times[1])
    return fitted[0], fitted[1], t_ml, t_sk, ratios


def run_pair(pair, X, y, repeats):
    ml, ref, t_ml, t_sk, ratios = time_alternating(pair.make_mlnotes, pair.make_sklearn, X, y, repeats)
    if pair.probabilities:   # "coef" column: max |difference of predicted probabilities|
        coef_diff, intercept_diff = float(np.max(np.abs(ml.predict_proba(X) - ref.predict_proba(X)))), 0.0
    else:
        coef_diff = float(np.max(np.abs(np.asarray(ml.coef_) - np.asarray(ref.coef_))))
        intercept_diff = float(np.max(np.abs(np.asarray(ml.intercept_) - np.asarray(ref.intercept_))))
    obj_ml, obj_sk = pair.objective(ml, X, y), pair.objective(ref, X, y)
    row = {
        "pair": pair.name,
        "t_mlnotes": statistics.median(t_ml),
        "t_sklearn": statistics.median(t_sk),
        "ratio": statistics.median(ratios),
        "coef_diff": coef_diff,
        "intercept_diff": intercept_diff,
        "objective_diff": obj_ml - obj_sk,
        "objective": obj_sk,
    }
    missed = []
    if pair.target_ratio is not None and row["ratio"] > pair.target_ratio:
        missed.append(f"time ratio {row['ratio']:.2f} > {pair.target_ratio}")
    if pair.target_coef is not None and max(coef_diff, intercept_diff) > pair.target_coef:
        missed.append(f"coef/intercept diff {max(coef_diff, intercept_diff):.2e} > {pair.target_coef:g}")
    row["status"] = "n/a" if pair.target_ratio is None and pair.target_coef is None else (
        "MISSED: " + "; ".join(missed) if missed else "ok")
    return row


def print_table(rows):
    header = (f"{'pair':52s} {'n x d':>10s} {'mlnotes s':>10s} {'sklearn s':>10s} {'ratio':>6s} {'max|dcoef|':>11s} "
              f"{'|dintercept|':>12s} {'d objective':>12s} {'(objective)':>12s}  target")
    print(header)
    print("-" * len(header))
    for r in rows:
        print(f"{r['pair']:52s} {r['size']:>10s} {r['t_mlnotes']:10.4f} {r['t_sklearn']:10.4f} {r['ratio']:6.2f} "
              f"{r['coef_diff']:11.2e} {r['intercept_diff']:12.2e} {r['objective_diff']:12.2e} "
              f"{r['objective']:12.5e}  {r['status']}")


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="every pair's n divided by 5")
    parser.add_argument("--n", type=int, default=None, help="number of samples of every pair (overrides --quick)")
    parser.add_argument("--d", type=int, default=None, help="number of features of every pair")
    parser.add_argument("--only", default=None, help="run the pairs whose name contains this string")
    parser.add_argument("--repeats", type=int, default=7, help="fits of each estimator (default 7)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--threads", type=int, default=None,
                        help="limit BLAS threads (threadpoolctl), e.g. 1 for stable timings on a busy machine")
    parser.add_argument("--check", action="store_true", help="exit with status 1 if a target is missed")
    args = parser.parse_args(argv)
    if args.threads is None:
        return run(args)
    from threadpoolctl import threadpool_limits

    with threadpool_limits(limits=args.threads, user_api="blas"):
        return run(args)


def size(pair, args):
    n = args.n if args.n is not None else (pair.n // 5 if args.quick else pair.n)
    return n, args.d if args.d is not None else pair.d


def run(args):
    from threadpoolctl import threadpool_info

    blas = ", ".join(f"{i['internal_api']}x{i['num_threads']}" for i in threadpool_info() if i["user_api"] == "blas")
    pairs = [p for p in PAIRS + extra_pairs() if args.only is None or args.only in p.name]
    print(f"repeats={args.repeats} seed={args.seed} numpy={np.__version__} blas={blas}")
    rows = []
    for pair in pairs:
        n, d = size(pair, args)
        X, y = (pair.data or make_data)(n, d, args.seed)
        pair.make_mlnotes().fit(X[:1000], y[:1000])       # warm-up: imports, BLAS threads, first touch
        pair.make_sklearn().fit(X[:1000], y[:1000])
        rows.append(run_pair(pair, X, y, args.repeats) | {"size": f"{n}x{d}"})
    print_table(rows)
    missed = [r for r in rows if r["status"].startswith("MISSED")]
    if missed:
        print(f"\n{len(missed)} target(s) missed: " + ", ".join(r["pair"] for r in missed))
    return 1 if (missed and args.check) else 0


if __name__ == "__main__":
    sys.exit(main())
