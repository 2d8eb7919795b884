"""Timing and memory of chapter 14's SVC against scikit-learn's libsvm (standalone; read by tools/benchmark.py too).

``tools/benchmark.py`` compares estimators by their coefficients; a kernel SVC has none (its solution is
``dual_coef_`` on support vectors), so this module's ``PAIRS`` is empty and SVC is timed here. Usage::

    .venv/bin/python tools/bench_svm.py [--n 5000] [--d 20] [--C 1] [--repeats 3] [--memory-n 20000] [--profile]

Time: both sides fit ``SVC(kernel="rbf", C=C, gamma="scale", tol=1e-3)`` on the same seeded data
(``benchmark.make_classification_data``), alternately (mlnotes, sklearn, sklearn, mlnotes, ...); the row
reports the median time of each, the median of the per-repeat ratios (target: at most 3x), the SMO
iterations of each, the largest difference of the decision functions and the dual objective of each.
Memory: a fresh process fits mlnotes' SVC at ``--memory-n`` points (the full kernel matrix would not fit in
``cache_size`` = 200 MB, so rows are cached) and reports the tracemalloc peak of the fit and the process's
peak resident set size. ``--profile`` prints the ten most expensive functions of one mlnotes fit.
"""

import argparse
import statistics
import subprocess
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).parent))

PAIRS = []   # no coefficient pair: see the module docstring


def dual_objective(model, X, y):
    """The dual objective 1/2 a^T Q a - 1^T a of a fitted binary SVC (alpha = |dual_coef_|)."""
    from mlnotes.kernels import pairwise_kernels

    K_sv = pairwise_kernels(model.support_vectors_, metric="rbf", gamma=model._gamma if hasattr(model, "_gamma")
                            else 1.0 / (X.shape[1] * X.var()))
    c = model.dual_coef_[0]
    return float(c @ K_sv @ c / 2 - np.abs(c).sum())


def time_svc(n, d, C, repeats, seed=0):
    import sklearn.svm

    from benchmark import make_classification_data, time_alternating
    from mlnotes.svm import SVC

    X, y = make_classification_data(n, d, seed)
    SVC(C=C).fit(X[:200], y[:200])
    sklearn.svm.SVC(C=C).fit(X[:200], y[:200])       # warm-up
    ours, ref, t_ml, t_sk, ratios = time_alternating(lambda: SVC(C=C), lambda: sklearn.svm.SVC(C=C), X, y, repeats)
    diff = float(np.abs(ours.decision_function(X) - ref.decision_function(X)).max())
    return {
        "n": n, "d": d, "C": C,
        "t_mlnotes": statistics.median(t_ml), "t_sklearn": statistics.median(t_sk),
        "ratio": statistics.median(ratios), "ratios": ratios,
        "n_iter": (int(ours.n_iter_[0]), int(ref.n_iter_[0])),
        "n_SV": (len(ours.support_), len(ref.support_)),
        "max|df diff|": diff,
        "dual objective": (dual_objective(ours, X, y), dual_objective(ref, X, y)),
    }


_MEMORY_CHILD = """
import resource, sys, time, tracemalloc
sys.path.insert(0, {tools!r})
from benchmark import make_classification_data
from mlnotes.svm import SVC
X, y = make_classification_data({n}, {d}, 0)
tracemalloc.start()
t0 = time.perf_counter()
model = SVC(C={C}).fit(X, y)
t = time.perf_counter() - t0
current, peak = tracemalloc.get_traced_memory()
print(peak / 2**20, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 2**10, t, int(model.n_iter_[0]),
      len(model.support_), X.nbytes / 2**20)
"""


def memory(n, d, C):
    code = _MEMORY_CHILD.format(tools=str(Path(__file__).parent), n=n, d=d, C=C)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split()
    peak, rss, t, n_iter, n_sv, data = map(float, out)
    return {"n": n, "tracemalloc peak MB": peak, "max RSS MB": rss, "fit s": t, "n_iter": int(n_iter),
            "n_SV": int(n_sv), "X MB": data, "full K MB": 8 * n * n / 2**20}


def profile(n, d, C):
    import cProfile
    import pstats

    from benchmark import make_classification_data
    from mlnotes.svm import SVC

    X, y = make_classification_data(n, d, 0)
    profiler = cProfile.Profile()
    profiler.runcall(SVC(C=C).fit, X, y)
    pstats.Stats(profiler).sort_stats("tottime").print_stats(10)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=5000)
    parser.add_argument("--d", type=int, default=20)
    parser.add_argument("--C", type=float, default=1.0)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--memory-n", type=int, default=20000, help="0 to skip the memory measurement")
    parser.add_argument("--profile", action="store_true")
    args = parser.parse_args(argv)
    row = time_svc(args.n, args.d, args.C, args.repeats)
    print(f"SVC(rbf, C={args.C:g}) n={args.n} d={args.d}: mlnotes {row['t_mlnotes']:.2f} s, "
          f"sklearn {row['t_sklearn']:.2f} s, median ratio {row['ratio']:.2f} "
          f"(per repeat {', '.join(f'{r:.2f}' for r in row['ratios'])}; target <= 3: "
          f"{'ok' if row['ratio'] <= 3 else 'MISSED'})")
    print(f"  SMO iterations mlnotes/sklearn {row['n_iter']}, support vectors {row['n_SV']}, "
          f"max|decision diff| {row['max|df diff|']:.2e}, dual objective {row['dual objective'][0]:.8f} / "
          f"{row['dual objective'][1]:.8f}")
    if args.profile:
        profile(args.n, args.d, args.C)
    if args.memory_n:
        m = memory(args.memory_n, args.d, args.C)
        print(f"memory n={m['n']}: tracemalloc peak {m['tracemalloc peak MB']:.0f} MB during fit, process max RSS "
              f"{m['max RSS MB']:.0f} MB (the full kernel matrix would be {m['full K MB']:.0f} MB; X is "
              f"{m['X MB']:.1f} MB); fit {m['fit s']:.1f} s, {m['n_iter']} SMO iterations, {m['n_SV']} support vectors")
    return 0


if __name__ == "__main__":
    sys.exit(main())
