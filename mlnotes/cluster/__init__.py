"""Clustering (chapter 16, *Kernel methods*, for now): ``KernelKMeans``, Lloyd's k-means in the feature space of a
kernel (with a linear kernel, scikit-learn's ``KMeans(algorithm="lloyd")`` from the same start), and its distance
step ``kernel_kmeans_distances``.
"""

from ._kernel_kmeans import KernelKMeans, kernel_kmeans_distances

__all__ = ["KernelKMeans", "kernel_kmeans_distances"]
