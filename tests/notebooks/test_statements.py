"""Every displayed statement of every chapter is checked, a definition, or marked as not
machine-checked with the reason; every ``proves=`` label names a display; no check is trivial
(issue 10, sections 4 and 5). Reads the stored outputs, which nbval keeps equal to a fresh run."""

from __future__ import annotations

import pytest

import nbtools
import statements

CHAPTERS = nbtools.chapter_notebooks()


@pytest.fixture(scope="module", params=CHAPTERS, ids=[p.stem for p in CHAPTERS])
def chapter(request):
    return statements.chapter_statements(request.param)


#: Chapters whose displayed statements are not yet marked or linked to their checks (issue 10 §5), and
#: whose trivial checks are not yet restated: the tests run and report them as expected failures until the
#: chapters are converted; remove a chapter from here when it passes.
PENDING = {"11_probabilistic_regression", "13_generative_classifiers"}


@pytest.fixture(autouse=True)
def _pending(request):
    chapter_path = request.node.callspec.params.get("chapter") if hasattr(request.node, "callspec") else None
    if chapter_path is not None and chapter_path.stem in PENDING:
        request.applymarker(pytest.mark.xfail(strict=False, reason="chapter not converted for issue 10 yet"))


def test_no_unmarked_display(chapter):
    unmarked = [f"cell {d.cell}: {d.label or '(no label)'}: {d.latex.splitlines()[0][:70] if d.latex else ''}"
                for d in chapter.unmarked]
    assert not unmarked, (f"{chapter.path.name}: {len(unmarked)} display(s) neither checked (a label named by "
                          "claim(..., proves=...)), nor '% definition', nor '% unchecked: <reason>':\n"
                          + "\n".join(unmarked))


def test_every_proves_label_names_a_display(chapter):
    assert not chapter.dangling, f"{chapter.path.name}: proves= names labels no display carries: {chapter.dangling}"


def test_no_trivial_check(chapter):
    assert chapter.trivial == 0, (f"{chapter.path.name}: {chapter.trivial} trivial check(s) (both sides identical "
                                  "when built): restate them so they can fail")
