"""The one call of every chapter's first cell.

A chapter notebook starts with its imports and then::

    import mlnotes.book
    mlnotes.book.setup()

:func:`setup` does what every chapter needs before its first figure or claim, so the boilerplate is
written once. It is the top layer of the package (see the README's "Architecture" section): it may
import anything, and nothing in :mod:`mlnotes` imports it.
"""

import sys

import numpy as np

__all__ = ["setup", "PRINT_OPTIONS"]

#: numpy print options of every chapter: four digits, no scientific notation for tiny values, so
#: printed arrays are short and the same on every machine.
PRINT_OPTIONS = {"precision": 4, "suppress": True}


def setup():
    """Prepare a chapter: plotting style, numpy print options, a fresh claim registry.

    1. :func:`mlnotes.plotting.setup`: the book's matplotlib style and PNG output, so re-executing a
       chapter reproduces its figures byte for byte.
    2. ``np.set_printoptions(precision=4, suppress=True)`` (:data:`PRINT_OPTIONS`).
    3. ``mlnotes.symbolic.reset()``: forget the claims recorded so far in this kernel, so the chapter's
       ``summary()`` counts one execution of the chapter even when the first cell is run again.
       The checker is not imported here (it imports sympy): a kernel that has not imported it yet has
       no claims to forget.

    Returns
    -------
    None
    """
    import mlnotes.plotting

    mlnotes.plotting.setup()
    np.set_printoptions(**PRINT_OPTIONS)
    symbolic = sys.modules.get("mlnotes.symbolic")
    if symbolic is not None and hasattr(symbolic, "reset"):
        symbolic.reset()
