"""The layers of mlnotes, written down once and enforced.

Imports point down the table below (or sideways inside one layer, without cycles). The test reads every
module of ``mlnotes`` with :mod:`ast`: module-level and function-level imports, absolute and relative,
and ``importlib.import_module``/``__import__`` calls whose module name is a string literal. (An import
whose name is computed at run time cannot be read this way; :mod:`mlnotes.widgets` resolves its names
from a table of its own sibling modules and of :mod:`mlnotes.plotting`, both allowed.)

==  =================  ===================================================================================
#   layer              subpackages
==  =================  ===================================================================================
0   utilities          ``utils`` (validation; the numerical gradient checker)
1   numerics           ``linalg``, ``stats``
2   data and losses    ``datasets`` (seeded generators), ``losses``
3   solvers            ``optim`` (every generic solver, once; the objective contract)
4   models             one subpackage per family: ``linear``, ``bayes``, ``generative``, ``risk`` (the
                       learning-theory experiments: risks, Bayes actions, and the excess-risk
                       decomposition, which fits polynomials with the solvers, as a model does), ``svm``,
                       ``kernels``, ``gp``, and the families to come
4   checker            ``symbolic``: beside the models, but no model imports it and it imports no model
5   figures            ``plotting``
6   demos              ``widgets``
7   chapters           ``book`` (``mlnotes.book.setup()``, the first cell of every chapter)
==  =================  ===================================================================================

The package root ``mlnotes/__init__.py`` imports no subpackage, so importing one subpackage never pulls
in another. A subpackage missing from :data:`LAYERS` fails the test: a new family is placed here first.
"""

import ast
from pathlib import Path

import pytest

import mlnotes

#: layer number -> subpackages of that layer (module ``mlnotes/book.py`` counts as subpackage ``book``)
LAYERS = {
    0: {"utils"},
    1: {"linalg", "stats"},
    2: {"datasets", "losses"},
    3: {"optim"},
    4: {"linear", "bayes", "generative", "risk", "svm", "kernels", "gp", "neighbors", "tree", "ensemble",
        "cluster", "mixture", "decomposition", "recsys", "manifold", "nn", "privacy", "fairness", "adversarial",
        "metrics", "model_selection", "preprocessing", "dummy",
        "symbolic"},
    5: {"plotting"},
    6: {"widgets"},
    7: {"book"},
}
#: Subpackages that share a layer but must not import each other in either direction.
APART = [({"symbolic"}, LAYERS[4] - {"symbolic"})]

#: Arrows that break the rules today, each with the reason and who removes it. The test fails on any
#: other violation, and also when an arrow listed here has gone (so this list only shrinks).
PENDING = {
}

ROOT = Path(mlnotes.__file__).parent


def layer_of():
    """Subpackage -> layer number, from :data:`LAYERS`."""
    return {name: rank for rank, names in LAYERS.items() for name in names}


