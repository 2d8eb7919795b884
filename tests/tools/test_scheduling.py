"""The work units of the test command's scheduler (conftest.py at the root): a notebook's cells and a site
page's browser tests each stay on one xdist worker, in order; everything else is scheduled by module."""

import importlib.util
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
_spec = importlib.util.spec_from_file_location("book_scheduling", ROOT / "conftest.py")
scheduling = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(scheduling)


def test_a_notebooks_cells_are_one_unit():
    units = {scheduling.work_unit(f"book/part2/07_convexity_duality.ipynb::Cell {i}") for i in range(40)}
    assert units == {"book/part2/07_convexity_duality.ipynb"}


def test_a_site_pages_browser_tests_are_one_unit_and_pages_differ():
    page = "book/part2/06_gradient_methods.html"
    ids = [f"test_page[{page}]", f"test_navigation_buttons_work[{page}-390]",
           f"test_figures_are_not_scaled_below_a_legible_size[{page}-1280]",
           f"test_no_display_equation_wider_than_the_column_at_1280[{page}]"]
    units = {scheduling.work_unit(f"tests/site/test_browser.py::{i}") for i in ids}
    assert units == {"site:" + page}
    other = scheduling.work_unit("tests/site/test_browser.py::test_page[book/back/errata.html]")
    assert other == "site:book/back/errata.html"
    # a browser test of no page is a unit of its own, so it can run on either worker
    single = "tests/site/test_browser.py::test_toc_pages_built"
    assert scheduling.work_unit(single) == single


def test_other_tests_are_scheduled_by_module():
    assert scheduling.work_unit("tests/lab/test_jupyterlab.py::test_chapter_runs[07]") == "tests/lab/test_jupyterlab.py"
    assert scheduling.work_unit("tests/unit/svm/test_svc.py::TestX::test_y[a-b]") == "tests/unit/svm/test_svc.py"


def test_units_are_ordered_longest_first():
    timings = {"book/a.ipynb": 50.0, "book/b.ipynb": 10.0}
    costs = {u: scheduling._cost(u, 10, timings) for u in
             ["tests/lab/test_jupyterlab.py", "book/a.ipynb", "book/b.ipynb", "tests/unit/x.py"]}
    assert sorted(costs, key=costs.get, reverse=True) == [
        "tests/lab/test_jupyterlab.py", "book/a.ipynb", "book/b.ipynb", "tests/unit/x.py"]
