"""Numerical tests of :mod:`mlnotes.linalg` (and the chapter's widget) against numpy, scipy and
first principles.

Tolerance convention: ``assert_close(actual, expected, tol)`` checks
``|actual - expected| <= tol * max(1, max|expected|)`` elementwise (with equal shapes). The
default ``tol = 1e-10`` is used for quantities computed from one SVD or eigendecomposition of the
well-conditioned seeded matrices below (condition numbers <= 1e3 on the non-zero singular
values); looser tolerances are stated where a test uses them (iterative or ill-conditioned cases).
Subspaces are compared through their orthogonal projectors ``Q Q^T``, which do not depend on the
choice of basis.

References are independent of mlnotes: ``np.linalg.matrix_rank``, ``np.linalg.svd``,
``np.linalg.pinv``, ``np.linalg.lstsq``, ``np.linalg.qr``, ``np.linalg.eigh``,
``scipy.linalg.null_space``. All data come from seeded ``np.random.default_rng`` generators.
"""

import warnings

import numpy as np
import pytest
import scipy.linalg
from sklearn.exceptions import ConvergenceWarning

from mlnotes.linalg import gram_schmidt, is_psd, null_space, pinv, power_iteration, rank, singular_values
from mlnotes.widgets import draw_matrix_action, matrix_action_demo
from assertions import close_within

SEEDS = [0, 1, 2]
# (m, n, rank): square, tall, wide, rank-deficient, 1x1, a single row and column, rank 0
CASES = [(1, 1, 1), (4, 4, 4), (7, 3, 3), (3, 7, 3), (6, 5, 2), (5, 8, 1), (1, 6, 1), (6, 1, 1),
         (5, 4, 0), (30, 20, 12)]
CASE_IDS = [f"{m}x{n}-rank{r}" for m, n, r in CASES]
METHODS = ["modified", "classical"]


# --------------------------------------------------------------------------- helpers


assert_close = close_within(1e-10)


def make_matrix(seed, m, n, r, cond=100.0):
    """A seeded m x n matrix of rank r whose non-zero singular values span [1, cond] (log-spaced)."""
    rng = np.random.default_rng(seed)
    U = np.linalg.qr(rng.standard_normal((m, m)))[0][:, :r]
    V = np.linalg.qr(rng.standard_normal((n, n)))[0][:, :r]
    s = np.geomspace(cond, 1.0, r) if r > 1 else np.ones(r)
    return (U * s) @ V.T


def projector(Q):
    """The orthogonal projector onto the span of the orthonormal columns of Q."""
    return Q @ Q.T


def column_space_projector(A):
    """Projector onto the column space of A, from numpy's SVD and numpy's rank."""
    U = np.linalg.svd(A)[0]
    return projector(U[:, :np.linalg.matrix_rank(A)])


def sym_eig_matrix(seed, eigenvalues):
    """A seeded symmetric matrix with the given eigenvalues."""
    d = len(eigenvalues)
    Q = np.linalg.qr(np.random.default_rng(seed).standard_normal((d, d)))[0]
    return (Q * np.asarray(eigenvalues, dtype=float)) @ Q.T


# --------------------------------------------------------------------------- rank, singular values


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("m, n, r", CASES, ids=CASE_IDS)
def test_rank_matches_numpy_and_construction(m, n, r, seed):
    A = make_matrix(seed, m, n, r)
    assert rank(A) == np.linalg.matrix_rank(A) == r
    assert rank(A.T) == r                               # row rank = column rank


@pytest.mark.parametrize("seed", SEEDS)
def test_rank_tol_is_absolute_as_in_numpy(seed):
    A = make_matrix(seed, 6, 6, 6, cond=1e6)        # singular values from 1e6 down to 1
    for tol in [0.0, 0.5, 10.0, 1e3, 1e7]:
        assert rank(A, tol=tol) == np.linalg.matrix_rank(A, tol=tol)
    assert rank(A, tol=1e7) == 0


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("m, n, r", CASES, ids=CASE_IDS)
def test_singular_values_match_numpy(m, n, r, seed):
    A = make_matrix(seed, m, n, r)
    s = singular_values(A)
    assert_close(s, np.linalg.svd(A, compute_uv=False))
    assert np.all(np.diff(s) <= 0) and np.all(s >= 0)


