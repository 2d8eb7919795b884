"""Linear algebra: orthonormal bases, rank, null space, pseudo-inverse, definiteness and the
dominant eigenpair (chapter 1, *Linear algebra*).

Every function takes plain numpy arrays, validates them (clear ``ValueError``/``TypeError`` for
wrong shapes, NaN or infinity) and agrees with numpy/scipy where they have the same function:
``rank`` with ``numpy.linalg.matrix_rank``, ``null_space`` with ``scipy.linalg.null_space``,
``pinv`` with ``numpy.linalg.pinv``, ``power_iteration`` with ``numpy.linalg.eigh``.
"""

from ._eigen import is_psd, power_iteration
from ._gram_schmidt import gram_schmidt
from ._svd import null_space, pinv, rank, singular_values

__all__ = ["gram_schmidt", "rank", "singular_values", "null_space", "pinv", "is_psd", "power_iteration"]
