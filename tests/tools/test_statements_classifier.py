"""tools/statements.py classifies every displayed statement of a chapter (issue 10, section 5)."""

from __future__ import annotations

import sys
from pathlib import Path

import nbformat
import pytest

TOOLS = Path(__file__).resolve().parents[2] / "tools"
if str(TOOLS) not in sys.path:
    sys.path.insert(0, str(TOOLS))

import statements  # noqa: E402

MARKDOWN = r"""# A chapter

% definition
$$
R(f) = \E\,\ell(f(X), Y)
$$ (risk)

The gradient is

$$
\nabla_w E = X^\top (p - y)
$$ (gradient)

% unchecked: the strong law of large numbers, quoted
$$ \hat R_n \to R $$ (lln)

A result nobody checks:

$$
a^2 + b^2 = c^2
$$

% unchecked:
$$ x = y $$

% definition

$$ \sigma(z) = 1 / (1 + e^{-z}) $$

```python
# $$ in code is not math
s = "$$ not a display $$"
```

A labelled result whose claim is missing:

$$ 1 + 1 = 2 $$ (arithmetic)

## Exercises

**1.** First.

:::{dropdown} Solution
$$ u = v $$ (exercise-one)
:::

**2.** Second.
"""


def _claim_output(title, proves=(), exercise=None, statements_=None):
    record = {"kind": "claim", "title": title, "label": title, "proves": list(proves), "exercise": exercise,
              "holds": True, "statements": statements_ or [{"latex": "x", "holds": True, "kind": "proved",
                                                            "method": "symbolic", "detail": "", "trivial": False,
                                                            "display_check": "compared"}]}
    return nbformat.v4.new_output("display_data", data={"text/plain": title}, metadata={"mlnotes": record})


def _notebook(markdown=MARKDOWN, outputs=()):
    nb = nbformat.v4.new_notebook()
    nb.cells.append(nbformat.v4.new_markdown_cell(markdown))
    code = nbformat.v4.new_code_cell("claims()")
    code.outputs = list(outputs)
    nb.cells.append(code)
    return nb


def test_each_category_is_recognised():
    trivial = [{"latex": "x", "holds": True, "kind": "trivial", "method": "symbolic", "detail": "", "trivial": True,
                "display_check": "not compared"}]
    nb = _notebook(outputs=[_claim_output("gradient", proves=("gradient",)),
                            _claim_output("exercise 1", proves=("exercise-one",), exercise="1"),
                            _claim_output("a trivial one", statements_=trivial),
                            _claim_output("points nowhere", proves=("no-such-label",))])
    s = statements.chapter_statements(nb)
    got = [(d.label, d.category) for d in s.displays]
    assert got == [("risk", "definition"), ("gradient", "checked"), ("lln", "unchecked"), (None, "unmarked"),
                   (None, "unmarked"), (None, "definition"), ("arithmetic", "unmarked"),
                   ("exercise-one", "checked")]
    assert s.displays[2].reason == "the strong law of large numbers, quoted"
    assert (s.count("checked"), s.count("definition"), s.count("unchecked"), s.count("unmarked")) == (2, 2, 1, 3)
    assert [d.latex for d in s.unmarked] == ["a^2 + b^2 = c^2", "x = y", "1 + 1 = 2"]
    assert s.exercises == ["1", "2"] and s.exercises_checked == ["1"]
    assert s.trivial == 1 and s.not_compared == 1
    assert s.kinds == {"proved": 3, "trivial": 1}
    assert s.dangling == ["no-such-label"]


def test_a_label_alone_is_not_a_check():
    nb = _notebook("$$ a = b $$ (lonely)\n", outputs=[_claim_output("other", proves=())])
    (d,) = statements.chapter_statements(nb).displays
    assert d.category == "unmarked" and d.label == "lonely"


def test_a_marker_must_be_directly_above():
    text = "% definition\n\nSome prose in between.\n\n$$ a = b $$\n"
    (d,) = statements.displays_of_markdown(text, set())
    assert d.category == "unmarked"
    text = "% definitional remark\n$$ a = b $$\n"
    (d,) = statements.displays_of_markdown(text, set())
    assert d.category == "unmarked"


def test_table_reports_the_unmarked_and_the_reasons(tmp_path):
    path = tmp_path / "chapter.ipynb"
    nbformat.write(_notebook(outputs=[_claim_output("gradient", proves=("gradient",))]), path)
    table = statements.statements_table([path])
    header, rule, row, total = table.splitlines()[:4]
    assert header.startswith("| chapter | displayed statements | checked | definitions | not machine-checked | unmarked")
    cells = [c.strip() for c in row.split("|")[1:-1]]
    assert cells[1:7] == ["8", "1", "2", "1", "4", "0 of 2"]
    assert total.startswith("| **total** | 8 | 1 | 2 | 1 | 4 |")
    assert "the strong law of large numbers, quoted" in table


def test_main_fails_on_unmarked_displays_and_dangling_labels(tmp_path, capsys):
    bad = tmp_path / "bad.ipynb"
    nbformat.write(_notebook(outputs=[_claim_output("gradient", proves=("gradient", "nowhere"))]), bad)
    assert statements.main([str(bad)]) == 1
    err = capsys.readouterr().err
    assert "unmarked display" in err and "proves='nowhere'" in err
    good = tmp_path / "good.ipynb"
    tied = [{"latex": "c = d", "holds": True, "kind": "proved", "method": "symbolic", "detail": "",
             "trivial": False, "display_check": "compared"}]
    nbformat.write(_notebook("% definition\n$$ a = b $$ (d)\n\n$$ c = d $$ (e)\n",
                             outputs=[_claim_output("e", proves=("e",), statements_=tied)]), good)
    assert statements.main([str(good)]) == 0
    capsys.readouterr()


