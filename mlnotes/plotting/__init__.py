"""Figure helpers shared by the chapters: one style, deterministic PNG output."""

from ._style import setup

__all__ = ["setup"]
