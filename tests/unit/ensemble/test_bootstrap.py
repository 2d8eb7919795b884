"""The bootstrap: resampling indices, the 1 - 1/e inclusion fraction, and intervals equal to scipy.stats.bootstrap's
with the same seed (percentile, basic, BCa; one sample and paired samples), plus the errors."""

import numpy as np
import pytest
import scipy.stats

from mlnotes.ensemble import bootstrap, bootstrap_indices, out_of_bag_mask


def _covariance(x, y, axis=-1):
    return np.mean(x * y, axis=axis) - np.mean(x, axis=axis) * np.mean(y, axis=axis)


@pytest.mark.parametrize("method", ["percentile", "basic", "BCa"])
@pytest.mark.parametrize("seed", [0, 1])
def test_one_sample_intervals_equal_scipy(method, seed):
    x = np.random.default_rng(seed + 10).exponential(size=25)
    ours = bootstrap(x, np.mean, n_resamples=999, method=method, random_state=seed)
    theirs = scipy.stats.bootstrap((x,), np.mean, n_resamples=999, method=method, rng=np.random.default_rng(seed))
    np.testing.assert_allclose(ours.confidence_interval, theirs.confidence_interval, rtol=1e-12)
    np.testing.assert_allclose(ours.bootstrap_distribution, theirs.bootstrap_distribution, rtol=1e-12)
    np.testing.assert_allclose(ours.standard_error, theirs.standard_error, rtol=1e-12)


@pytest.mark.parametrize("method", ["percentile", "basic", "BCa"])
def test_paired_and_non_vectorised_statistics_equal_scipy(method):
    rng = np.random.default_rng(3)
    x = rng.normal(size=20)
    y = x + rng.normal(size=20)
    ours = bootstrap((x, y), _covariance, n_resamples=300, method=method, random_state=5)
    theirs = scipy.stats.bootstrap((x, y), _covariance, paired=True, n_resamples=300, method=method,
                                   rng=np.random.default_rng(5))
    np.testing.assert_allclose(ours.confidence_interval, theirs.confidence_interval, rtol=1e-12)
    # a statistic without an axis argument is called once per resample: the same numbers
    median = bootstrap(x, lambda s: float(np.median(s)), n_resamples=300, method=method, random_state=5)
    theirs = scipy.stats.bootstrap((x,), np.median, n_resamples=300, method=method, rng=np.random.default_rng(5))
    np.testing.assert_allclose(median.confidence_interval, theirs.confidence_interval, rtol=1e-12)


def test_normal_interval_estimate_and_bias():
    x = np.arange(10.0) ** 2
    result = bootstrap(x, np.mean, n_resamples=2000, method="normal", confidence_level=0.9, random_state=0)
    z = scipy.stats.norm.ppf(0.95)
    assert result.estimate == pytest.approx(x.mean())
    assert result.confidence_interval == pytest.approx((x.mean() - z * result.standard_error,
                                                        x.mean() + z * result.standard_error))
    assert result.bias == pytest.approx(result.bootstrap_distribution.mean() - x.mean())
    # the standard error of the mean: the plug-in sigma / sqrt(n), up to Monte Carlo error
    assert result.standard_error == pytest.approx(x.std() / np.sqrt(10), rel=0.05)


def test_indices_are_scipys_draws_and_inclusion_fraction_is_one_minus_one_over_e():
    indices = bootstrap_indices(50, 4000, random_state=2)
    assert indices.shape == (4000, 50) and indices.min() >= 0 and indices.max() < 50
    np.testing.assert_array_equal(indices, np.random.default_rng(2).integers(0, 50, (4000, 50)))
    out = out_of_bag_mask(indices, 50)
    exact = 1 - (1 - 1 / 50) ** 50
    # 200,000 Bernoulli(0.636) draws (dependent within a row): the mean is within 0.005 of the exact probability
    assert abs((~out).mean() - exact) < 0.005
    assert out[0].sum() == 50 - len(np.unique(indices[0]))
    assert bootstrap_indices(7, 3, max_samples=2, random_state=0).shape == (3, 2)


def test_one_observation_and_constant_data():
    assert bootstrap([4.0], np.mean, n_resamples=5, method="percentile", random_state=0).confidence_interval == (4, 4)
    with pytest.warns(RuntimeWarning, match="BCa interval cannot be computed"):
        result = bootstrap(np.ones(6), np.mean, n_resamples=20, random_state=0)
    assert np.isnan(result.confidence_interval).all()


@pytest.mark.parametrize("kwargs, error, match", [
    ({"data": [1.0, np.nan]}, ValueError, "NaN"),
    ({"data": [1.0, np.inf]}, ValueError, "infinity"),
    ({"data": []}, ValueError, "empty"),
    ({"data": ([1.0, 2.0], [1.0])}, ValueError, "equal lengths"),
    ({"n_resamples": 0}, ValueError, "n_resamples"),
    ({"confidence_level": 1.0}, ValueError, "confidence_level"),
    ({"method": "studentized"}, ValueError, "method"),
    ({"statistic": "mean"}, TypeError, "callable"),
    ({"statistic": lambda s, axis=-1: np.sort(s, axis=axis)}, ValueError, "one number"),
    ({"data": [3.0], "method": "BCa"}, ValueError, "at least 2"),
])
def test_errors(kwargs, error, match):
    arguments = {"data": [1.0, 2.0, 5.0], "statistic": np.mean, "n_resamples": 10, "random_state": 0, **kwargs}
    data, statistic = arguments.pop("data"), arguments.pop("statistic")
    with pytest.raises(error, match=match):
        bootstrap(data, statistic, **arguments)


def test_index_errors():
    with pytest.raises(ValueError, match="n_samples"):
        bootstrap_indices(0)
    with pytest.raises(ValueError, match=r"\[0, 3\)"):
        out_of_bag_mask(np.array([[0, 3]]), 3)
