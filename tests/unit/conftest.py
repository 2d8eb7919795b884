"""The unit tests mirror mlnotes: one folder per subpackage (tests/unit/<subpackage>/test_*.py).

Puts this folder on sys.path so every test module can import the shared ``assertions`` helpers.
"""
import sys
from pathlib import Path

HERE = str(Path(__file__).resolve().parent)
if HERE not in sys.path:
    sys.path.insert(0, HERE)

# One BLAS thread per test process: the suite runs in parallel processes (pytest -n 2 on a 2-core machine), and
# the small matrices of the tests gain nothing from threads, while oversubscribed BLAS threads spin against each
# other (measured: a 200 x 200 Cholesky factorisation took 0.12 s on a loaded machine).
from threadpoolctl import threadpool_limits  # noqa: E402

_BLAS_LIMIT = threadpool_limits(limits=1)
