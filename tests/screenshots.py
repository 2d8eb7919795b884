"""Where the browser tests put their screenshots (pictures for people, not checks): one reading of
$MLNOTES_SCREENSHOTS for the site's tests (tests/site) and JupyterLab's (tests/lab)."""

from __future__ import annotations

import os
from pathlib import Path

OFF = {"off", "0", "no", "false"}


def screenshot_root(default: Path) -> Path | None:
    """$MLNOTES_SCREENSHOTS as a folder, ``default`` where it is unset, None where it says "off" (the test
    command's setting: tools/test.sh)."""
    setting = os.environ.get("MLNOTES_SCREENSHOTS", "")
    if setting.strip().lower() in OFF:
        return None
    return Path(setting) if setting else default