@pytest.mark.parametrize("seed", SEEDS)
def test_rank_of_product_and_gram_matrix(seed):
    rng = np.random.default_rng(seed)
    for _ in range(20):
        m, k, n = rng.integers(1, 9, size=3)
        A = make_matrix(int(rng.integers(1e6)), m, k, int(rng.integers(0, min(m, k) + 1)))
        B = make_matrix(int(rng.integers(1e6)), k, n, int(rng.integers(0, min(k, n) + 1)))
        assert rank(A @ B) <= min(rank(A), rank(B))
        assert rank(A.T @ A) == rank(A) == rank(A @ A.T)


# --------------------------------------------------------------------------- null space


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("m, n, r", CASES, ids=CASE_IDS)
def test_null_space_matches_scipy_up_to_rotation(m, n, r, seed):
    A = make_matrix(seed, m, n, r)
    N = null_space(A)
    N_ref = scipy.linalg.null_space(A)
    assert N.shape == N_ref.shape == (n, n - r)          # rank-nullity
    assert_close(projector(N), projector(N_ref))
    assert_close(N.T @ N, np.eye(n - r))
    assert_close(A @ N, np.zeros((m, n - r)))


@pytest.mark.parametrize("seed", SEEDS)
def test_null_space_rcond_matches_scipy(seed):
    A = make_matrix(seed, 5, 7, 5, cond=1e6)
    for rcond in [1e-8, 1e-5, 1e-4, 0.5]:   # cut-offs between the singular values 1e6, 3e4, 1e3, 32, 1
        N, N_ref = null_space(A, rcond=rcond), scipy.linalg.null_space(A, rcond=rcond)
        assert N.shape == N_ref.shape
        assert_close(projector(N), projector(N_ref))
    assert null_space(A, rcond=1e-8).shape == (7, 2) and null_space(A, rcond=1e-4).shape == (7, 4)


def test_null_space_of_the_chapter_example():
    # the chapter's rank-nullity example: columns (1, 2, 1), (2, 4, 0), (3, 6, 1); rank 2, nullity 1
    A = np.array([[1.0, 2.0, 3.0], [2.0, 4.0, 6.0], [1.0, 0.0, 1.0]])
    N = null_space(A)
    assert N.shape == (3, 1) and rank(A) == 2
    expected = np.array([1.0, 1.0, -1.0]) / np.sqrt(3)  # by hand: x1 + 2 x2 + 3 x3 = 0, x1 + x3 = 0
    assert_close(np.abs(N[:, 0]), np.abs(expected))
    assert_close(projector(N), np.outer(expected, expected))


# --------------------------------------------------------------------------- pseudo-inverse


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("m, n, r", CASES, ids=CASE_IDS)
def test_pinv_matches_numpy_and_satisfies_penrose(m, n, r, seed):
    A = make_matrix(seed, m, n, r)
    P = pinv(A)
    assert_close(P, np.linalg.pinv(A, rtol=None))         # numpy's API default max(M, N) * eps
    assert_close(A @ P @ A, A)
    assert_close(P @ A @ P, P)
    assert_close((A @ P).T, A @ P)
    assert_close((P @ A).T, P @ A)


@pytest.mark.parametrize("seed", SEEDS)
def test_pinv_rcond_matches_numpy(seed):
    A = make_matrix(seed, 6, 4, 4, cond=1e6)
    for rcond in [1e-8, 1e-5, 1e-3]:
        assert_close(pinv(A, rcond=rcond), np.linalg.pinv(A, rcond=rcond), tol=1e-10)


@pytest.mark.parametrize("seed", SEEDS)
def test_pinv_full_column_rank_is_the_normal_equations_inverse(seed):
    A = make_matrix(seed, 9, 4, 4, cond=10.0)
    assert_close(pinv(A), np.linalg.solve(A.T @ A, A.T))


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("m, n, r", [(3, 6, 3), (6, 3, 3), (6, 5, 2), (5, 8, 1)])
def test_pinv_gives_the_minimum_norm_least_squares_solution(m, n, r, seed):
    A = make_matrix(seed, m, n, r)
    u = np.random.default_rng(seed + 100).standard_normal(m)
    x = pinv(A) @ u
    assert_close(x, np.linalg.lstsq(A, u, rcond=None)[0])
    assert_close(null_space(A).T @ x, np.zeros(n - r))   # no component in the null space


