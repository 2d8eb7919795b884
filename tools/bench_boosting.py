#!/usr/bin/env python
"""Benchmark of chapter 21's boosting against scikit-learn (issue 13, "Speed"): single thread, median of
alternating repeats.

GradientBoostingRegressor (100 rounds, depth 3, squared error) on n = 20,000, d = 20 (target: at most 3x
scikit-learn's time), and AdaBoostClassifier (100 stumps) on the same data for information.

    .venv/bin/python tools/bench_boosting.py [--repeats 3] [--n 20000] [--profile]
"""

import os

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[_var] = "1"

import argparse  # noqa: E402
import cProfile  # noqa: E402
import pstats  # noqa: E402
import time  # noqa: E402

import numpy as np  # noqa: E402
import sklearn.ensemble  # noqa: E402
from sklearn.tree import DecisionTreeClassifier as SkTree  # noqa: E402  (scikit-learn's side only)

import mlnotes.ensemble  # noqa: E402
from mlnotes.tree import DecisionTreeClassifier  # noqa: E402


def data(n, d, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, d))
    y = X[:, 0] * 2 + np.sin(3 * X[:, 1]) + X[:, 2] * X[:, 3] + 0.5 * rng.normal(size=n)
    return X, y


def timed(make, X, y):
    start = time.perf_counter()
    make().fit(X, y)
    return time.perf_counter() - start


def compare(name, ours, theirs, X, y, repeats):
    times = {"mlnotes": [], "scikit-learn": []}
    for _ in range(repeats):                                          # alternate, so drifts hit both sides
        times["mlnotes"].append(timed(ours, X, y))
        times["scikit-learn"].append(timed(theirs, X, y))
    t_ours, t_theirs = np.median(times["mlnotes"]), np.median(times["scikit-learn"])
    print(f"{name:<58} mlnotes {t_ours:7.3f} s   scikit-learn {t_theirs:7.3f} s   ratio {t_ours / t_theirs:5.2f}")
    return t_ours / t_theirs


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--n", type=int, default=20000)
    parser.add_argument("--d", type=int, default=20)
    parser.add_argument("--profile", action="store_true", help="profile one fit of mlnotes' GradientBoostingRegressor")
    args = parser.parse_args()
    X, y = data(args.n, args.d)
    if args.profile:
        profiler = cProfile.Profile()
        profiler.enable()
        mlnotes.ensemble.GradientBoostingRegressor(n_estimators=100, max_depth=3).fit(X, y)
        profiler.disable()
        pstats.Stats(profiler).sort_stats("cumulative").print_stats(18)
        return
    ratio = compare(f"GradientBoostingRegressor, 100 rounds, depth 3, n={args.n}, d={args.d}",
                    lambda: mlnotes.ensemble.GradientBoostingRegressor(n_estimators=100, max_depth=3),
                    lambda: sklearn.ensemble.GradientBoostingRegressor(n_estimators=100, max_depth=3), X, y,
                    args.repeats)
    print(f"  target: at most 3x -> {'met' if ratio <= 3 else 'MISSED'}")
    labels = (y > np.median(y)).astype(int)
    compare(f"AdaBoostClassifier, 100 stumps, n={args.n}, d={args.d}",
            lambda: mlnotes.ensemble.AdaBoostClassifier(DecisionTreeClassifier(max_depth=1), n_estimators=100),
            lambda: sklearn.ensemble.AdaBoostClassifier(SkTree(max_depth=1), n_estimators=100), X, labels,
            args.repeats)


if __name__ == "__main__":
    main()
