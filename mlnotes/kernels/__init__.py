"""Kernels, their feature maps and random features (chapter 15, *Feature maps and kernels*).

Kernel matrices equal to :mod:`sklearn.metrics.pairwise`'s (``linear_kernel``, ``polynomial_kernel``,
``rbf_kernel``, ``laplacian_kernel``, ``sigmoid_kernel``, ``pairwise_kernels``), the explicit feature map of
the polynomial kernel, random Fourier features of the Gaussian kernel (``RBFSampler``, the interface of
:class:`sklearn.kernel_approximation.RBFSampler`), and ``check_kernel_matrix`` for the kernel methods that need
a symmetric positive semidefinite Gram matrix (chapters 14, 16 and 17).
"""

from ._feature_maps import polynomial_features_map
from ._pairwise import (
    KERNEL_PARAMS,
    KERNELS,
    laplacian_kernel,
    linear_kernel,
    pairwise_kernels,
    polynomial_kernel,
    rbf_kernel,
    sigmoid_kernel,
    squared_euclidean_distances,
)
from ._random_features import RBFSampler
from ._validation import check_kernel_matrix

__all__ = [
    "linear_kernel",
    "polynomial_kernel",
    "rbf_kernel",
    "laplacian_kernel",
    "sigmoid_kernel",
    "pairwise_kernels",
    "squared_euclidean_distances",
    "KERNELS",
    "KERNEL_PARAMS",
    "polynomial_features_map",
    "RBFSampler",
    "check_kernel_matrix",
]