def test_pinv_worked_example_of_the_chapter():
    # A = 5 u u^T with u = (1, 2)/sqrt(5), so A^+ = u u^T / 5 = A / 25
    A = np.array([[1.0, 2.0], [2.0, 4.0]])
    assert_close(pinv(A), A / 25)
    assert_close(pinv(A) @ [1.0, 2.0], [0.2, 0.4])


def test_zero_matrix():
    Z = np.zeros((3, 2))
    assert rank(Z) == 0
    assert_close(null_space(Z), np.eye(2))
    assert_close(pinv(Z), np.zeros((2, 3)))
    assert gram_schmidt(Z).shape == (3, 0)


# --------------------------------------------------------------------------- Gram-Schmidt


@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("m, n, r", CASES, ids=CASE_IDS)
def test_gram_schmidt_orthonormal_basis_of_column_space(m, n, r, seed, method):
    A = make_matrix(seed, m, n, r)
    Q = gram_schmidt(A, method=method)
    assert Q.shape == (m, r)                              # dependent columns dropped: rank(A) columns
    # cond(A) <= 100 on its range: classical GS loses ~cond^2 eps, modified ~cond eps
    assert_close(Q.T @ Q, np.eye(r), tol=1e-10)
    assert_close(projector(Q), column_space_projector(A), tol=1e-10)


@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("m, n", [(5, 5), (9, 4), (40, 12)])
def test_gram_schmidt_is_the_q_of_qr_with_positive_r(m, n, seed, method):
    A = make_matrix(seed, m, n, n, cond=10.0)
    Q_ref, R_ref = np.linalg.qr(A)
    Q_ref = Q_ref * np.sign(np.diag(R_ref))               # make diag(R) positive, as Gram-Schmidt does
    assert_close(gram_schmidt(A, method=method), Q_ref, tol=1e-10)


@pytest.mark.parametrize("method", METHODS)
def test_gram_schmidt_worked_example_drops_the_dependent_vector(method):
    # the chapter's example S = {(1,1,0), (1,0,1), (2,1,1)}; the third is the sum of the first two
    A = np.array([[1.0, 1.0, 2.0], [1.0, 0.0, 1.0], [0.0, 1.0, 1.0]])
    Q = gram_schmidt(A, method=method)
    expected = np.column_stack([np.array([1.0, 1.0, 0.0]) / np.sqrt(2), np.array([1.0, -1.0, 2.0]) / np.sqrt(6)])
    assert_close(Q, expected, tol=1e-14)


@pytest.mark.parametrize("method", METHODS)
def test_gram_schmidt_drops_zero_duplicate_and_combination_columns(method):
    rng = np.random.default_rng(3)
    B = make_matrix(3, 6, 3, 3, cond=5.0)
    c = rng.standard_normal(3)
    A = np.column_stack([np.zeros(6), B[:, 0], 2.5 * B[:, 0], B[:, 1], B @ c, B[:, 2], np.zeros(6)])
    Q = gram_schmidt(A, method=method)
    assert Q.shape == (6, 3)
    assert_close(projector(Q), column_space_projector(B))


def test_gram_schmidt_tol_controls_what_counts_as_dependent():
    eps_angle = 1e-6                                      # second column at angle ~1e-6 to the first
    A = np.array([[1.0, 1.0], [0.0, eps_angle], [0.0, 0.0]])
    assert gram_schmidt(A).shape == (3, 2)                # default sqrt(eps) ~ 1.5e-8 keeps it
    assert gram_schmidt(A, tol=1e-5).shape == (3, 1)      # a looser tolerance drops it
    assert gram_schmidt(np.array([[1.0, 1.0], [0.0, 1e-12]]), tol=0).shape == (2, 2)
    assert gram_schmidt(np.array([[1.0, 1.0], [0.0, 1e-12]])).shape == (2, 1)


