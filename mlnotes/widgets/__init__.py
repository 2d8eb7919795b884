"""Interactive demos (ipywidgets) shared by the chapters.

Each demo pairs a plain drawing function (used for the chapter's static figure) with a widget
that redraws it as a slider moves. On the website a widget shows its saved snapshot; run the
notebook for the live version.
"""

from ._linear import draw_ridge_fit, ridge_outlier_demo

__all__ = ["draw_ridge_fit", "ridge_outlier_demo"]
