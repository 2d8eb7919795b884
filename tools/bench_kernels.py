"""Timing of chapter 15's kernel matrices against scikit-learn's (standalone; read by tools/benchmark.py too).

``tools/benchmark.py`` compares *fitted estimators* (a :class:`benchmark.Pair` has coefficients and an
objective); kernel functions are neither, so this module's ``PAIRS`` is empty and the kernel matrices are
timed here instead (the estimators built on them, ``SVC``, ``KernelRidge``, ``KernelPCA``, add their pairs in
their own part's module). Usage::

    .venv/bin/python tools/bench_kernels.py [--n 5000] [--d 20] [--repeats 7] [--threads T]

For each kernel both sides compute the same matrix on the same seeded data, alternately (mlnotes, sklearn,
sklearn, mlnotes, ...), and a row reports the median time of each, the median of the per-repeat ratios
(mlnotes / sklearn) and the largest difference of the two matrices.
"""

import argparse
import statistics
import sys
import time

import numpy as np

PAIRS = []   # no estimator pair: see the module docstring


def cases():
    """(name, mlnotes call, scikit-learn call), each a function of ``X``."""
    from sklearn.metrics import pairwise as skp

    from mlnotes import kernels

    return [
        ("rbf_kernel(X)", kernels.rbf_kernel, skp.rbf_kernel),
        ("pairwise_kernels(X, metric='rbf', gamma=0.1)",
         lambda X: kernels.pairwise_kernels(X, metric="rbf", gamma=0.1),
         lambda X: skp.pairwise_kernels(X, metric="rbf", gamma=0.1)),
        ("polynomial_kernel(X, degree=3)", kernels.polynomial_kernel, skp.polynomial_kernel),
        ("laplacian_kernel(X)", kernels.laplacian_kernel, skp.laplacian_kernel),
        ("linear_kernel(X)", kernels.linear_kernel, skp.linear_kernel),
    ]


def time_call(f, X):
    t0 = time.perf_counter()
    K = f(X)
    return time.perf_counter() - t0, K


def run(n, d, repeats, seed=0):
    X = np.random.default_rng(seed).normal(size=(n, d))
    rows = []
    for name, mine, theirs in cases():
        mine(X[:100]), theirs(X[:100])      # warm-up: imports, BLAS threads
        t_ml, t_sk, ratios, diff = [], [], [], 0.0
        for r in range(repeats):
            times = {}
            for side in ((0, 1) if r % 2 == 0 else (1, 0)):
                times[side], K = time_call(mine if side == 0 else theirs, X)
                if side == 0:
                    K_ml = K
                else:
                    K_sk = K
            diff = max(diff, float(np.abs(K_ml - K_sk).max()))
            del K_ml, K_sk, K
            t_ml.append(times[0])
            t_sk.append(times[1])
            ratios.append(times[0] / times[1])
        rows.append((name, statistics.median(t_ml), statistics.median(t_sk), statistics.median(ratios), diff))
    return rows


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--n", type=int, default=5000)
    parser.add_argument("--d", type=int, default=20)
    parser.add_argument("--repeats", type=int, default=7)
    parser.add_argument("--threads", type=int, default=None, help="limit BLAS threads (threadpoolctl)")
    args = parser.parse_args(argv)
    from threadpoolctl import threadpool_info, threadpool_limits

    with threadpool_limits(limits=args.threads, user_api="blas"):
        blas = ", ".join(f"{i['internal_api']}x{i['num_threads']}" for i in threadpool_info()
                         if i["user_api"] == "blas")
        print(f"n={args.n} d={args.d} repeats={args.repeats} numpy={np.__version__} blas={blas}")
        rows = run(args.n, args.d, args.repeats)
    print(f"{'kernel matrix':48s} {'mlnotes s':>10s} {'sklearn s':>10s} {'ratio':>6s} {'max|dK|':>9s}")
    for name, t_ml, t_sk, ratio, diff in rows:
        print(f"{name:48s} {t_ml:10.4f} {t_sk:10.4f} {ratio:6.2f} {diff:9.1e}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