def test_gram_schmidt_is_invariant_to_column_scaling():
    A = make_matrix(4, 7, 4, 4)
    scaled = A * np.array([1e-150, 1.0, 1e150, 3.0])
    assert_close(gram_schmidt(scaled), gram_schmidt(A), tol=1e-10)


def test_modified_gram_schmidt_is_stabler_on_the_lauchli_matrix():
    # classical GS: q2 . q3 = 1/2 when eps_l^2 < machine eps; modified: O(eps_l). The columns are
    # within an angle ~eps_l < sqrt(eps) of each other, so the default tolerance drops two of them
    eps_l = 1e-8
    A = np.vstack([np.ones(3), eps_l * np.eye(3)])
    assert gram_schmidt(A).shape == (4, 1)
    Q = {m: gram_schmidt(A, method=m, tol=0) for m in METHODS}
    loss = {m: np.abs(Q[m].T @ Q[m] - np.eye(3)).max() for m in METHODS}
    assert abs(loss["classical"] - 0.5) < 1e-6
    assert loss["modified"] < 1e-7


@pytest.mark.parametrize("seed", SEEDS)
def test_orthogonality_loss_grows_like_cond_for_modified_and_cond_squared_for_classical(seed):
    eps = np.finfo(float).eps
    for cond in [1e5, 1e6, 1e7]:
        A = make_matrix(seed, 40, 10, 10, cond=cond)
        Qm, Qc = gram_schmidt(A, tol=0), gram_schmidt(A, method="classical", tol=0)
        loss_mgs = np.linalg.norm(Qm.T @ Qm - np.eye(10), 2)
        loss_cgs = np.linalg.norm(Qc.T @ Qc - np.eye(10), 2)
        assert loss_mgs <= 10 * cond * eps                # Bjorck: O(cond * eps)
        assert loss_cgs >= 100 * loss_mgs                 # O(cond^2 * eps), far worse


@pytest.mark.parametrize(
    "bad, kwargs, error, match",
    [
        (np.array([1.0, 2.0]), {}, ValueError, "2-D"),
        (np.array([[1.0, np.nan]]), {}, ValueError, "NaN"),
        (np.array([[1.0, np.inf]]), {}, ValueError, "infinity"),
        (np.zeros((0, 3)), {}, ValueError, "empty"),
        (np.eye(2), {"method": "householder"}, ValueError, "method must be one of"),
        (np.eye(2), {"tol": -1.0}, ValueError, "tol must be >= 0"),
        (np.eye(2), {"tol": "big"}, TypeError, "tol must be a real number"),
        ([["a", "b"]], {}, TypeError, "numeric"),
    ],
)
def test_gram_schmidt_bad_input(bad, kwargs, error, match):
    with pytest.raises(error, match=match):
        gram_schmidt(bad, **kwargs)


@pytest.mark.parametrize("func", [rank, null_space, pinv, singular_values])
def test_svd_functions_bad_input(func):
    with pytest.raises(ValueError, match="2-D"):
        func(np.arange(3.0))
    with pytest.raises(ValueError, match="NaN"):
        func(np.array([[1.0, np.nan]]))
    with pytest.raises(ValueError, match="infinity"):
        func(np.array([[1.0, -np.inf]]))


@pytest.mark.parametrize("func, name", [(rank, "tol"), (null_space, "rcond"), (pinv, "rcond")])
def test_negative_cutoff_is_rejected(func, name):
    with pytest.raises(ValueError, match=f"{name} must be >= 0"):
        func(np.eye(2), -1e-3)


# --------------------------------------------------------------------------- is_psd


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("n, d", [(10, 4), (3, 6), (1, 1), (2, 5)])
def test_gram_matrices_are_psd_even_when_singular(n, d, seed):
    X = np.random.default_rng(seed).standard_normal((n, d))
    assert is_psd(X.T @ X)                                # rank min(n, d) <= d: singular if n < d
    assert is_psd(X @ X.T)


