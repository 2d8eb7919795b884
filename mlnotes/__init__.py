"""mlnotes: clean numpy implementations of the algorithms of the mlnotes course.

Subpackages mirror the parts of the book, in layers (imports point down; see the README's
"Architecture" section and ``tests/test_layers.py``):

- :mod:`mlnotes.utils`       input validation and the numerical gradient checker
- :mod:`mlnotes.linalg`, :mod:`mlnotes.stats`   linear algebra and probability (part I)
- :mod:`mlnotes.datasets`    seeded data generators (no downloads)
- :mod:`mlnotes.losses`      losses with their (sub)gradients, one registry
- :mod:`mlnotes.optim`       every solver, once, and the objective contract
- model families             :mod:`mlnotes.linear`, :mod:`mlnotes.bayes`, :mod:`mlnotes.generative`,
  :mod:`mlnotes.risk` (learning theory), one subpackage per family
- :mod:`mlnotes.symbolic`    the derivation checker used by every chapter
- :mod:`mlnotes.plotting`    the book's figure style and generic ``draw_*`` helpers
- :mod:`mlnotes.widgets`     ipywidgets demos, one module per chapter topic
- :mod:`mlnotes.book`        ``setup()``, the one call of every chapter's first cell

This module imports no subpackage: ``import mlnotes.linalg`` loads only what linalg needs.
"""

__version__ = "0.1.0"
