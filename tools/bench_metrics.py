"""Benchmark: mlnotes.metrics against scikit-learn's (issue 13, "Speed").

Target: ``roc_auc_score`` at n = 10^6 in at most 1.5x scikit-learn's time. Also measured (report only): the same
with integer-rounded scores (many ties), ``roc_curve``, ``precision_recall_curve``, ``average_precision_score``,
``f1_score``, ``confusion_matrix`` and ``StratifiedKFold`` at the same n. Single thread on both sides
(OMP/OPENBLAS/MKL threads set to 1 before numpy is imported). Each row: the median time of each side over
alternating repeats (mlnotes first on even repeats, scikit-learn first on odd ones), the median of the
per-repeat ratios, and the largest difference of the results. Run:
``.venv/bin/python tools/bench_metrics.py [--repeats 7] [--n 1000000] [--only roc_auc] [--check]``
(``--check``: exit 1 if a target is missed).

``PAIRS`` is empty: tools/benchmark.py collects estimator fits from every bench_*.py, and these are functions.
"""

import os

if __name__ == "__main__":
    for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
        os.environ[_var] = "1"

import argparse  # noqa: E402
import statistics  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
import warnings  # noqa: E402

import numpy as np  # noqa: E402

PAIRS = []          # read by tools/benchmark.py (estimator fits only; none here)


def make_data(n, seed=0):
    """Binary labels (30% positive), continuous scores and the same scores rounded to 20 levels (ties)."""
    rng = np.random.default_rng(seed)
    y = (rng.random(n) < 0.3).astype(np.int64)
    score = rng.normal(size=n) + 1.2 * y
    tied = np.round(score * 4) / 4
    y_pred = (score > 0.6).astype(np.int64)
    y3 = rng.integers(0, 3, n)
    return y, score, tied, y_pred, y3


def cases(data):
    """(name, target ratio or None, mlnotes call, scikit-learn call)."""
    from sklearn import metrics as sk
    from sklearn import model_selection as sk_ms

    from mlnotes import metrics as M
    from mlnotes import model_selection as M_ms

    y, score, tied, y_pred, y3 = data
    X = np.empty((y.shape[0], 0))

    def folds(splitter):
        return lambda: np.concatenate([test for _, test in splitter.split(X, y3)])

    return [
        ("roc_auc_score", 1.5, lambda: M.roc_auc_score(y, score), lambda: sk.roc_auc_score(y, score)),
        ("roc_auc_score (ties)", None, lambda: M.roc_auc_score(y, tied), lambda: sk.roc_auc_score(y, tied)),
        ("roc_curve", None, lambda: M.roc_curve(y, score), lambda: sk.roc_curve(y, score)),
        ("precision_recall_curve", None, lambda: M.precision_recall_curve(y, score),
         lambda: sk.precision_recall_curve(y, score)),
        ("average_precision_score", None, lambda: M.average_precision_score(y, score),
         lambda: sk.average_precision_score(y, score)),
        ("f1_score", None, lambda: M.f1_score(y, y_pred), lambda: sk.f1_score(y, y_pred)),
        ("confusion_matrix (3 classes)", None, lambda: M.confusion_matrix(y3, y_pred),
         lambda: sk.confusion_matrix(y3, y_pred)),
        ("StratifiedKFold(5) folds", None, folds(M_ms.StratifiedKFold(5)), folds(sk_ms.StratifiedKFold(5))),
    ]


def largest_difference(a, b):
    """The largest absolute difference of two results (numbers, arrays or tuples of arrays)."""
    if isinstance(a, tuple):
        return max(largest_difference(u, v) for u, v in zip(a, b))
    a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    if a.shape != b.shape:
        return np.inf
    finite = np.isfinite(a) & np.isfinite(b)
    if not np.array_equal(np.isfinite(a), np.isfinite(b)):
        return np.inf
    return float(np.max(np.abs(a[finite] - b[finite]), initial=0.0))


def time_once(f):
    start = time.perf_counter()
    result = f()
    return time.perf_counter() - start, result


def run_case(ours, theirs, repeats):
    t_ours, t_theirs, ratios = [], [], []
    for r in range(repeats):
        if r % 2 == 0:
            a, result_ours = time_once(ours)
            b, result_theirs = time_once(theirs)
        else:
            b, result_theirs = time_once(theirs)
            a, result_ours = time_once(ours)
        t_ours.append(a)
        t_theirs.append(b)
        ratios.append(a / b)
    return (statistics.median(t_ours), statistics.median(t_theirs), statistics.median(ratios),
            largest_difference(result_ours, result_theirs))


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=7)
    parser.add_argument("--n", type=int, default=1_000_000)
    parser.add_argument("--only", default=None, help="run the cases whose name contains this")
    parser.add_argument("--check", action="store_true", help="exit 1 if a target ratio is missed")
    args = parser.parse_args(argv)
    import sklearn
    from threadpoolctl import threadpool_limits

    threadpool_limits(1)
    data = make_data(args.n)
    print(f"n={args.n} repeats={args.repeats} numpy={np.__version__} sklearn={sklearn.__version__}")
    print(f"{'case':30s} {'mlnotes s':>10s} {'sklearn s':>10s} {'ratio':>7s} {'target':>7s} {'max|diff|':>10s}")
    missed = []
    for name, target, ours, theirs in cases(data):
        if args.only and args.only not in name:
            continue
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            ours(), theirs()                           # warm-up (imports, caches)
            t_ours, t_theirs, ratio, diff = run_case(ours, theirs, args.repeats)
        mark = "" if target is None else f"{target:.1f}x"
        print(f"{name:30s} {t_ours:10.4f} {t_theirs:10.4f} {ratio:7.2f} {mark:>7s} {diff:10.2e}")
        if target is not None and ratio > target:
            missed.append(name)
    if missed:
        print(f"target missed: {', '.join(missed)}")
    return 1 if args.check and missed else 0


if __name__ == "__main__":
    sys.exit(main())