@pytest.mark.parametrize("seed", SEEDS)
def test_not_psd_has_a_witness_with_negative_quadratic_form(seed):
    A = sym_eig_matrix(seed, [3.0, 1.0, -0.5, 2.0])
    assert not is_psd(A)
    # independent witness: the eigenvector of scipy's eigh for the negative eigenvalue
    w, V = scipy.linalg.eigh(A)
    x = V[:, 0]
    assert w[0] < 0 and x @ A @ x < 0
    assert is_psd(A + 0.5 * np.eye(4)) and not is_psd(A + 0.49 * np.eye(4))


def test_is_psd_tests_the_quadratic_form_not_the_eigenvalues_or_determinant():
    A = np.array([[1.0, 4.0], [0.0, 1.0]])               # eigenvalues 1, 1
    x = np.array([1.0, -1.0])
    assert x @ A @ x == -2.0 and not is_psd(A)
    assert np.linalg.det(-np.eye(2)) == 1.0 and not is_psd(-np.eye(2))
    skew = np.array([[0.0, 1.0], [-1.0, 0.0]])            # x^T S x = 0 for all x: PSD, not PD
    assert is_psd(skew) and is_psd(np.zeros((3, 3)))


def test_is_psd_is_scale_invariant_and_tolerance_is_relative():
    A = np.diag([1.0, -1e-12])
    assert is_psd(A) and is_psd(1e20 * A) and is_psd(1e-20 * A)
    assert not is_psd(A, tol=0.0) and not is_psd(np.diag([1.0, -1e-9]))


@pytest.mark.parametrize(
    "bad, kwargs, error, match",
    [
        (np.ones((2, 3)), {}, ValueError, "square"),
        (np.array([[np.nan]]), {}, ValueError, "NaN"),
        (np.eye(2), {"tol": -1.0}, ValueError, "tol must be >= 0"),
        (np.ones(3), {}, ValueError, "2-D"),
    ],
)
def test_is_psd_bad_input(bad, kwargs, error, match):
    with pytest.raises(error, match=match):
        is_psd(bad, **kwargs)


# --------------------------------------------------------------------------- power iteration


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("d", [1, 2, 5, 30])
def test_power_iteration_matches_eigh_on_psd_matrices(d, seed):
    X = np.random.default_rng(seed).standard_normal((2 * d + 3, d))
    A = X.T @ X
    w, V = np.linalg.eigh(A)
    with warnings.catch_warnings():
        warnings.simplefilter("error", ConvergenceWarning)
        lam, v = power_iteration(A, n_iter=20000, random_state=seed)
    # residual <= 1e-10 ||A||_F: eigenvalue to ~1e-10 relative, eigenvector to 1e-10 ||A||_F / gap
    assert_close(lam, w[-1], tol=1e-9)
    v_ref = V[:, -1] * np.sign(V[np.argmax(np.abs(V[:, -1])), -1])
    gap = w[-1] - w[-2] if d > 1 else np.inf
    assert_close(v, v_ref, tol=max(1e-12, 1e-9 * np.linalg.norm(A) / gap))
    assert abs(np.linalg.norm(v) - 1) < 1e-14


def test_power_iteration_keeps_the_sign_of_a_negative_dominant_eigenvalue():
    A = sym_eig_matrix(0, [-5.0, 2.0, 1.0])
    lam, v = power_iteration(A, random_state=0)
    assert_close(lam, -5.0)
    assert_close(A @ v, lam * v, tol=1e-9)


def test_power_iteration_with_a_repeated_top_eigenvalue_converges_to_an_eigenvector():
    A = np.diag([3.0, 3.0, 1.0])
    x0 = np.array([1.0, 2.0, 5.0])
    lam, v = power_iteration(A, x0=x0)
    assert_close(lam, 3.0)
    assert_close(v, np.array([1.0, 2.0, 0.0]) / np.sqrt(5), tol=1e-9)  # projection of x0 on the eigenspace


def test_power_iteration_warns_when_top_eigenvalues_have_opposite_signs():
    A = sym_eig_matrix(1, [2.0, -2.0, 1.0])
    with pytest.warns(ConvergenceWarning, match="did not converge"):
        lam, v = power_iteration(A, random_state=0)
    assert abs(np.linalg.norm(v) - 1) < 1e-14
    assert_close(lam, v @ A @ v)                         # the returned pair is consistent
    lam_shifted, _ = power_iteration(A + 3 * np.eye(3), random_state=0)   # the shift separates them
    assert_close(lam_shifted - 3, 2.0, tol=1e-9)


