"""The unit tests mirror mlnotes: one folder per subpackage (tests/unit/<subpackage>/test_*.py).

Puts this folder on sys.path so every test module can import the shared ``assertions`` helpers.
"""
import sys
from pathlib import Path

HERE = str(Path(__file__).resolve().parent)
if HERE not in sys.path:
    sys.path.insert(0, HERE)

# One BLAS thread per test process, however pytest is started (tools/test.sh also exports OMP_NUM_THREADS=1 and
# OPENBLAS_NUM_THREADS=1, as tools/nbtools.py runs the chapters' kernels): the suite runs beside other processes
# on a 2-core machine, and the small matrices of the tests gain nothing from threads, while oversubscribed BLAS
# threads spin against each other (measured on the loaded machine: a Gaussian process fit on scikit-learn's
# check data, 0.2-0.4 s with one thread, 6-7 s with two). threadpoolctl limits only the libraries already
# loaded, so numpy's and scipy's OpenBLAS are loaded first.
# scikit-learn is loaded first too, for its OpenMP runtime: the references the tests compare with (nearest
# neighbours, k-means) otherwise run two OpenMP threads per test process, which spin against the other worker
# (measured on the loaded machine: test_stacking.py's 116 KNeighborsClassifier.predict_proba calls took 4.5 s,
# 0.11 s each on breast cancer; the tests of neighbours, k-means, stacking and bagging 10-11 s CPU, with one
# thread 6-7 s). mlnotes itself is numpy-only.
import numpy  # noqa: E402,F401
import scipy.linalg  # noqa: E402,F401
import sklearn  # noqa: E402,F401
from threadpoolctl import threadpool_info, threadpool_limits  # noqa: E402

_BLAS_LIMIT = threadpool_limits(limits=1)
