"""Subgradient descent of mlnotes.optim: the best iterate, the non-monotone objective, the minimiser of
a non-smooth convex problem (against scipy's linear programming), and clear errors."""

import numpy as np
import pytest
from scipy import optimize

from mlnotes import optim as O


def test_subgradient_descent_returns_the_best_iterate_and_reaches_the_l1_minimiser():
    rng = np.random.default_rng(4)
    A, b = rng.normal(size=(30, 3)), rng.normal(size=30)
    f = lambda x: np.abs(A @ x - b).sum()
    subgrad = lambda x: A.T @ np.sign(A @ x - b)
    # least absolute deviations as a linear program: minimise sum(t) with -t <= Ax - b <= t
    c = np.r_[np.zeros(3), np.ones(30)]
    A_ub = np.block([[A, -np.eye(30)], [-A, -np.eye(30)]])
    lp = optimize.linprog(c, A_ub=A_ub, b_ub=np.r_[b, -b], bounds=[(None, None)] * 3 + [(0, None)] * 30)
    result = O.subgradient_descent(f, subgrad, np.zeros(3), step_size=O.inverse_sqrt(0.05), max_iter=20000)
    assert result.fun == result.values.min() and result.fun == f(result.x)
    assert np.any(np.diff(result.values) > 0)                 # the objective is not monotone
    assert result.fun - lp.fun < 1e-3 * lp.fun
    np.testing.assert_allclose(result.x, lp.x[:3], atol=1e-2)


def test_subgradient_descent_stops_at_a_zero_subgradient():
    result = O.subgradient_descent(lambda x: abs(x[0] - 2.0), lambda x: np.sign(x - 2.0), [0.0], step_size=0.5,
                                   max_iter=100)
    assert result.converged and result.x[0] == 2.0 and result.n_iter == 4


def test_bad_step_size_is_rejected():
    with pytest.raises(ValueError, match="eta0"):
        O.subgradient_descent(lambda x: 0.0, lambda x: x, [1.0], step_size=0.0)