def test_power_iteration_start_orthogonal_to_v1_finds_another_eigenpair():
    A = np.diag([3.0, 2.0, 1.0])
    lam, v = power_iteration(A, x0=[0.0, 1.0, 1.0])       # alpha_1 = 0
    assert_close(lam, 2.0)
    assert_close(v, [0.0, 1.0, 0.0], tol=1e-9)


def test_power_iteration_reproducible_and_counts_iterations():
    A = sym_eig_matrix(2, [4.0, 2.0, 1.0])
    first = power_iteration(A, random_state=7, return_n_iter=True)
    second = power_iteration(A, random_state=np.random.default_rng(7), return_n_iter=True)
    assert first[0] == second[0] and np.array_equal(first[1], second[1]) and first[2] == second[2]
    # error shrinks like (1/2)^s: reaching 1e-10 takes about log(1e-10)/log(1/2) ~ 33 steps
    assert 20 < first[2] < 60
    with pytest.warns(ConvergenceWarning):
        power_iteration(A, n_iter=3, random_state=7)


def test_power_iteration_on_the_zero_matrix():
    with warnings.catch_warnings():
        warnings.simplefilter("error", ConvergenceWarning)
        lam, v, steps = power_iteration(np.zeros((3, 3)), random_state=0, return_n_iter=True)
    assert lam == 0.0 and steps == 1 and abs(np.linalg.norm(v) - 1) < 1e-14


@pytest.mark.parametrize(
    "bad, kwargs, error, match",
    [
        (np.ones((2, 3)), {}, ValueError, "square"),
        (np.array([[np.inf]]), {}, ValueError, "infinity"),
        (np.eye(2), {"x0": [0.0, 0.0]}, ValueError, "x0 must be non-zero"),
        (np.eye(2), {"x0": [1.0, 0.0, 0.0]}, ValueError, "x0 has 3 entries"),
        (np.eye(2), {"n_iter": 0}, ValueError, "n_iter must be an integer >= 1, got 0"),
        (np.eye(2), {"n_iter": 2.5}, TypeError, "n_iter must be an integer >= 1, got float 2.5"),
        (np.eye(2), {"n_iter": True}, TypeError, "n_iter must be an integer >= 1, got bool True"),
        (np.eye(2), {"tol": -1e-3}, ValueError, "tol must be >= 0"),
    ],
)
def test_power_iteration_bad_input(bad, kwargs, error, match):
    with pytest.raises(error, match=match):
        power_iteration(bad, **kwargs)


# --------------------------------------------------------------------------- widget


def test_draw_matrix_action_draws_the_image_ellipse():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    A = np.array([[1.5, 0.5], [0.3, 1.0]])
    ax = draw_matrix_action(A)
    circle, ellipse = ax.lines[0].get_xydata().T, ax.lines[1].get_xydata().T
    assert_close(ellipse, A @ circle)
    s = np.linalg.svd(A, compute_uv=False)
    radii = np.linalg.norm(ellipse, axis=0)
    assert_close([radii.max(), radii.min()], s, tol=1e-3)     # semi-axes sigma_1, sigma_2 (on a grid)
    assert "det A = 1.35" in ax.get_title()
    plt.close("all")


def test_matrix_action_demo_has_four_sliders_and_rejects_bad_matrices():
    demo = matrix_action_demo([[1.0, 0.0], [0.0, 2.0]])
    sliders = [w for w in demo.children if hasattr(w, "value") and w.description.startswith("a")]
    assert [s.description for s in sliders] == ["a11", "a12", "a21", "a22"]
    assert [s.value for s in sliders] == [1.0, 0.0, 0.0, 2.0]
    with pytest.raises(ValueError, match="2x2"):
        draw_matrix_action(np.eye(3))
    with pytest.raises(ValueError, match="2x2"):
        matrix_action_demo(np.ones((2, 3)))
