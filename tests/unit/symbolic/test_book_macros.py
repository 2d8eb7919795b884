"""The checker expands the book's TeX macros in its verdicts (JupyterLab renders each output without the
notebook's macro cell): its table must be the one of ``_config.yml``."""

from pathlib import Path

import pytest
import yaml

from mlnotes.symbolic._record import BOOK_MACROS, expand_macros

CONFIG = Path(__file__).resolve().parents[3] / "_config.yml"


def test_macro_table_equals_config():
    config = yaml.safe_load(CONFIG.read_text())
    assert BOOK_MACROS == config["sphinx"]["config"]["mathjax3_config"]["tex"]["macros"]


@pytest.mark.parametrize("text, expected", [
    (r"\rank A", r"\operatorname{rank} A"),
    (r"x^\T y", r"x^\top y"),
    (r"w \in \R^d", r"w \in \mathbb{R}^d"),
    (r"\argmin_w \E[L]", r"\operatorname*{arg\,min}_w \mathbb{E}[L]"),
    (r"\tr(A) + \diag(v)", r"\operatorname{tr}(A) + \operatorname{diag}(v)"),
])
def test_macros_are_expanded(text, expected):
    assert expand_macros(text) == expected


@pytest.mark.parametrize("text", [r"\Rightarrow", r"\top", r"\text{Real}", r"\trace", r"\Ebar", r"a \\ R"])
def test_longer_control_words_are_left_alone(text):
    assert expand_macros(text) == text
