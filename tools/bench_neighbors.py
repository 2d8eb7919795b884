"""Benchmark: mlnotes.neighbors.KNeighborsClassifier.predict against scikit-learn's brute force (issue 13, "Speed").

Target: at most 1.5x scikit-learn's time, 20,000 training and 5,000 test points in d = 20, k = 5, single thread on
both sides (OMP/OPENBLAS/MKL threads set to 1 before numpy is imported). Prints the median of alternating repeats
of each side and the ratio. Run: ``.venv/bin/python tools/bench_neighbors.py [--repeats 5] [--small]``.
"""

import os

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[_var] = "1"

import argparse  # noqa: E402
import time  # noqa: E402

import numpy as np  # noqa: E402
from sklearn.neighbors import KNeighborsClassifier as SkKNN  # noqa: E402

from mlnotes.neighbors import KNeighborsClassifier  # noqa: E402


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--small", action="store_true", help="2,000 x 500 (a smoke run)")
    args = parser.parse_args()
    n_train, n_test, d = (2000, 500, 20) if args.small else (20000, 5000, 20)
    rng = np.random.default_rng(0)
    X, X_test = rng.normal(size=(n_train, d)), rng.normal(size=(n_test, d))
    y = rng.integers(0, 3, n_train)
    ours = KNeighborsClassifier(n_neighbors=5).fit(X, y)
    theirs = SkKNN(n_neighbors=5, algorithm="brute", n_jobs=1).fit(X, y)
    times = {"mlnotes": [], "scikit-learn": []}
    predictions = {}
    for _ in range(args.repeats):                       # alternate, so drifts of the machine hit both sides
        for name, model in (("mlnotes", ours), ("scikit-learn", theirs)):
            start = time.perf_counter()
            predictions[name] = model.predict(X_test)
            times[name].append(time.perf_counter() - start)
    same = np.mean(predictions["mlnotes"] == predictions["scikit-learn"])
    med = {name: float(np.median(t)) for name, t in times.items()}
    print(f"KNeighborsClassifier.predict, {n_train} train x {n_test} test, d = {d}, k = 5, one thread, "
          f"median of {args.repeats} alternating repeats")
    for name, t in times.items():
        print(f"  {name:<13} {med[name]:.3f} s   (runs: {', '.join(f'{v:.3f}' for v in t)})")
    print(f"  ratio mlnotes / scikit-learn = {med['mlnotes'] / med['scikit-learn']:.2f} (target <= 1.5); "
          f"equal predictions: {same:.4f}")


if __name__ == "__main__":
    main()