@pytest.mark.parametrize("text, n", [("$$a$$ and $$b$$ inline", 0), ("$$\na\n$$\n\n$$ b $$\n", 2),
                                     ("text $$a$$\n", 0)])
def test_only_display_blocks_count(text, n):
    assert len(statements.displays_of_markdown(text, set())) == n


# --- tying a checked display to its check (issue 10, section 1: the formula shown is the formula checked) ---

@pytest.mark.parametrize("latex, steps", [
    (r"a = b", ["a=b"]),
    (r"\nabla f(w) &= X^\top (Xw - y) \\ &\le \lVert X \rVert^2 .",
     [r"\nabla·f(w)=X^\top·(Xw-y)", r"X^\top·(Xw-y)\le·\lVert·X\rVert·^2"]),
    (r"p(y = 1 \mid x) = \Phi(w^\top x), \qquad \Phi(z) = \int_0^z e^{-t}\,dt",
     [r"p(y=1\mid·x)=\Phi·(w^\top·x)", r"\Phi·(z)=\int·_0^ze^{-t}dt"]),
    (r"\langle w, \psi(x, y) \rangle = w_y^\top x", [r"\langle·w,\psi·(x,y)\rangle·=w_y^\top·x"]),
    (r"\begin{aligned} a &= b \\ c &\ge d \end{aligned}", ["a=b", r"c\ge·d"]),
    (r"\sigma(z)", [r"\sigma·(z)"]),
    (r"\left( \frac{a = b}{c} \right) = 1", [r"(\frac·{a=b}{c})=1"]),
    # a space that ends a control word is not lost (\tan h is not \tanh); a thin space is only spacing
    (r"\tan h(a) = \Sigma\,A", [r"\tan·h(a)=\Sigma·A"]),
    # inside a matrix, & and \\ separate entries: a moved & changes the display
    (r"J = \begin{pmatrix} a & -b \\ c & d \end{pmatrix}",
     [r"J=\begin·{pmatrix}a\cellsep·-b\rowsep·c\cellsep·d\end·{pmatrix}"]),
])
def test_display_steps(latex, steps):
    assert statements.display_steps(latex) == steps


def test_a_display_and_its_check_agree_up_to_spacing_and_layout():
    shown = r"\nabla_w E = X^\top (\sigma(Xw) - y) \le 1"
    typed = [r"\nabla_w E \;=\; X^\top\big(\sigma(Xw) - y\big) \quad (d = 2)", r"X^\top(\sigma(Xw) - y) \le 1"]
    assert statements.untied_steps(shown, typed) == []


@pytest.mark.parametrize("changed", [
    r"\nabla_w E = X^\top (y - \sigma(Xw))",            # the sign of the residual flipped
    r"\nabla_w E = X^\top (\sigma(Xw) - y) + 1",        # a term added
    r"\nabla_w E = X^\top \sigma(Xw)",                  # a term dropped (its text is a prefix of the check's)
    r"\nabla_w E \le X^\top (\sigma(Xw) - y)",          # the relation changed
])
def test_a_changed_display_is_no_longer_tied(changed):
    typed = [r"\nabla_w E = X^\top (\sigma(Xw) - y)"]
    assert statements.untied_steps(changed, typed), changed


def test_chapter_statements_and_main_report_untied_displays(tmp_path, capsys):
    def statement(latex):
        return {"latex": latex, "holds": True, "kind": "proved", "method": "symbolic", "detail": "",
                "trivial": False, "display_check": "compared"}
    text = "$$ c = d + 1 $$ (e)\n"
    tied = _notebook(text, outputs=[_claim_output("e", proves=("e",), statements_=[statement("c = d + 1")])])
    assert statements.chapter_statements(tied).untied == []
    path = tmp_path / "untied.ipynb"
    nbformat.write(_notebook(text, outputs=[_claim_output("e", proves=("e",), statements_=[statement("c = d")])]), path)
    assert statements.chapter_statements(path).untied == [("e", ["c=d+1"])]
    assert statements.untied_steps(r"\tanh(a) = b", [r"\tan h(a) = b"])
    assert statements.untied_steps(r"\begin{pmatrix} a - & b \end{pmatrix} = M", [r"\begin{pmatrix} a & -b \end{pmatrix} = M"])
    assert statements.main([str(path)]) == 1
    assert "display (e)" in capsys.readouterr().err


@pytest.mark.parametrize("markdown", [
    "\\begin{equation}\na = b\n\\end{equation}\n",
    "\\begin{align*}\na &= b\n\\end{align*}\n",
    "The identity $$a = b$$ in a sentence.\n",
    "$$ a = b $$.\n",
    "> $$ a = b $$\n",
    "| x | $$ a = b $$ |\n|---|---|\n",
    "```{math}\na = b\n```\n",
    ":::{math}\na = b\n:::\n",
])
def test_display_math_outside_a_dollar_block_is_refused(markdown):
    assert statements.hidden_displays(markdown), markdown


def test_displays_inside_markdown_directives_count_and_code_does_not():
    text = ("````{dropdown} Solution\n$$ a = b $$ (inside)\n```python\ns = '$$ not math $$'\n```\n````\n"
            ":::{admonition} Note\n$$ c = d $$\n:::\n")
    labels = [d.label for d in statements.displays_of_markdown(text, set())]
    assert labels == ["inside", None]
    assert statements.hidden_displays(text) == []
