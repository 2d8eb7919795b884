"""One plotting style for the book."""

import matplotlib as mpl


def setup():
    """Apply the book's matplotlib style: PNG output at a fixed size and resolution, so that
    re-executing a chapter reproduces its figures byte for byte."""
    mpl.rcParams.update({
        "figure.figsize": (6.4, 4.0),
        "figure.dpi": 80,
        "savefig.dpi": 80,
        "font.size": 10,
        "axes.grid": True,
        "grid.alpha": 0.3,
        "axes.spines.top": False,
        "axes.spines.right": False,
        "legend.frameon": False,
        "image.cmap": "viridis",
        "svg.hashsalt": "mlnotes",
    })
    try:
        from matplotlib_inline.backend_inline import set_matplotlib_formats
    except ImportError:  # pragma: no cover - outside Jupyter
        return
    set_matplotlib_formats("png")
