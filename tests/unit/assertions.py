"""Shared assertions of the unit tests (imported by the test modules, not collected: no ``test_`` prefix)."""

import numpy as np


def close_within(default_tol):
    """An ``assert_close(actual, expected, tol=default_tol)``: equal shapes and, elementwise,
    ``|actual - expected| <= tol * max(1, max|expected|)``."""

    def assert_close(actual, expected, tol=default_tol):
        actual = np.asarray(actual, dtype=float)
        expected = np.asarray(expected, dtype=float)
        assert actual.shape == expected.shape, f"shape {actual.shape} != {expected.shape}"
        scale = max(1.0, float(np.max(np.abs(expected)))) if expected.size else 1.0
        np.testing.assert_allclose(actual, expected, rtol=0, atol=tol * scale)

    return assert_close
