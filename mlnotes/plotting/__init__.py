"""Figure helpers shared by the chapters: one style, deterministic PNG output, and generic drawings.

- :func:`setup` applies the book's matplotlib style (called by :func:`mlnotes.book.setup`).
- ``draw_*`` helpers draw what any family needs (a classifier's decision regions, optimiser paths on a
  quadratic, the action of a 2x2 matrix); they take fitted models or arrays and fit nothing themselves;
  :func:`plane_grid` is the grid of the plane on which they (and the chapters' drawings) evaluate a model.
  Drawings that belong to one chapter live with that chapter's widget in :mod:`mlnotes.widgets`.

Layer: ``plotting`` sits above the model families and below :mod:`mlnotes.widgets`; importing it does
not import ``matplotlib.pyplot``.
"""

from ._draw import (MARKERS, POINT_COLOURS, REGION_COLOURS, check_points_2d, draw_boundary, draw_decision_boundary,
                    draw_descent_paths, draw_matrix_action, plane_grid)
from ._style import setup

__all__ = ["setup", "draw_boundary", "draw_decision_boundary", "draw_descent_paths", "draw_matrix_action",
           "check_points_2d", "plane_grid", "POINT_COLOURS", "REGION_COLOURS", "MARKERS"]
