"""Every displayed statement of every chapter is checked, a definition, or marked as not
machine-checked with the reason; every ``proves=`` label names a display; every checked display is
tied to the formula shown with its check (issue 10, section 1); no check is trivial (issue 10,
sections 4 and 5). Reads the stored outputs, which nbval keeps equal to a fresh run."""

from __future__ import annotations

import pytest

import nbtools
import statements

CHAPTERS = nbtools.chapter_notebooks()


@pytest.fixture(scope="module", params=CHAPTERS, ids=[p.stem for p in CHAPTERS])
def chapter(request):
    return statements.chapter_statements(request.param)


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


def test_every_checked_display_is_tied_to_its_check(chapter):
    untied = [f"({label}): " + "; ".join(steps) for label, steps in chapter.untied]
    assert not untied, (f"{chapter.path.name}: {len(untied)} checked display(s) with steps that are no step of "
                        "the formula shown with their check (latex=):\n" + "\n".join(untied))


def test_a_changed_display_would_be_caught(chapter):
    """Each checked display of the chapter, against a check showing exactly that display, is tied; with a
    term appended to its last step it no longer is: the tie can fail on this chapter's own displays."""
    missed = []
    for d in chapter.displays:
        if d.category == "checked":
            changed = d.latex.rstrip().rstrip(".,") + " + 1"
            if statements.untied_steps(d.latex, [d.latex]) or not statements.untied_steps(changed, [d.latex]):
                missed.append(d.label)
    assert not missed, f"{chapter.path.name}: displays the tie mishandles: {missed}"


def test_no_display_math_outside_a_dollar_block(chapter):
    assert not chapter.hidden, (f"{chapter.path.name}: display math that is not a top-level $$ block escapes the "
                                "classification of displayed statements:\n" + "\n".join(chapter.hidden))
