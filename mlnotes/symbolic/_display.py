"""Comparing a typed display (``latex=``) with the objects that were checked."""

from __future__ import annotations

__all__ = ["compare_display"]


def compare_display(latex, lhs, op, rhs):
    """Return ``(status, message)``: ``"compared"``, ``"not compared"`` or ``"disagrees"``."""
    return "not compared", "the typed display was not compared with the checked expressions"
