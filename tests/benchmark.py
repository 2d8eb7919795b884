"""Fit-time and accuracy benchmark of mlnotes estimators against their scikit-learn counterparts.

Not a test module (pytest does not collect it and no test imports it). Usage::

    python tests/benchmark.py [--quick] [--repeats R] [--n N] [--d D] [--threads T] [--check]

For every entry of ``PAIRS`` both estimators are fitted on the same seeded data, alternately
(mlnotes, sklearn, sklearn, mlnotes, ...) so that load from other processes hits both alike, and
one table row reports: the median fit time of each, the median of the per-repeat time ratios
(mlnotes / sklearn), max |coef diff|, |intercept diff| and the objective difference
(objective(mlnotes fit) - objective(sklearn fit), negative means mlnotes found the lower value).

Targets (``target_ratio`` / ``target_coef`` of a pair): the default solvers must fit in at most
1.5x scikit-learn's time with coefficients equal to 1e-8. With ``--check`` the script exits with
status 1 if a target is missed; otherwise it only reports.

To add a pair, append a :class:`Pair` to ``PAIRS``: a name, two zero-argument factories returning
unfitted estimators, and an objective ``f(estimator, X, y) -> float`` of the fitted model.
"""

import argparse
import statistics
import sys
import time
from dataclasses import dataclass
from typing import Callable

import numpy as np
from sklearn import linear_model as sk

from mlnotes.linear import LinearRegression, Ridge


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
]


def make_data(n, d, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.normal(loc=rng.uniform(-3, 3, d), scale=rng.uniform(0.5, 2.0, d), size=(n, d))
    y = X @ rng.standard_normal(d) + 1.5 + rng.standard_normal(n)
    return X, y


def time_fit(make, X, y):
    est = make()
    t0 = time.perf_counter()
    est.fit(X, y)
    return time.perf_counter() - t0, est


def run_pair(pair, X, y, repeats):
    t_ml, t_sk, ratios = [], [], []
    for r in range(repeats):
        order = [0, 1] if r % 2 == 0 else [1, 0]
        times = [None, None]
        for i in order:
            times[i], fitted = time_fit(pair.make_mlnotes if i == 0 else pair.make_sklearn, X, y)
            if i == 0:
                ml = fitted
            else:
                ref = fitted
        t_ml.append(times[0])
        t_sk.append(times[1])
        ratios.append(times[0] / times[1])
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
    header = (f"{'pair':36s} {'mlnotes s':>10s} {'sklearn s':>10s} {'ratio':>6s} {'max|dcoef|':>11s} "
              f"{'|dintercept|':>12s} {'d objective':>12s} {'(objective)':>12s}  target")
    print(header)
    print("-" * len(header))
    for r in rows:
        print(f"{r['pair']:36s} {r['t_mlnotes']:10.4f} {r['t_sklearn']:10.4f} {r['ratio']:6.2f} "
              f"{r['coef_diff']:11.2e} {r['intercept_diff']:12.2e} {r['objective_diff']:12.2e} "
              f"{r['objective']:12.5e}  {r['status']}")


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="n=20000 instead of 100000")
    parser.add_argument("--n", type=int, default=None, help="number of samples (overrides --quick)")
    parser.add_argument("--d", type=int, default=100, help="number of features (default 100)")
    parser.add_argument("--repeats", type=int, default=7, help="fits of each estimator (default 7)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--threads", type=int, default=None,
                        help="limit BLAS threads (threadpoolctl), e.g. 1 for stable timings on a busy machine")
    parser.add_argument("--check", action="store_true", help="exit with status 1 if a target is missed")
    args = parser.parse_args(argv)
    n = args.n if args.n is not None else (20_000 if args.quick else 100_000)
    if args.threads is None:
        return run(args, n)
    from threadpoolctl import threadpool_limits

    with threadpool_limits(limits=args.threads, user_api="blas"):
        return run(args, n)


def run(args, n):
    from threadpoolctl import threadpool_info

    blas = ", ".join(f"{i['internal_api']}x{i['num_threads']}" for i in threadpool_info() if i["user_api"] == "blas")
    X, y = make_data(n, args.d, args.seed)
    print(f"n={n} d={args.d} repeats={args.repeats} seed={args.seed} numpy={np.__version__} blas={blas}")
    # warm-up (imports, BLAS thread pools, first-touch allocations)
    for pair in PAIRS:
        pair.make_mlnotes().fit(X[:1000], y[:1000])
        pair.make_sklearn().fit(X[:1000], y[:1000])
    rows = [run_pair(pair, X, y, args.repeats) for pair in PAIRS]
    print_table(rows)
    missed = [r for r in rows if r["status"].startswith("MISSED")]
    if missed:
        print(f"\n{len(missed)} target(s) missed: " + ", ".join(r["pair"] for r in missed))
    return 1 if (missed and args.check) else 0


if __name__ == "__main__":
    sys.exit(main())
