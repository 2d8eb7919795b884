r"""The bootstrap (chapter 20, *Bootstrap, bagging and random forests*): resampling with replacement, the
bootstrap distribution of a statistic, its standard error and confidence intervals.

A bootstrap sample of :math:`n` observations draws :math:`n` indices uniformly with replacement; observation
:math:`i` is left out with probability :math:`(1 - 1/n)^n \to 1/e`, so a bootstrap sample holds about 63% of
the distinct observations. The interval methods are those of :func:`scipy.stats.bootstrap` (percentile, basic,
BCa) and the normal interval :math:`\hat\theta \pm z_{1-\alpha/2}\,\widehat{\mathrm{SE}}`; with the same seed the
resamples are scipy's, so the intervals agree with scipy's to rounding.
"""

import inspect
import warnings
from dataclasses import dataclass
from numbers import Integral, Real

import numpy as np
from scipy.special import ndtr, ndtri

from ..utils.validation import as_float_vector, check_option, check_scalar

__all__ = ["bootstrap", "bootstrap_indices", "out_of_bag_mask", "BootstrapResult"]

METHODS = ("percentile", "basic", "bca", "normal")


def bootstrap_indices(n_samples, n_resamples=1, *, max_samples=None, random_state=None):
    r"""Indices of bootstrap samples: each row draws ``max_samples`` indices of ``range(n_samples)`` uniformly
    with replacement.

    Parameters
    ----------
    n_samples : int >= 1
        The number :math:`n` of observations resampled.
    n_resamples : int >= 1, default 1
        The number :math:`B` of bootstrap samples.
    max_samples : int >= 1, optional
        The size of each bootstrap sample (default :math:`n`).
    random_state : None, int or numpy Generator
        Seed of :func:`numpy.random.default_rng`. The draws are ``rng.integers(0, n, (B, m))``, the draws of
        :func:`scipy.stats.bootstrap` with ``rng=np.random.default_rng(random_state)``.

    Returns
    -------
    indices : ndarray of int of shape (n_resamples, max_samples)
    """
    n = check_scalar(n_samples, "n_samples", Integral, min_val=1)
    B = check_scalar(n_resamples, "n_resamples", Integral, min_val=1)
    m = n if max_samples is None else check_scalar(max_samples, "max_samples", Integral, min_val=1)
    return np.random.default_rng(random_state).integers(0, n, (B, m))


def out_of_bag_mask(indices, n_samples):
    r"""Which observations each bootstrap sample leaves out.

    Parameters
    ----------
    indices : array of int of shape (n_resamples, m)
        Bootstrap samples, as returned by :func:`bootstrap_indices`.
    n_samples : int
        The number of observations :math:`n`.

    Returns
    -------
    mask : ndarray of bool of shape (n_resamples, n_samples)
        ``mask[b, i]`` is True when observation ``i`` is not in sample ``b`` (it is *out of bag*).
    """
    indices = np.asarray(indices)
    n = check_scalar(n_samples, "n_samples", Integral, min_val=1)
    if indices.ndim != 2 or not np.issubdtype(indices.dtype, np.integer):
        raise ValueError(f"indices must be a 2-D integer array of shape (n_resamples, m), got {indices.dtype} "
                         f"of shape {indices.shape}")
    if indices.size and (indices.min() < 0 or indices.max() >= n):
        raise ValueError(f"indices must lie in [0, {n}), got values in [{indices.min()}, {indices.max()}]")
    counts = np.zeros((indices.shape[0], n), dtype=np.int64)
    np.add.at(counts, (np.arange(indices.shape[0])[:, None], indices), 1)
    return counts == 0


