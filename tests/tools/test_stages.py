"""tools/stages.py: the test command's time per stage and per chapter, and its projection to the course."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

TOOLS = Path(__file__).resolve().parents[2] / "tools"
if str(TOOLS) not in sys.path:
    sys.path.insert(0, str(TOOLS))

import stages  # noqa: E402

REPORT = """<?xml version="1.0" encoding="utf-8"?>
<testsuites><testsuite name="pytest">
<testcase classname="tests.unit.tree.test_tree" name="test_fit" time="3.0"/>
<testcase classname="book.part1.01_linear_algebra.ipynb" name="Cell 0" time="8.0"/>
<testcase classname="book.part1.01_linear_algebra.ipynb" name="Cell 1" time="2.0"/>
<testcase classname="book.part2.04_learning_theory.ipynb" name="Cell 0" time="6.0"/>
<testcase classname="tests.site.test_browser" name="test_page[book/part1/01_linear_algebra.html]" time="12.0"/>
<testcase classname="tests.site.test_browser" name="test_page[book/part2/04_learning_theory.html]" time="8.0"/>
<testcase classname="tests.site.test_browser" name="test_page[book/back/errata.html]" time="5.0"/>
<testcase classname="tests.lab.test_jupyterlab" name="test_chapter_runs_and_reads_in_jupyterlab[02]" time="60.0"/>
<testcase classname="tests.notebooks.test_tools" name="test_x" time="1.0"/>
</testsuite></testsuites>
"""


@pytest.fixture
def report(tmp_path):
    path = tmp_path / "report.xml"
    path.write_text(REPORT)
    return path


def test_each_test_lands_in_its_stage_and_chapter(report):
    cases = stages.read_report(report)
    by_stage = {}
    for c in cases:
        by_stage[c["stage"]] = by_stage.get(c["stage"], 0.0) + c["seconds"]
    assert by_stage["unit"] == 3.0 and by_stage["nbval"] == 16.0 and by_stage["browser"] == 25.0
    assert by_stage["jupyterlab"] == 60.0
    assert {c["chapter"] for c in cases if c["chapter"]} == {"01", "04"}
    # the errata page and the JupyterLab test belong to no chapter: they do not grow with the course
    assert all(c["chapter"] is None for c in cases if "errata" in c["id"] or "jupyterlab" in c["id"])


def test_projection_is_the_fixed_part_plus_chapters_times_the_mean_chapter(report):
    text = stages.summarise(stages.read_report(report), chapters=10, workers=2, fixed=30)
    # chapters 01 (8 + 2 + 12 = 22 s) and 04 (6 + 8 = 14 s): mean 18 s; the rest 105 - 36 = 69 s
    rest, mean = 69.0, 18.0
    assert f"mean {mean:.1f} s a chapter" in text
    assert f"projected at 10 chapters: {(rest / 2 + 30 + 10 * mean / 2) / 60:.1f} min" in text
    assert f"Estimate now: {(rest / 2 + 30 + 36 / 2) / 60:.1f} min" in text
    assert "| **total** | 9 | 105 |" in text


def test_an_empty_report_or_bad_arguments_are_refused(tmp_path, report):
    empty = tmp_path / "empty.xml"
    empty.write_text('<testsuites><testsuite name="pytest"/></testsuites>')
    with pytest.raises(ValueError, match="no test cases"):
        stages.summarise(stages.read_report(empty), 33, 2, 0)
    with pytest.raises(ValueError, match="--workers"):
        stages.summarise(stages.read_report(report), 33, 0, 0)
    assert stages.main([str(tmp_path / "missing.xml")]) == 2


def test_the_build_beside_the_tests_counts_as_core_time_that_grows_with_the_chapters(report):
    text = stages.summarise(stages.read_report(report), chapters=10, workers=2, fixed=30, alongside=8)
    # as above, plus the build's 8 s on the cores now (2 chapters), 8 x 10 / 2 = 40 s at 10 chapters
    rest, mean = 69.0, 18.0
    assert f"projected at 10 chapters: {((rest + 10 * mean + 40) / 2 + 30) / 60:.1f} min" in text
    assert f"Estimate now: {((rest + 36 + 8) / 2 + 30) / 60:.1f} min" in text
    assert "| strict build (beside the tests) | - | 8 | 7% |" in text and "| **total** | 9 | 113 |" in text
    with pytest.raises(ValueError, match="--alongside"):
        stages.summarise(stages.read_report(report), 33, 2, 0, alongside=-1)


def test_several_reports_are_read_together(tmp_path, report, capsys):
    unit = tmp_path / "unit.xml"
    unit.write_text('<testsuites><testsuite name="pytest"><testcase classname="tests.unit.linalg.test_x" '
                    'name="test_y" time="7.0"/></testsuite></testsuites>')
    assert stages.main([str(report), str(unit), "--fixed", "30"]) == 0
    out = capsys.readouterr().out
    assert "| unit | 2 | 10 |" in out and "| **total** | 10 | 112 |" in out
    assert stages.main([str(report), str(tmp_path / "missing.xml")]) == 2


def test_with_the_measured_wall_time_the_projection_adds_the_chapters_to_come(report):
    text = stages.summarise(stages.read_report(report), chapters=10, workers=2, fixed=30, alongside=8, wall=100)
    # the run took 100 s with 2 chapters (mean 18 s, the build 8 s): each of the 8 to come adds 18 / 2 s on the
    # two workers and 8 / 2 s of the build, which the main run waits for
    assert f"projected at 10 chapters: {(100 + 8 * (18 / 2 + 8 / 2)) / 60:.1f} min" in text
    assert f"Measured now: {100 / 60:.1f} min (estimated from the sums: {((69 + 36 + 8) / 2 + 30) / 60:.1f} min)" \
        in text
    with pytest.raises(ValueError, match="--wall"):
        stages.summarise(stages.read_report(report), 33, 2, 0, wall=0)


def test_every_test_that_names_a_chapter_counts_to_it(tmp_path):
    report = tmp_path / "report.xml"
    report.write_text(REPORT.replace(
        "</testsuite>", '<testcase classname="tests.notebooks.test_hygiene" '
        'name="test_tags[book/part2/04_learning_theory.ipynb]" time="4.0"/></testsuite>'))
    text = stages.summarise(stages.read_report(report), chapters=10, workers=2, fixed=30)
    # chapter 04: 6 + 8 + 4 = 18 s, chapter 01 22 s: mean 20 s
    assert "mean 20.0 s a chapter" in text
