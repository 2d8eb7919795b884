"""mlnotes.widgets: one module per chapter topic, resolved lazily, independent of each other."""

import ast
import importlib
import subprocess
import sys
from pathlib import Path

import pytest

import mlnotes.widgets as widgets

WIDGETS_DIR = Path(widgets.__file__).parent
MODULES = sorted(p.stem for p in WIDGETS_DIR.glob("*.py") if p.stem != "__init__")


@pytest.mark.parametrize("module", MODULES)
def test_name_table_and_modules_agree(module):
    mod = importlib.import_module(f"mlnotes.widgets.{module}")
    assert hasattr(mod, "__all__"), f"mlnotes.widgets.{module} needs an __all__"
    for name in mod.__all__:
        assert name in widgets._NAMES, f"{module}.{name} is missing from mlnotes.widgets._NAMES"
        owner = importlib.import_module(widgets._NAMES[name], "mlnotes.widgets")
        assert getattr(owner, name) is getattr(mod, name)


def test_every_table_entry_resolves_and_unknown_names_raise():
    for name in widgets.__all__:
        assert callable(getattr(widgets, name)), name
    assert set(widgets._NAMES.values()) <= {f".{m}" for m in MODULES} | {"..plotting"}
    with pytest.raises(AttributeError, match="no attribute 'no_such_demo'"):
        widgets.no_such_demo  # noqa: B018


@pytest.mark.parametrize("module", MODULES)
def test_no_widget_module_imports_another(module):
    # each chapter's widgets stand alone: shared drawings come from mlnotes.plotting
    tree = ast.parse((WIDGETS_DIR / f"{module}.py").read_text())
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.level == 1:
            pytest.fail(f"mlnotes.widgets.{module} imports .{node.module or ''} (a sibling widget module)")
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else [node.module or ""]
            assert not any(n.startswith("mlnotes.widgets") for n in names), module


_ISOLATION = r"""
import importlib, importlib.abc, sys
import mlnotes.widgets as w

class Broken(importlib.abc.MetaPathFinder):
    def __init__(self, name): self.name = name
    def find_spec(self, fullname, path=None, target=None):
        if fullname == self.name:
            raise RuntimeError("simulated broken module " + fullname)

failures = []
for broken in sorted(set(v for v in w._NAMES.values() if v.startswith(".") and not v.startswith(".."))):
    target = "mlnotes.widgets" + broken
    for name in list(w._NAMES):                       # forget what earlier rounds resolved
        w.__dict__.pop(name, None)
    for mod in [m for m in sys.modules if m.startswith("mlnotes.widgets.")]:
        del sys.modules[mod]
    finder = Broken(target)
    sys.meta_path.insert(0, finder)
    for name, where in w._NAMES.items():
        try:
            getattr(w, name)
            ok = where != broken
        except RuntimeError:
            ok = where == broken
        if not ok:
            failures.append((broken, name))
    sys.meta_path.remove(finder)
print("FAILURES", failures)
"""


def test_a_broken_module_breaks_only_its_own_names():
    out = subprocess.run([sys.executable, "-c", _ISOLATION], capture_output=True, text=True, check=True)
    assert out.stdout.strip().endswith("FAILURES []"), out.stdout + out.stderr


@pytest.mark.parametrize("names, module", [
    ("draw_matrix_action, matrix_action_demo", "linalg"),
    ("draw_finite_difference, finite_difference_demo", "calculus"),   # the gradient checker without sympy
])
def test_importing_one_chapter_widget_imports_no_other_family(names, module):
    code = (f"import sys\nfrom mlnotes.widgets import {names}\n"
            "print(sorted(m for m in sys.modules if m.startswith(('mlnotes', 'sympy', 'sklearn'))))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    loaded = ast.literal_eval(out.stdout.strip())
    assert f"mlnotes.widgets.{module}" in loaded
    for unwanted in ("sympy", "sklearn", "mlnotes.linear", "mlnotes.symbolic", "mlnotes.widgets.classification"):
        assert not [m for m in loaded if m == unwanted or m.startswith(unwanted + ".")], \
            f"{unwanted} imported by the widgets of {module}: {loaded}"