@dataclass(frozen=True)
class BootstrapResult:
    r"""What :func:`bootstrap` computes.

    Attributes
    ----------
    estimate : float
        The statistic on the data, :math:`\hat\theta = s(D_n)`.
    bootstrap_distribution : ndarray of shape (n_resamples,)
        The statistic on each bootstrap sample, :math:`\hat\theta^{*1}, \dots, \hat\theta^{*B}`.
    standard_error : float
        The bootstrap standard error, the standard deviation of the bootstrap distribution (ddof 1, as scipy).
    bias : float
        The bootstrap estimate of the bias, :math:`\bar\theta^* - \hat\theta`.
    confidence_interval : tuple (low, high)
    method : str
    confidence_level : float
    """

    estimate: float
    bootstrap_distribution: np.ndarray
    standard_error: float
    bias: float
    confidence_interval: tuple
    method: str
    confidence_level: float


def _as_samples(data):
    """``data`` as a tuple of equal-length 1-D float arrays (one sample, or several resampled together)."""
    if isinstance(data, (tuple, list)) and len(data) and np.ndim(data[0]) == 1:
        samples = tuple(as_float_vector(sample, f"data[{k}]") for k, sample in enumerate(data))
        n = samples[0].shape[0]
        for k, sample in enumerate(samples):
            if sample.shape[0] != n:
                raise ValueError(f"the samples of data are resampled together (paired), so they must have equal "
                                 f"lengths: data[0] has {n}, data[{k}] has {sample.shape[0]}")
        return samples
    return (as_float_vector(data, "data"),)


def _vectorised(statistic, vectorized):
    """``statistic`` as a function of samples of shape (..., n) reducing the last axis."""
    if not callable(statistic):
        raise TypeError(f"statistic must be callable, got {type(statistic).__name__}")
    if vectorized is None:
        try:
            vectorized = "axis" in inspect.signature(statistic).parameters
        except (TypeError, ValueError):               # a builtin without a signature
            vectorized = False
    if vectorized:
        return lambda *samples: statistic(*samples, axis=-1)

    def along_rows(*samples):
        if samples[0].ndim == 1:
            return statistic(*samples)
        # a Python loop over the resamples (not over observations): statistic sees one sample at a time
        return np.array([statistic(*rows) for rows in zip(*samples)])
    return along_rows


def _percentile_of_score(values, score):
    """The fraction of ``values`` below ``score``, ties counted half."""
    return (np.count_nonzero(values < score) + np.count_nonzero(values <= score)) / (2 * values.shape[-1])


def _bca_levels(samples, stat, estimate, replicates, alpha):
    r"""The BCa levels :math:`(\alpha_1, \alpha_2)` (Efron and Tibshirani 1993, eqs. 14.9-14.15): the bias
    correction :math:`\hat z_0 = \Phi^{-1}(\text{fraction of } \hat\theta^* < \hat\theta)` and the acceleration
    :math:`\hat a` from the jackknife."""
    z0 = ndtri(_percentile_of_score(replicates, estimate))
    n = samples[0].shape[0]
    keep = ~np.eye(n, dtype=bool)
    leave_one_out = np.broadcast_to(np.arange(n), (n, n))[keep].reshape(n, n - 1)
    jackknife = np.asarray(stat(*(sample[leave_one_out] for sample in samples)), dtype=float)
    U = (n - 1) * (jackknife.mean() - jackknife)
    with np.errstate(invalid="ignore", divide="ignore"):       # all jackknife values equal: 0/0, reported below
        a = (U**3).sum() / n**3 / 6 / ((U**2).sum() / n**2) ** 1.5
    z_alpha = ndtri(alpha)
    levels = []
    for z in (z_alpha, -z_alpha):
        levels.append(ndtr(z0 + (z0 + z) / (1 - a * (z0 + z))))
    return levels


