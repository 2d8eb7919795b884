"""Kernels, their feature maps and random features (chapter 15, *Feature maps and kernels*).

Kernel matrices equal to :mod:`sklearn.metrics.pairwise`'s (``linear_kernel``, ``polynomial_kernel``,
``rbf_kernel``, ``laplacian_kernel``, ``sigmoid_kernel``, ``pairwise_kernels``), the explicit feature map of
the polynomial kernel, random Fourier features of the Gaussian kernel (``RBFSampler``, the interface of
:class:`sklearn.kernel_approximation.RBFSampler`), Gaussian random projections (``GaussianRandomProjection``,
``johnson_lindenstrauss_min_dim``), the exact reduction of inner-product search to cosine similarity
(``mips_transform``), and ``check_kernel_matrix`` for the kernel methods that need
a symmetric positive semidefinite Gram matrix (chapters 14, 16 and 17).

The kernel methods of chapter 16 that predict (``KernelRidge``; ``KernelGDRegressor`` and ``KernelGDClassifier``,
kernelised gradient descent with its step ``kernel_gd_direction``; ``KernelKNeighborsClassifier`` and
``KernelNearestCentroid``, distances in feature space), and ``KernelMixin``, the kernel hyperparameters and kernel
matrices they share with ``mlnotes.cluster.KernelKMeans`` and ``mlnotes.decomposition.KernelPCA``.
"""

from ._base import KERNEL_NAMES, KernelMixin, check_kernel_params, kernel_matrix
from ._feature_maps import mips_transform, polynomial_features_map
from ._pairwise import (
    KERNEL_PARAMS,
    KERNELS,
    kernel_diagonal,
    laplacian_kernel,
    linear_kernel,
    pairwise_kernels,
    polynomial_kernel,
    rbf_kernel,
    sigmoid_kernel,
    squared_euclidean_distances,
)
from ._gradient_descent import KernelGDClassifier, KernelGDRegressor, kernel_gd_direction
from ._prototypes import KernelKNeighborsClassifier, KernelNearestCentroid
from ._random_features import GaussianRandomProjection, RBFSampler, johnson_lindenstrauss_min_dim
from ._ridge import KernelRidge
from ._validation import check_kernel_matrix

__all__ = [
    "linear_kernel",
    "polynomial_kernel",
    "rbf_kernel",
    "laplacian_kernel",
    "sigmoid_kernel",
    "pairwise_kernels",
    "squared_euclidean_distances",
    "kernel_diagonal",
    "KERNELS",
    "KERNEL_PARAMS",
    "polynomial_features_map",
    "RBFSampler",
    "GaussianRandomProjection",
    "johnson_lindenstrauss_min_dim",
    "mips_transform",
    "check_kernel_matrix",
    "KernelMixin",
    "check_kernel_params",
    "kernel_matrix",
    "KERNEL_NAMES",
    "KernelRidge",
    "KernelGDRegressor",
    "KernelGDClassifier",
    "kernel_gd_direction",
    "KernelKNeighborsClassifier",
    "KernelNearestCentroid",
]
