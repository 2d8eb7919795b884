"""Benchmark: mlnotes.tree.DecisionTreeClassifier.fit against scikit-learn's (issue 13, "Speed").

Target: at most 3x scikit-learn's time, n = 20,000 samples, d = 20 continuous features, full depth (gini), single
thread on both sides (OMP/OPENBLAS/MKL threads set to 1 before numpy is imported). Also times the regressor on the
same data. Prints the median of alternating repeats of each side and the ratio; ``--profile`` prints the top of
cProfile's table for one mlnotes fit. Run: ``.venv/bin/python tools/bench_tree.py [--repeats 5] [--small]``.
"""

import os

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[_var] = "1"

import argparse  # noqa: E402
import time  # noqa: E402

import numpy as np  # noqa: E402
from sklearn import tree as sk_tree  # noqa: E402

from mlnotes.tree import DecisionTreeClassifier, DecisionTreeRegressor  # noqa: E402


def _race(pairs, X, y, repeats):
    times = {name: [] for name, _ in pairs}
    fitted = {}
    for _ in range(repeats):                            # alternate, so drifts of the machine hit both sides
        for name, make in pairs:
            model = make()
            start = time.perf_counter()
            model.fit(X, y)
            times[name].append(time.perf_counter() - start)
            fitted[name] = model
    return {name: float(np.median(t)) for name, t in times.items()}, times, fitted


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--small", action="store_true", help="n = 2,000 (a smoke run)")
    parser.add_argument("--profile", action="store_true", help="profile one mlnotes classifier fit")
    args = parser.parse_args()
    n, d = (2000, 20) if args.small else (20000, 20)
    rng = np.random.default_rng(0)
    X = rng.normal(size=(n, d))
    y_class = (X[:, :3].sum(axis=1) + rng.normal(size=n) > 0).astype(int)
    y_real = X[:, 0] + np.sin(2 * X[:, 1]) + 0.5 * rng.normal(size=n)
    for label, y, ours, theirs in (
            ("DecisionTreeClassifier.fit (gini)", y_class, DecisionTreeClassifier,
             lambda: sk_tree.DecisionTreeClassifier(random_state=0)),
            ("DecisionTreeRegressor.fit (squared_error)", y_real, DecisionTreeRegressor,
             lambda: sk_tree.DecisionTreeRegressor(random_state=0))):
        med, times, fitted = _race([("mlnotes", ours), ("scikit-learn", theirs)], X, y, args.repeats)
        a, b = fitted["mlnotes"], fitted["scikit-learn"]
        print(f"{label}, n = {n}, d = {d}, full depth, one thread, median of {args.repeats} alternating repeats")
        for name, t in times.items():
            print(f"  {name:<13} {med[name]:.3f} s   (runs: {', '.join(f'{v:.3f}' for v in t)})")
        target = "(target <= 3)" if "Classifier" in label else "(no target)"
        print(f"  ratio mlnotes / scikit-learn = {med['mlnotes'] / med['scikit-learn']:.2f} {target}; nodes "
              f"{a.tree_.node_count} vs {b.tree_.node_count}, depth {a.get_depth()} vs {b.get_depth()}, equal "
              f"training predictions: {np.mean(a.predict(X) == b.predict(X)):.4f}")
    if args.profile:
        import cProfile
        import pstats

        profiler = cProfile.Profile()
        profiler.enable()
        DecisionTreeClassifier().fit(X, y_class)
        profiler.disable()
        pstats.Stats(profiler).sort_stats("tottime").print_stats(12)


if __name__ == "__main__":
    main()
