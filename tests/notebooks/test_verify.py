"""The verify command reports what ran in this execution, and nothing else (issue 10, section 2).

A small notebook with a failure injected early: the later claims must still be verified or failed
on their own (execution goes on), the stored outputs (which claim "verified" for the failure, and
hold a record of a claim that no code makes) must never be read, and the table, the counts and
the exit code must be right.
"""

from __future__ import annotations

import time

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
    assert "6 claims verified, 0 errata verified, 1 failed (0 not run), 1 cells raised; 1 trivial checks" in out
    assert "NOT RUN" not in out
    assert "cell 4: NameError" in err


def test_exit_status_of_a_clean_notebook(notebooks, capsys):
    _, clean = notebooks
    assert verify.main([str(clean), "-j", "1"]) == 0
    out = capsys.readouterr().out
    assert "2 claims verified, 0 errata verified, 0 failed (0 not run), 0 cells raised; 0 trivial checks" in out
    assert "Why they failed" not in out


def test_verify_chapter_counts_one_execution(notebooks):
    broken, _ = notebooks
    result = verify.verify_chapter(broken)
    titles = [r["claim"] for r in result["rows"]]
    assert titles == ["first holds", "injected failure", "after the failure", "after the error", "a trivial one"]
    assert [r["result"] for r in result["rows"]] == ["verified", "FAILED", "verified", "verified", "TRIVIAL"]
    assert [(i, name) for i, name, _ in result["errors"]] == [(4, "NameError")]
    t = verify.totals([result])
    assert (t["claims"], t["failed"], t["trivial"], t["cell_errors"]) == (4, 1, 1, 1)


# ---------------------------------------------------------------------------------------------
# Why a claim failed, claims that never ran, and what became of an erratum's notes' claim
# ---------------------------------------------------------------------------------------------

ERRATA_SETUP = SETUP.replace("import claim,", "import Source, claim, erratum,")

REASON_CELLS = [
    ERRATA_SETUP,
    # 1: a failing claim: its checked form, detail and counterexample must be printed
    'claim("wrong square", equal((x + 1)**2, x**2 + 1))',
    # 2: a cell that raises before its claim: the claim never runs
    'not_defined_here + 1\nclaim("never reached", equal(sp.Derivative(x**3, x), 3*x**2))',
    # 3: a failing claim does not hide the next claim of its cell, nor the erratum after it (under verify a
    #    failed claim is recorded in the verdict log and execution goes on in the same cell)
    'claim("fails first", equal(x**2, 2*x))\nclaim("after the failure, same cell", measured(1, "<=", 2))\n'
    'erratum("HID-1", Source("001", "10"), "an erratum after a failed claim", notes=equal(x, 2*x),\n'
    '        correction=equal(sp.Derivative(x**2, x), 2*x))',
    # 4: an erratum whose notes' claim holds: no refutation
    'erratum("NR-1", Source("001", "12"), "the notes are right", notes=equal((x + 1)**2, x**2 + 2*x + 1),\n'
    '        correction=equal(sp.Derivative(x**2, x), 2*x))',
    # 5: an erratum whose notes' display disagrees with what was checked
    'erratum("DD-1", Source("001", "14"), "the display is not what was checked",\n'
    '        notes=equal(x**2, 2*x, latex="x^2 = 3 x"), correction=equal(sp.Derivative(x**2, x), 2*x))',
    # 6: a proper erratum, refuted and fixed
    'erratum("OK-1", Source("001", "16"), "a square of a sum", notes=equal((x + 1)**2, x**2 + 1),\n'
    '        correction=equal(sp.Derivative(x**2, x), 2*x))',
    # 7: titles known only at run time are not looked for in the source
    'for k in (1, 2):\n    claim(f"power {k}", equal(sp.Derivative(x**(k + 1), x), (k + 1) * x**k))',
]


@pytest.fixture(scope="module")
def reasons(tmp_path_factory):
    """verify run once on the notebook above: (exit status, stdout, stderr, the rows by title)."""
    import contextlib
    import io

    path = tmp_path_factory.mktemp("verify-reasons") / "reasons.ipynb"
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(s) for s in REASON_CELLS])
    nb.metadata["kernelspec"] = {"display_name": "Python 3", "language": "python", "name": "python3"}
    nbformat.write(nb, path)
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = verify.main([str(path), "-j", "1"])
    rows = {}
    for line in out.getvalue().splitlines():
        if line.startswith("reasons "):
            rows[line[24:].split("  ")[0].strip()] = line
    return status, out.getvalue(), err.getvalue(), rows


def _why(out, title):
    """The lines printed after the table for the failed record ``title`` (up to the next record)."""
    lines = out.split("\nWhy they failed:\n", 1)[1].split("\n\n")[0].splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("  reasons") and title in line)
    end = next((i for i in range(start + 1, len(lines)) if lines[i].startswith("  reasons")), len(lines))
    return "\n".join(lines[start:end])