def _module_name(path, root):
    """The dotted module name of ``path`` inside the package directory ``root`` and whether it is a package."""
    parts = list(path.relative_to(root.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        return ".".join(parts[:-1]), True
    return ".".join(parts), False


def imported_modules(source, module, is_package):
    """The modules a source file imports, as ``(dotted name, line)``, wherever the import statement is.

    Parameters
    ----------
    source : str
        Python source.
    module : str
        Dotted name of the module (for relative imports).
    is_package : bool
        Whether the module is a package's ``__init__`` (relative imports start at the package itself).

    Returns
    -------
    list of (str, int)
        ``from a.b import c`` yields both ``a.b`` and ``a.b.c`` (``c`` may be a submodule).
    """
    package = module.split(".") if is_package else module.split(".")[:-1]
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found += [(alias.name, node.lineno) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                if node.level > len(package):
                    raise ValueError(f"{module}: relative import beyond the top-level package")
                base = package[: len(package) - node.level + 1]
                stem = ".".join(base + ([node.module] if node.module else []))
            else:
                stem = node.module
            found.append((stem, node.lineno))
            found += [(f"{stem}.{alias.name}", node.lineno) for alias in node.names if alias.name != "*"]
        elif (isinstance(node, ast.Call) and node.args and isinstance(node.args[0], ast.Constant)
              and isinstance(node.args[0].value, str)
              and ((isinstance(node.func, ast.Attribute) and node.func.attr == "import_module")
                   or (isinstance(node.func, ast.Name) and node.func.id in ("import_module", "__import__")))):
            name = node.args[0].value
            if name.startswith("."):
                level = len(name) - len(name.lstrip("."))
                base = package[: len(package) - level + 1]
                name = ".".join(base + ([name.lstrip(".")] if name.lstrip(".") else []))
            found.append((name, node.lineno))
    return found


def import_graph(root):
    """Arrows between the subpackages of the package in directory ``root``.

    Returns
    -------
    dict of (str, str) -> list of str
        ``(importer, imported)`` subpackage names (the root ``__init__`` is ``""``) -> where (``file:line``).
    """
    top = root.name
    arrows = {}
    for path in sorted(root.rglob("*.py")):
        module, is_package = _module_name(path, root)
        parts = module.split(".")
        source = parts[1] if len(parts) > 1 else ""
        for target, line in imported_modules(path.read_text(), module, is_package):
            tparts = target.split(".")
            if tparts[0] != top or len(tparts) < 2:
                continue
            destination = tparts[1]
            exists = (root / destination / "__init__.py").exists() or (root / f"{destination}.py").exists()
            if destination == source or not exists:
                continue
            where = arrows.setdefault((source, destination), [])
            if f"{path.relative_to(root.parent)}:{line}" not in where:
                where.append(f"{path.relative_to(root.parent)}:{line}")
    return arrows


def violations(arrows, layers=None, apart=None):
    """The arrows that break the layer rules, as readable lines (empty when all is well)."""
    layers = LAYERS if layers is None else layers
    apart = APART if apart is None else apart
    rank = {name: r for r, names in layers.items() for name in names}
    problems = []
    for (source, destination), where in sorted(arrows.items()):
        if source == "":
            problems.append(f"the package root imports {destination} ({where[0]}): it must import no subpackage")
            continue
        unknown = [name for name in (source, destination) if name not in rank]
        if unknown:
            problems.append(f"{', '.join(unknown)} has no layer: add it to LAYERS in tests/test_layers.py")
        elif rank[destination] > rank[source]:
            problems.append(f"{source} (layer {rank[source]}) imports {destination} (layer {rank[destination]}), "
                            f"an upward arrow ({where[0]})")
        elif any(source in a and destination in b or source in b and destination in a for a, b in apart):
            problems.append(f"{source} imports {destination} ({where[0]}): these two must stay apart")
    return problems


def cycles(arrows):
    """The import cycles between subpackages: each strongly connected component of more than one node."""
    graph = {}
    for source, destination in arrows:
        graph.setdefault(source, set()).add(destination)
        graph.setdefault(destination, set())
    index, low, stack, on_stack, components = {}, {}, [], set(), []

    def visit(node):  # Tarjan's algorithm
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for succ in sorted(graph[node]):
            if succ not in index:
                visit(succ)
                low[node] = min(low[node], low[succ])
            elif succ in on_stack:
                low[node] = min(low[node], index[succ])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                components.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return sorted(components)


def _without_pending(arrows):
    return {arrow: where for arrow, where in arrows.items() if arrow not in PENDING}


def test_every_subpackage_has_a_layer():
    names = {p.parent.name for p in ROOT.glob("*/__init__.py")} | {p.stem for p in ROOT.glob("*.py")} - {"__init__"}
    assert names - set(layer_of()) == set(), "add these subpackages to LAYERS in tests/test_layers.py"


def test_imports_point_down_the_layers():
    assert violations(_without_pending(import_graph(ROOT))) == []


def test_no_import_cycle_between_subpackages():
    assert cycles(_without_pending(import_graph(ROOT))) == []


def test_pending_arrows_still_exist():
    # an arrow that has been removed must leave PENDING too, so the exceptions cannot outlive their reason
    gone = set(PENDING) - set(import_graph(ROOT))
    assert gone == set(), f"remove these from PENDING in tests/test_layers.py: {sorted(gone)}"


# --------------------------------------------------------------------------- the check can fail


def _write_package(tmp_path, files):
    root = tmp_path / "mlnotes"
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return root


def test_a_forbidden_import_is_reported(tmp_path):
    # a model importing the plotting layer inside a function, through a relative import
    root = _write_package(tmp_path, {
        "__init__.py": "",
        "utils/__init__.py": "",
        "linear/__init__.py": "from ._models import Ridge\n",
        "linear/_models.py": "from ..utils import check\n\ndef plot():\n    from ..plotting import draw\n",
        "plotting/__init__.py": "from mlnotes.utils import check\n",
        "symbolic/__init__.py": "import mlnotes.linear\n",
        "optim/__init__.py": "import importlib\nimportlib.import_module('mlnotes.widgets')\n",
        "widgets/__init__.py": "",
        "newfamily/__init__.py": "from mlnotes import utils\n",
    })
    arrows = import_graph(root)
    assert set(arrows) == {("linear", "utils"), ("linear", "plotting"), ("plotting", "utils"),
                           ("symbolic", "linear"), ("optim", "widgets"), ("newfamily", "utils")}
    assert arrows["linear", "plotting"] == ["mlnotes/linear/_models.py:4"]
    problems = violations(arrows)
    assert len(problems) == 4, problems
    assert any(p.startswith("linear (layer 4) imports plotting (layer 5), an upward arrow") for p in problems)
    assert any(p.startswith("optim (layer 3) imports widgets (layer 6)") for p in problems)
    assert any(p.startswith("symbolic imports linear") and "apart" in p for p in problems)
    assert any(p.startswith("newfamily has no layer") for p in problems)


def test_a_cycle_is_reported(tmp_path):
    root = _write_package(tmp_path, {
        "__init__.py": "",
        "linear/__init__.py": "from mlnotes.bayes import prior\n",
        "bayes/__init__.py": "def f():\n    from ..tree import split\n",
        "tree/__init__.py": "from .. import linear\n",
        "utils/__init__.py": "",
    })
    arrows = import_graph(root)
    assert violations(arrows) == []          # sideways inside the model layer is allowed ...
    assert cycles(arrows) == [["bayes", "linear", "tree"]]   # ... but not in a circle
    assert cycles({("utils", "linalg"): [], ("linalg", "stats"): []}) == []


def test_the_package_root_imports_nothing(tmp_path):
    root = _write_package(tmp_path, {"__init__.py": "from . import widgets\n", "widgets/__init__.py": ""})
    assert violations(import_graph(root)) == [
        "the package root imports widgets (mlnotes/__init__.py:1): it must import no subpackage"]


def test_relative_imports_resolve_from_modules_and_packages():
    assert ("mlnotes.plotting", 1) in imported_modules("from ..plotting import x", "mlnotes.widgets.linalg", False)
    assert ("mlnotes.widgets.linalg", 1) in imported_modules("from . import linalg", "mlnotes.widgets", True)
    assert ("mlnotes.utils", 1) in imported_modules("from .. import utils", "mlnotes.linear", True)
    with pytest.raises(ValueError, match="beyond the top-level package"):
        imported_modules("from ... import x", "mlnotes.linear", True)