def bootstrap(data, statistic, *, n_resamples=9999, confidence_level=0.95, method="BCa", vectorized=None,
              random_state=None):
    r"""The bootstrap distribution of a statistic, its standard error and a confidence interval.

    Parameters
    ----------
    data : array-like of shape (n,), or a tuple of such arrays
        The observations :math:`D_n = (x_1, \dots, x_n)`. Several arrays of equal length are resampled together
        (the same indices for each: pairs :math:`(x_i, y_i)`), as ``paired=True`` in scipy.
    statistic : callable
        ``statistic(*samples)`` returns a number. If it takes an ``axis`` argument (or ``vectorized=True``) it is
        called once on all resamples, ``statistic(*samples, axis=-1)`` with samples of shape (n_resamples, n);
        otherwise once per resample.
    n_resamples : int >= 1, default 9999
        The number :math:`B` of bootstrap samples.
    confidence_level : float in (0, 1), default 0.95
    method : {"BCa", "percentile", "basic", "normal"}, default "BCa"
        ``"percentile"``: the :math:`\alpha/2` and :math:`1 - \alpha/2` quantiles of the bootstrap distribution;
        ``"basic"``: :math:`2\hat\theta` minus those (reflected); ``"BCa"``: the percentile interval at levels
        corrected for bias and skewness (scipy's default); ``"normal"``: :math:`\hat\theta \pm
        z_{1-\alpha/2}\,\widehat{\mathrm{SE}}` (the notes' :math:`\hat\mu \pm \sqrt{\text{bootstrap variance}}`
        is this with :math:`z = 1`). Case-insensitive.
    vectorized : bool, optional
        Whether ``statistic`` takes ``axis``; None detects it from the signature.
    random_state : None, int or numpy Generator
        Seed of :func:`numpy.random.default_rng`; the same seed as scipy's ``rng`` gives scipy's resamples.

    Returns
    -------
    BootstrapResult

    Raises
    ------
    ValueError
        Empty data, NaN or infinity, samples of unequal lengths, ``n_resamples < 1``, a confidence level outside
        (0, 1), an unknown method, BCa on fewer than 2 observations, or a statistic that does not return one
        finite number per resample.
    """
    samples = _as_samples(data)
    stat = _vectorised(statistic, vectorized)
    B = check_scalar(n_resamples, "n_resamples", Integral, min_val=1)
    level = check_scalar(confidence_level, "confidence_level", Real, min_val=0, max_val=1,
                         include_boundaries="neither")
    method = check_option(method.lower() if isinstance(method, str) else method, "method", METHODS)
    n = samples[0].shape[0]
    if method == "bca" and n < 2:
        raise ValueError("the BCa interval needs at least 2 observations (it jackknifes the statistic)")
    estimate = np.asarray(stat(*samples), dtype=float)
    if estimate.shape != ():
        raise ValueError(f"statistic must return one number per sample, got shape {estimate.shape}")
    indices = bootstrap_indices(n, B, random_state=random_state)
    replicates = np.asarray(stat(*(sample[indices] for sample in samples)), dtype=float).reshape(-1)
    if replicates.shape != (B,):
        raise ValueError(f"statistic must return one number per resample: {B} expected, got {replicates.shape}")
    if not np.isfinite(replicates).all():
        raise ValueError("statistic returned NaN or infinity on a bootstrap sample")
    estimate = float(estimate)
    alpha = (1 - level) / 2
    standard_error = float(replicates.std(ddof=1)) if B > 1 else 0.0
    if method == "normal":
        z = float(ndtri(1 - alpha))
        interval = (estimate - z * standard_error, estimate + z * standard_error)
    else:
        levels = _bca_levels(samples, stat, estimate, replicates, alpha) if method == "bca" else [alpha, 1 - alpha]
        if not np.isfinite(levels).all():
            warnings.warn("the BCa interval cannot be computed: the jackknife values of the statistic are all equal "
                          "(a degenerate sample, or a statistic such as the minimum); the interval is NaN",
                          RuntimeWarning, stacklevel=2)
            levels = [np.nan, np.nan]
        low, high = np.quantile(replicates, levels) if np.isfinite(levels).all() else (np.nan, np.nan)
        if method == "basic":
            low, high = 2 * estimate - high, 2 * estimate - low
        interval = (float(low), float(high))
    return BootstrapResult(estimate=estimate, bootstrap_distribution=replicates, standard_error=standard_error,
                           bias=float(replicates.mean() - estimate), confidence_interval=interval,
                           method=method, confidence_level=level)
