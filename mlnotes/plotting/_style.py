"""One plotting style for the book."""

import matplotlib as mpl

# CSS pixels per figure inch on the website: a figure of width w inches is shown w * 96 CSS px wide (as
# CSS inches), so the default 6 x 3.75 in figure (576 px) fits the 688 px text column at 1280 px unscaled.
DISPLAY_DPI = 96
# The PNG has twice as many pixels ("retina" output: sharp on high-density screens); its width/height
# metadata tell the page to show it at the CSS size above.
PIXEL_DENSITY = 2

#: The smallest font size (pt) any drawing of the library may ask for (a legend in a crowded panel, a
#: contour label): 9 pt is 12 CSS px at the scale above (tests/unit/plotting checks the source).
MIN_FONT_PT = 9

STYLE = {
    "figure.figsize": (6.0, 3.75),
    "figure.dpi": DISPLAY_DPI,
    "savefig.dpi": DISPLAY_DPI * PIXEL_DENSITY,
    # 11 pt at 96 px per inch is 14.7 CSS px; tick labels and legends use this size too ("medium"),
    # so a figure stays legible when a phone shrinks it to about 60 % (tests/site checks the scale)
    "font.size": 11,
    "axes.grid": True,
    "grid.alpha": 0.3,
    "axes.spines.top": False,
    "axes.spines.right": False,
    "legend.frameon": False,
    "image.cmap": "viridis",
    "svg.hashsalt": "mlnotes",
}


def setup():
    """Apply the book's matplotlib style (:data:`STYLE`) and select high-density PNG output for the
    notebook front end; fixed sizes and resolution, so re-executing a chapter reproduces its figures
    byte for byte."""
    mpl.rcParams.update(STYLE)
    try:
        from matplotlib_inline.backend_inline import set_matplotlib_formats
    except ImportError:  # pragma: no cover - outside Jupyter
        return
    # "retina": PNG at figure.dpi * 2 with width/height metadata of half its pixel size
    set_matplotlib_formats("retina")
