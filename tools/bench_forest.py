"""Benchmark: mlnotes.ensemble.RandomForestClassifier against scikit-learn's (issue 13, "Speed").

Target: fit + predict of 100 trees at most 3x scikit-learn's time on n = 20,000 training points in d = 20 (two
classes, a noisy non-linear rule), default parameters (full depth, max_features = sqrt(d), bootstrap), single thread on
both sides (n_jobs=1; OMP/OPENBLAS/MKL threads set to 1 before numpy is imported). Prints the median of alternating
repeats of each side, fit and predict separately and together, the ratio, and both forests' held-out accuracy.
``--profile`` adds a cProfile of one mlnotes fit (where the time goes). ``--n-jobs 2`` runs both sides with two
workers.

Run: ``.venv/bin/python tools/bench_forest.py [--repeats 3] [--trees 100] [--small] [--profile] [--n-jobs 1]``.
"""

import os

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[_var] = "1"

import argparse  # noqa: E402
import cProfile  # noqa: E402
import pstats  # noqa: E402
import time  # noqa: E402

import numpy as np  # noqa: E402
from sklearn.ensemble import RandomForestClassifier as SkForest  # noqa: E402

from mlnotes.ensemble import RandomForestClassifier  # noqa: E402


def data(n, d, seed=0):
    """Two classes from a noisy rule on the first five of d standard normal features."""
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, d))
    score = X[:, 0] * X[:, 1] + np.sin(2 * X[:, 2]) + X[:, 3] - 0.5 * X[:, 4] ** 2
    y = (score + rng.normal(scale=0.5, size=n) > 0).astype(int)
    return X, y


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--trees", type=int, default=100)
    parser.add_argument("--n-jobs", type=int, default=1)
    parser.add_argument("--small", action="store_true", help="n = 2,000 (a smoke run)")
    parser.add_argument("--profile", action="store_true", help="cProfile one mlnotes fit")
    args = parser.parse_args()
    n, d = (2000, 20) if args.small else (20000, 20)
    X, y = data(n, d)
    X_test, y_test = data(5000, d, seed=1)
    makers = {"mlnotes": lambda: RandomForestClassifier(args.trees, n_jobs=args.n_jobs, random_state=0),
              "scikit-learn": lambda: SkForest(args.trees, n_jobs=args.n_jobs, random_state=0)}
    fit_times = {name: [] for name in makers}
    predict_times = {name: [] for name in makers}
    accuracy = {}
    for _ in range(args.repeats):                       # alternate, so drifts of the machine hit both sides
        for name, make in makers.items():
            model = make()
            start = time.perf_counter()
            model.fit(X, y)
            fit_times[name].append(time.perf_counter() - start)
            start = time.perf_counter()
            predicted = model.predict(X_test)
            predict_times[name].append(time.perf_counter() - start)
            accuracy[name] = float(np.mean(predicted == y_test))
    print(f"RandomForestClassifier, {args.trees} trees, n = {n}, d = {d}, n_jobs = {args.n_jobs}, "
          f"median of {args.repeats} alternating repeats (predict on 5,000 points)")
    med = {}
    for name in makers:
        fit_med, predict_med = float(np.median(fit_times[name])), float(np.median(predict_times[name]))
        med[name] = (fit_med, predict_med)
        print(f"  {name:<13} fit {fit_med:7.2f} s  predict {predict_med:6.3f} s  held-out accuracy {accuracy[name]:.4f}"
              f"   (fit runs: {', '.join(f'{v:.2f}' for v in fit_times[name])})")
    ratio_fit = med["mlnotes"][0] / med["scikit-learn"][0]
    ratio_predict = med["mlnotes"][1] / med["scikit-learn"][1]
    ratio_total = sum(med["mlnotes"]) / sum(med["scikit-learn"])
    print(f"  ratio mlnotes / scikit-learn: fit {ratio_fit:.2f}, predict {ratio_predict:.2f}, "
          f"fit + predict {ratio_total:.2f} (target <= 3)")
    if args.profile:
        profiler = cProfile.Profile()
        model = makers["mlnotes"]()
        profiler.enable()
        model.fit(X, y)
        profiler.disable()
        print("\nprofile of one mlnotes fit (cumulative time, top 25):")
        pstats.Stats(profiler).sort_stats("cumulative").print_stats(25)


if __name__ == "__main__":
    main()
