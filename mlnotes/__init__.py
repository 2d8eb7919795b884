"""mlnotes: clean numpy implementations of the algorithms of the mlnotes course.

Subpackages mirror the parts of the book:

- :mod:`mlnotes.linear`    linear models (least squares, ridge), chapter "Linear regression"
- :mod:`mlnotes.symbolic`  the derivation checker used by every chapter
- :mod:`mlnotes.datasets`  seeded data generators (no downloads)
- :mod:`mlnotes.plotting`  figure helpers shared by the chapters
- :mod:`mlnotes.widgets`   ipywidgets demos shared by the chapters
"""

__version__ = "0.1.0"