def test_why_a_claim_failed_is_printed_after_the_table(reasons):
    status, out, err, rows = reasons
    assert status == 1
    assert "FAILED" in rows["wrong square"]
    why = _why(out, "wrong square")
    assert "checked: \\left(x + 1\\right)^{2} = x^{2} + 1" in why
    assert "detail: lhs != rhs" in why
    assert "counterexample: x = " in why
    why = _why(out, "fails first")
    assert "checked: x^{2} = 2 x" in why and "counterexample: x = " in why
    assert out.index("Why they failed:") > max(out.index(line) for line in rows.values())   # after the table
    assert "wrong square" not in err                      # a ClaimError is no cell error


def test_claims_that_never_ran_are_listed_and_count_as_failures(reasons):
    status, out, _, rows = reasons
    assert "NOT RUN" in rows["never reached"] and "(cell 2)" in rows["never reached"]
    assert "never ran: cell 2 raised NameError before it: name 'not_defined_here'" in _why(out, "never reached")
    # a failed claim no longer hides what follows it in its cell: each gets its own verdict
    assert "FAILED" in rows["fails first"]
    assert "verified" in rows["after the failure, same cell"]
    assert "verified" in rows["erratum HID-1: an erratum after a failed claim"]
    assert "verified" in rows["power 1"] and "verified" in rows["power 2"]   # run-time titles: as they ran
    assert not any("power {k}" in line for line in out.splitlines())
    # verified: the same-cell claim, power 1, power 2, errata OK-1 and HID-1; failed: wrong square, fails first,
    # NR-1, DD-1 and the one not run
    assert "3 claims verified, 2 errata verified, 5 failed (1 not run), 1 cells raised" in out
    assert len(rows) == 11 and [t for t in rows if t.startswith("(cell 2 raised NameError")]


def test_a_failed_erratum_says_what_became_of_the_notes_claim(reasons):
    _, out, _, rows = reasons
    assert "FAILED" in rows["erratum NR-1: the notes are right"]
    assert "not refuted:proved, fixed:proved" in rows["erratum NR-1: the notes are right"]
    assert "the notes' claim holds, so it is no erratum; checked: " in _why(out, "NR-1")
    dd = rows["erratum DD-1: the display is not what was checked"]
    assert "FAILED" in dd and "display disagrees:" in dd and "refuted:" not in dd.replace("not refuted", "")
    why = _why(out, "DD-1")
    assert "the notes' display disagrees with what was checked; checked: x^{2} = 2 x" in why
    assert "displayed as: x^2 = 3 x" in why
    ok = rows["erratum OK-1: a square of a sum"]
    assert "verified" in ok and "refuted:counterexample, fixed:proved" in ok and "not refuted" not in ok


def test_source_claims_finds_literal_calls_only():
    nb = nbformat.v4.new_notebook(cells=[
        nbformat.v4.new_markdown_cell('claim("in markdown", x)'),
        nbformat.v4.new_code_cell('%matplotlib inline\nclaim("a", v)\nfor k in r:\n    claim(f"b{k}", v)\n'
                                  'erratum("E-1", s, "its title", notes=n)\nerratum("E-2", s, t)'),
        nbformat.v4.new_code_cell("claim('in a broken cell', v)\nx = ("),
    ])
    assert [(c["cell"], c["kind"], c["key"], c["title"]) for c in verify.source_claims(nb)] == [
        (1, "claim", "a", "a"), (1, "erratum", "E-1", "erratum E-1: its title"), (1, "erratum", "E-2", "erratum E-2"),
        (2, "claim", "in a broken cell", "in a broken cell")]


def test_chapters_are_started_longest_first(tmp_path, monkeypatch):
    import json

    times = tmp_path / "timings.json"
    times.write_text(json.dumps({"book/a.ipynb": 5.0, "book/b.ipynb": 50.0, "book/c.ipynb": 20.0}))
    monkeypatch.setattr(verify, "TIMINGS", times)
    paths = [verify.ROOT / "book" / n for n in ("a.ipynb", "b.ipynb", "c.ipynb", "new.ipynb")]
    assert [p.name for p in verify.longest_first(paths)] == ["new.ipynb", "b.ipynb", "c.ipynb", "a.ipynb"]


# ---------------------------------------------------------------------------------------------
# A cell that never ends (e.g. a solver broken so that it never converges) must not hang verify
# ---------------------------------------------------------------------------------------------

def test_a_cell_that_never_ends_fails_after_its_timeout(tmp_path, capsys):
    # with jupyter_client's blocking kernel manager, nbclient's per-cell timeout never fired: verify of chapter 14
    # with a broken SMO step hung for 7 minutes until killed by hand (review of chapters 14-17)
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell(SETUP), nbformat.v4.new_code_cell(CELLS["first"]),
                nbformat.v4.new_code_cell("while True:\n    pass"),
                nbformat.v4.new_code_cell('claim("after the endless cell", equal(x, x + 0 * x**2))')]
    nb.metadata["kernelspec"] = {"display_name": "Python 3", "language": "python", "name": "python3"}
    path = tmp_path / "endless.ipynb"
    nbformat.write(nb, path)
    start = time.perf_counter()
    status = verify.main([str(path), "--timeout", "3"])
    out, err = capsys.readouterr()
    assert time.perf_counter() - start < 60
    assert status == 1
    assert "cell 2: CellTimeoutError: did not finish within 3 s" in err
    assert "NOT RUN" in [line for line in out.splitlines() if "after the endless cell" in line][0]
    assert "1 claims verified" in out and "1 cells raised" in out
