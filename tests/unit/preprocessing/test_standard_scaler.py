"""StandardScaler: scikit-learn's results (to the last bit here), weights, constant features, errors."""

import numpy as np
import pytest
import sklearn.preprocessing as skp

from mlnotes.preprocessing import StandardScaler, weighted_mean_and_variance

RNG = np.random.default_rng(0)
# columns: standard, large scale, tiny spread on a huge offset, constant, constant up to the last bit
X = RNG.normal(size=(50, 5)) * [1.0, 1e3, 1e-3, 0.0, 0.0] + [0.0, 5.0, 1e6, 3.3, 0.1]
X[7, 4] = np.nextafter(0.1, 1.0)
W = RNG.uniform(0, 2, 50)
W[:4] = 0.0


@pytest.mark.filterwarnings("ignore:invalid value encountered in sqrt")      # scikit-learn's, on a constant column
@pytest.mark.parametrize("sample_weight", [None, W])
@pytest.mark.parametrize("with_mean, with_std", [(True, True), (False, True), (True, False), (False, False)])
def test_agrees_with_scikit_learn(with_mean, with_std, sample_weight):
    ours = StandardScaler(with_mean=with_mean, with_std=with_std).fit(X, sample_weight=sample_weight)
    theirs = skp.StandardScaler(with_mean=with_mean, with_std=with_std).fit(X, sample_weight=sample_weight)
    for name in ("mean_", "var_", "scale_"):
        a, b = getattr(ours, name), getattr(theirs, name)
        assert (a is None) == (b is None), name
        if a is not None:
            np.testing.assert_allclose(a, b, rtol=1e-15, atol=0, err_msg=name)
    assert ours.n_samples_seen_ == theirs.n_samples_seen_
    np.testing.assert_allclose(ours.transform(X), theirs.transform(X), rtol=1e-13, atol=1e-13)
    np.testing.assert_allclose(ours.inverse_transform(ours.transform(X)), X, rtol=1e-12)


def test_standardised_columns_have_mean_zero_and_variance_one_and_constants_scale_one():
    Z = StandardScaler().fit_transform(X)
    np.testing.assert_allclose(Z[:, :2].mean(axis=0), 0.0, atol=1e-14)
    np.testing.assert_allclose(Z[:, :2].var(axis=0), 1.0, rtol=1e-13)
    # spread 1e-3 on an offset of 1e6: the data themselves are rounded to 1e6 eps = 1e-10, 1e-7 of the spread
    assert abs(Z[:, 2].mean()) < 1e-6 and abs(Z[:, 2].var() - 1.0) < 1e-6
    scaler = StandardScaler().fit(X)
    np.testing.assert_array_equal(scaler.scale_[3:], [1.0, 1.0])      # constant: centred, not blown up
    assert np.abs(Z[:, 3:]).max() < 1e-14


def test_a_weight_of_two_is_a_duplicated_row():
    w = np.ones(50)
    w[10] = 2.0
    a = StandardScaler().fit(X[:, :3], sample_weight=w)
    b = StandardScaler().fit(np.vstack([X[:, :3], X[10:11, :3]]))
    np.testing.assert_allclose(a.mean_, b.mean_, rtol=1e-14)
    np.testing.assert_allclose(a.var_, b.var_, rtol=1e-12)
    mean, var, total = weighted_mean_and_variance(X[:, :3], w)
    assert total == 51.0
    np.testing.assert_allclose(var, np.cov(np.vstack([X[:, :3], X[10:11, :3]]).T, ddof=0).diagonal(), rtol=1e-12)


@pytest.mark.parametrize("make, error, message", [
    (lambda: StandardScaler().fit(X, sample_weight=-W), ValueError, "non-negative"),
    (lambda: StandardScaler().fit(X, sample_weight=np.zeros(50)), ValueError, "all are zero"),
    (lambda: StandardScaler().fit(X, sample_weight=np.ones(3)), ValueError, "3 entries but X has 50"),
    (lambda: StandardScaler().fit(np.where(X > 2, np.nan, X)), ValueError, "NaN"),
    (lambda: StandardScaler().fit(X).transform(X[:, :2]), ValueError, "features"),
    (lambda: StandardScaler(with_mean="yes").fit(X), TypeError, "with_mean must be True or False"),
])
def test_bad_input_gets_a_clear_error(make, error, message):
    with pytest.raises(error, match=message):
        make()
