r"""Data-parallel gradients: one minibatch split across workers (chapter 6, *Gradient methods*).

Each of :math:`k` workers holds a copy of the parameters, computes the average gradient over its shard of
the minibatch, and the shard gradients are averaged (an *all-reduce*). Weighting each shard by its share of
the batch makes the result the full minibatch gradient exactly, for equal or unequal shards.
"""

import numbers

import numpy as np

from ..utils.validation import check_scalar

from ._validation import checked_gradient


def shards(batch, n_workers):
    """Split the sample indices ``batch`` into ``n_workers`` contiguous shards of near-equal size.

    Parameters
    ----------
    batch : array of int, shape (N,)
    n_workers : int, 1 <= n_workers <= N

    Returns
    -------
    list of ``n_workers`` arrays of int
        Sizes differ by at most one; they are equal when ``n_workers`` divides ``N``.
    """
    batch = np.asarray(batch)
    if batch.ndim != 1 or batch.size == 0 or not np.issubdtype(batch.dtype, np.integer):
        raise ValueError(f"batch must be a non-empty 1-D array of sample indices, got {batch!r}")
    n_workers = check_scalar(n_workers, "n_workers", numbers.Integral, min_val=1)
    if n_workers > batch.size:
        raise ValueError(f"n_workers = {n_workers} exceeds the batch size {batch.size}: a worker would be idle")
    return np.array_split(batch, int(n_workers))


def data_parallel_gradient(grad_batch, x, batch, n_workers):
    r"""The minibatch gradient computed by ``n_workers`` simulated workers and averaged.

    Parameters
    ----------
    grad_batch : callable, (array of shape (d,), array of int) -> array of shape (d,)
        ``grad_batch(x, idx)`` is the average gradient of the losses of samples ``idx`` at ``x``.
    x : array of shape (d,)
        The parameters, the same on every worker.
    batch : array of int, shape (N,)
        The minibatch, split by :func:`shards`.
    n_workers : int

    Returns
    -------
    g : array of shape (d,)
        :math:`\sum_{w=1}^k \frac{|B_w|}{|B|}\, g_{B_w}(x)`, which equals the minibatch gradient
        :math:`g_B(x) = \frac{1}{|B|}\sum_{j \in B} \nabla \ell_j(x)`.

    Notes
    -----
    With equal shards the weights are all :math:`1/k` and this is the plain average of the workers'
    gradients (derived in chapter 6, *Gradient methods*). With unequal shards the plain average would
    over-weight the samples of the smaller shards; the weights :math:`|B_w|/|B|` prevent that.
    """
    x = np.asarray(x, dtype=float)
    parts = shards(batch, n_workers)
    total = sum(len(part) for part in parts)
    return sum(len(part) / total * checked_gradient(lambda z, idx=part: grad_batch(z, idx), x) for part in parts)
