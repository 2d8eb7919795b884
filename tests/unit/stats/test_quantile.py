"""mlnotes.stats.weighted_quantile and weighted_quantile_by_group: scikit-learn's inverted-CDF weighted percentile,
one implementation for the baselines (chapter 18) and the boosting leaf steps (chapter 21); their errors."""

import numpy as np
import pytest
from sklearn.utils.stats import _weighted_percentile

from mlnotes.dummy import weighted_quantile as dummy_weighted_quantile
from mlnotes.ensemble import weighted_quantile_by_group as ensemble_by_group
from mlnotes.stats import weighted_quantile, weighted_quantile_by_group


def test_the_packages_of_chapters_18_and_21_export_the_same_functions():
    assert dummy_weighted_quantile is weighted_quantile
    assert ensemble_by_group is weighted_quantile_by_group


@pytest.mark.parametrize("seed", range(6))
def test_equals_scikit_learns_weighted_percentile(seed):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(1, 30))
    values = rng.integers(0, 6, n).astype(float) if seed % 2 else rng.normal(size=n)   # ties in half the cases
    weights = rng.random(n) * (rng.random(n) > 0.3)
    weights[0] += 0.5                                                          # at least one positive weight
    for q in (0.0, 0.1, 0.5, 0.9, 1.0):
        expected = _weighted_percentile(values, weights, 100 * q)
        assert weighted_quantile(values, weights, q) == expected
        assert weighted_quantile(values[:, None], weights, q)[0] == expected
        assert weighted_quantile_by_group(values, weights, np.zeros(n, int), 1, q)[0] == expected


def test_groups_and_columns_are_computed_separately():
    rng = np.random.default_rng(7)
    values, weights, groups = rng.normal(size=40), rng.random(40) + 0.01, rng.integers(0, 3, 40)
    groups[:3] = [0, 1, 2]
    by_group = weighted_quantile_by_group(values, weights, groups, 3, 0.3)
    for k in range(3):
        assert by_group[k] == weighted_quantile(values[groups == k], weights[groups == k], 0.3)
    Y = rng.normal(size=(25, 4))
    w = rng.random(25) + 0.01
    np.testing.assert_array_equal(weighted_quantile(Y, w, 0.7), [weighted_quantile(Y[:, j], w, 0.7) for j in range(4)])


def test_q_one_reaches_the_largest_value_of_positive_weight_despite_rounding():
    # the cumulative weights 0.1 + 0.2 + ... are not exact: the total is the last cumulative weight itself
    values = np.arange(10.0)
    weights = np.full(10, 0.1)
    weights[-1] = 0.0
    assert weighted_quantile(values, weights, 1.0) == 8.0
    assert weighted_quantile_by_group(values, weights, np.zeros(10, int), 1, 1.0)[0] == 8.0


@pytest.mark.parametrize("args, error, match", [
    ((np.array([3.0, 1.0, 2.0]), np.ones(3), 2.0), ValueError, "q must be"),
    ((np.array([3.0, 1.0, 2.0]), np.zeros(3), 0.5), ValueError, "all are zero"),
    ((np.array([3.0, 1.0, 2.0]), -np.ones(3), 0.5), ValueError, "non-negative"),
    ((np.array([np.nan, 1.0, 2.0]), np.ones(3), 0.5), ValueError, "NaN"),
    ((np.array([3.0, 1.0, 2.0]), np.ones(2), 0.5), ValueError, "sample_weight has 2 entries"),
    ((np.zeros((2, 2, 2)), np.ones(2), 0.5), ValueError, "shape"),
    ((np.array([]), np.ones(0), 0.5), ValueError, "non-empty"),
    ((["a", "b"], np.ones(2), 0.5), TypeError, "numeric"),
])
def test_weighted_quantile_errors(args, error, match):
    with pytest.raises(error, match=match):
        weighted_quantile(*args)


@pytest.mark.parametrize("groups, n_groups, q, weights, error, match", [
    ([0, 0, 1, 1], 2, 2.0, None, ValueError, "q must be"),
    ([0, 0, 1, 1], 2, 0.5, [0.0, 0.0, 0.0, 0.0], ValueError, "all are zero"),
    ([0, 0, 1, 1], 3, 0.5, None, ValueError, "group 2 has no value of positive weight"),
    ([0, 0, 1, 1], 2, 0.5, [1.0, 1.0, 0.0, 0.0], ValueError, "group 1 has no value of positive weight"),
    ([0, 0, 1, 5], 2, 0.5, None, ValueError, r"groups must lie in \[0, n_groups\)"),
    ([0, 0, -1, 1], 2, 0.5, None, ValueError, r"groups must lie in \[0, n_groups\)"),
    ([0, 0, 1], 2, 0.5, None, ValueError, "shape"),
    ([0.0, 0.5, 1.0, 1.0], 2, 0.5, None, TypeError, "integers"),
    ([0, 0, 1, 1], 0, 0.5, None, ValueError, "n_groups"),
])
def test_weighted_quantile_by_group_errors(groups, n_groups, q, weights, error, match):
    values = np.array([3.0, 1.0, 2.0, 5.0])
    weights = np.ones(4) if weights is None else np.array(weights)
    with pytest.raises(error, match=match):
        weighted_quantile_by_group(values, weights, np.array(groups), n_groups, q)
