"""How the test command spreads its tests over pytest-xdist workers (``-n 2 --dist loadscope``).

A *work unit* runs whole, in collection order, on one worker:

- the cells of one notebook (nbval runs them in order in one kernel);
- every browser test of one page of the built site (tests/site/test_browser.py): the page's later tests
  read what ``test_page`` measured on its own load of that page, kept per worker;
- a test module (as pytest-xdist's ``loadfile``), e.g. the JupyterLab tests, which share one server.

Units are handed out longest first, so that the unit a worker starts last is a short one: the JupyterLab
module, then notebooks and site pages by an estimate of their run time (book/back/timings.json for the
notebooks, only a hint for the order), then the test modules by their number of tests.

Why a scheduler of our own: with the pinned pytest 9.2 and pytest-xdist 3.8, ``--dist loadgroup``
ignores ``xdist_group`` marks (xdist sets ``item._nodeid``, which pytest 9 no longer reads), and
``--dist loadfile`` puts all of tests/site/test_browser.py, one third of the run, on one worker.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent
SITE = ROOT / "_build" / "html"
#: a page of the built site named in a browser test's parameters
PAGE = re.compile(r"[\w/.]+\.html")


def work_unit(nodeid: str) -> str:
    """The work unit of the test ``nodeid`` (see the module docstring)."""
    path, _, rest = nodeid.partition("::")
    if path == "tests/site/test_browser.py":
        page = PAGE.search(rest)
        if page:
            return "site:" + page.group(0)
        return nodeid                                   # a browser test of no page runs on its own
    return path                                         # a notebook, or a test module


def _cost(unit: str, n_items: int, timings: dict[str, float]) -> float:
    """A rough run time of a work unit in seconds: only the order depends on it."""
    if unit.startswith("tests/lab/"):
        return 1e6                                      # JupyterLab: a few minutes, always first
    if unit.endswith(".ipynb"):
        return timings.get(unit, 60.0)
    if unit.startswith("site:"):
        page = SITE / unit.removeprefix("site:")
        return 5.0 + 25.0 * (page.stat().st_size / 1e6 if page.is_file() else 0.0)
    return 0.02 * n_items


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Order the tests unit by unit, longest unit first, each unit's tests in their collection order
    (in an xdist worker, where the scheduler reads this order; a run without workers keeps pytest's)."""
    if not hasattr(config, "workerinput"):
        return
    try:
        timings = json.loads((ROOT / "book" / "back" / "timings.json").read_text())
    except (OSError, ValueError):
        timings = {}
    units: dict[str, list[pytest.Item]] = {}
    for item in items:
        units.setdefault(work_unit(item.nodeid), []).append(item)
    order = sorted(units, key=lambda u: -_cost(u, len(units[u]), timings))
    items[:] = [item for unit in order for item in units[unit]]


def pytest_configure(config: pytest.Config) -> None:
    if config.getoption("dist", "no") == "loadscope":
        config.option.loadscopereorder = False          # keep the order of pytest_collection_modifyitems


@pytest.hookimpl(tryfirst=True)
def pytest_xdist_make_scheduler(config, log):
    """``--dist loadscope`` with the work units of :func:`work_unit`."""
    if config.getvalue("dist") != "loadscope":
        return None
    from xdist.scheduler import LoadScopeScheduling

    class BookScheduling(LoadScopeScheduling):
        def _split_scope(self, nodeid: str) -> str:
            return work_unit(nodeid)

    return BookScheduling(config, log)
