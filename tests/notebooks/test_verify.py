"""The verify command reports what ran in this execution, and nothing else (issue 10, section 2).

A small notebook with a failure injected early: the later claims must still be verified or failed
on their own (execution goes on), the stored outputs (which claim "verified" for the failure, and
hold a record of a claim that no code makes) must never be read, and the table, the counts and
the exit code must be right.
"""

from __future__ import annotations

import nbformat
import pytest

import verify

SETUP = """\
import sympy as sp
from mlnotes.symbolic import claim, equal, measured, reset, summary
reset()
x = sp.Symbol("x", real=True)"""

CELLS = {
    "first": 'claim("first holds", equal((x + 1)**2, x**2 + 2*x + 1))',
    "failure": 'claim("injected failure", equal((x + 1)**2, x**2 + 1))',
    "after-failure": 'bound = 4\nclaim("after the failure", measured(3, "<=", bound))',
    "error": "undefined_name + 1",
    "after-error": 'claim("after the error", equal(sp.Derivative(x**2, x), 2*x))',
    "trivial": 'claim("a trivial one", equal(x + x, 2*x))',
    "summary": "summary()",
}


def _stored_record(title, holds=True):
    """A claim record as an old execution would have stored it in the notebook."""
    return nbformat.v4.new_output("display_data", data={"text/markdown": f"**✔ {title}**", "text/plain": title},
                                  metadata={"mlnotes": {"kind": "claim", "title": title, "label": title, "holds": holds,
                                                        "statements": [{"latex": "1 = 1", "holds": holds,
                                                                        "method": "symbolic", "detail": "stored"}]}})


def _notebook(path, keys):
    nb = nbformat.v4.new_notebook()
    nb.cells.append(nbformat.v4.new_code_cell(SETUP))
    for key in keys:
        cell = nbformat.v4.new_code_cell(CELLS[key])
        if key == "failure":      # the stored output says this claim was verified
            cell.outputs = [_stored_record("injected failure")]
        if key == "error":        # and holds a record of a claim that no code makes
            cell.outputs = [_stored_record("ghost claim from an old run")]
        nb.cells.append(cell)
    nb.metadata["kernelspec"] = {"display_name": "Python 3", "language": "python", "name": "python3"}
    nbformat.write(nb, path)
    return path


@pytest.fixture(scope="module")
def notebooks(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("verify")
    broken = _notebook(tmp / "broken.ipynb", list(CELLS))
    clean = _notebook(tmp / "clean.ipynb", ["first", "after-error", "summary"])
    return broken, clean


def test_later_claims_get_their_own_verdicts_and_stored_outputs_are_never_read(notebooks, capsys):
    broken, clean = notebooks
    status = verify.main([str(broken), str(clean), "-j", "2"])
    out, err = capsys.readouterr()
    assert status == 1
    table = [line for line in out.splitlines() if line.startswith(("broken", "clean"))]
    broken_rows = [line for line in table if line.startswith("broken")]
    clean_rows = [line for line in table if line.startswith("clean")]

    def row(title):
        (found,) = [line for line in broken_rows if title in line]
        return found

    assert "verified" in row("first holds")
    assert "FAILED" in row("injected failure")                    # not the stored "verified"
    assert "verified" in row("after the failure") and "measured" in row("after the failure")
    assert "verified" in row("after the error") and "proved" in row("after the error")
    assert "TRIVIAL" in row("a trivial one")
    assert "NameError" in row("cell 4 raised")
    assert not any("ghost" in line for line in out.splitlines())   # never read from stored outputs
    assert len(broken_rows) == 6 and len(clean_rows) == 2
    assert all("verified" in line for line in clean_rows)
    assert "6 claims verified, 0 errata verified, 1 failed, 1 cells raised; 1 trivial checks" in out
    assert "cell 4: NameError" in err


def test_exit_status_of_a_clean_notebook(notebooks, capsys):
    _, clean = notebooks
    assert verify.main([str(clean), "-j", "1"]) == 0
    out = capsys.readouterr().out
    assert "2 claims verified, 0 errata verified, 0 failed, 0 cells raised; 0 trivial checks" in out


def test_verify_chapter_counts_one_execution(notebooks):
    broken, _ = notebooks
    result = verify.verify_chapter(broken)
    titles = [r["claim"] for r in result["rows"]]
    assert titles == ["first holds", "injected failure", "after the failure", "after the error", "a trivial one"]
    assert [r["result"] for r in result["rows"]] == ["verified", "FAILED", "verified", "verified", "TRIVIAL"]
    assert [(i, name) for i, name, _ in result["errors"]] == [(4, "NameError")]
    t = verify.totals([result])
    assert (t["claims"], t["failed"], t["trivial"], t["cell_errors"]) == (4, 1, 1, 1)
