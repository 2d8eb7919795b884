"""Decompositions (chapter 16, *Kernel methods*, for now): ``KernelPCA``, principal components in the feature
space of a kernel (an addition to the notes), and ``center_kernel``, centring a kernel matrix in feature space.
"""

from ._kernel_pca import KernelPCA, center_kernel

__all__ = ["KernelPCA", "center_kernel"]
