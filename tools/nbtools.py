"""Shared helpers of the book's tools: the table of contents, deterministic notebook execution,
and reading the claim/erratum records that ``mlnotes.symbolic`` attaches to notebook outputs."""

from __future__ import annotations

import json
import os
import re
import sys
import tempfile
import time
import uuid
from pathlib import Path

import nbformat
import yaml

ROOT = Path(__file__).resolve().parent.parent
RECORD_KEY = "mlnotes"
WIDGET_STATE = "application/vnd.jupyter.widget-state+json"
WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
KERNELSPEC = {"display_name": "Python 3", "language": "python", "name": "python3"}


def toc_files() -> list[Path]:
    """Every file listed in ``_toc.yml`` (root first), as paths with their real suffix."""
    toc = yaml.safe_load((ROOT / "_toc.yml").read_text())
    entries = [toc["root"]]

    def walk(node):
        for key in ("parts", "chapters", "sections"):
            for child in node.get(key, []) or []:
                if "file" in child:
                    entries.append(child["file"])
                walk(child)

    walk(toc)
    paths = []
    for entry in entries:
        base = ROOT / entry
        candidates = [base] if base.suffix else [base.with_suffix(".ipynb"), base.with_suffix(".md")]
        found = [c for c in candidates if c.exists()]
        if not found:
            raise FileNotFoundError(f"_toc.yml lists {entry!r}, which does not exist")
        paths.append(found[0])
    return paths


def chapter_notebooks(selectors: list[str] | None = None) -> list[Path]:
    """The notebooks of the book, in table-of-contents order; ``selectors`` keep those whose path
    contains any of the given substrings (e.g. ``09`` or ``linear_regression``), or name notebook
    files directly."""
    notebooks = [p for p in toc_files() if p.suffix == ".ipynb"]
    paths = [Path(s).resolve() for s in selectors or [] if s.endswith(".ipynb") and Path(s).exists()]
    if paths:
        return paths
    if selectors:
        notebooks = [p for p in notebooks if any(s in str(p.relative_to(ROOT)) for s in selectors)]
        if not notebooks:
            raise SystemExit(f"no chapter notebook matches {selectors}")
    return notebooks


# ---------------------------------------------------------------------------------------------
# execution
# ---------------------------------------------------------------------------------------------

def _kernel_manager_class():
    """A kernel manager class that runs ``ipykernel`` in this very interpreter (the venv), whatever
    ``python3`` kernelspec may exist elsewhere on the Jupyter path.

    It is jupyter_client's asynchronous manager, as nbclient's own default, and nbclient owns it (starts and
    stops the kernel inside its event loop). With the blocking manager, nbclient waits for a cell's output
    with a blocking read that holds its event loop, so the per-cell ``timeout`` never fires and a cell that
    never ends hangs the whole run; an asynchronous manager driven from outside nbclient's loop stalled
    the shutdown (about 2 minutes, now and then)."""
    import zmq
    from jupyter_client.kernelspec import KernelSpec, KernelSpecManager
    from jupyter_client.manager import AsyncKernelManager

    class CurrentEnvironment(KernelSpecManager):
        def get_kernel_spec(self, kernel_name):
            return KernelSpec(argv=[sys.executable, "-m", "ipykernel_launcher", "-f", "{connection_file}"],
                              display_name="Python 3", language="python", name="python3")

    class CurrentKernelManager(AsyncKernelManager):
        def __init__(self, **kwargs):
            # IPC sockets, not TCP: the kernel is reachable from this machine only, and ipykernel (7.x) stops
            # warning, once a chapter, that it runs over TCP without encryption. The sockets are files named
            # after an absolute path (a relative one resolves against each side's own working folder, and the
            # kernel runs in the notebook's); jupyter_client removes them when the kernel stops. Where ZeroMQ has
            # no IPC transport (e.g. on Windows), TCP as before.
            if zmq.has("ipc"):
                sockets = os.path.join(tempfile.gettempdir(), f"mlnotes-kernel-{uuid.uuid4().hex}")
                kwargs = {"transport": "ipc", "ip": sockets, **kwargs}
            super().__init__(kernel_spec_manager=CurrentEnvironment(), **kwargs)
            self.client_factory = _polling_client_class()

    return CurrentKernelManager


#: Longest single wait on a kernel socket (seconds); a longer wait is a sequence of these.
POLL_SLICE = 0.5


def _polling_client_class():
    """jupyter_client's asynchronous kernel client whose channels wait for a message in slices of
    :data:`POLL_SLICE` seconds up to the caller's timeout, instead of one long ``poll``.

    After a cell that shows an ipywidget, one long asynchronous ``poll`` of the shell socket now and
    then never woke up although the reply had arrived (nbclient issue 312): the next cell started only
    when the cell timeout ran out (chapters 18, 19 and 20: about 120 s lost in every second run). A fresh
    ``poll`` reads the socket's state again, so the reply is taken at the next slice."""
    import time as _time
    from queue import Empty

    from jupyter_client.asynchronous import AsyncKernelClient
    from jupyter_client.channels import AsyncZMQSocketChannel
    from traitlets import Type

    class SlicedChannel(AsyncZMQSocketChannel):
        async def get_msg(self, timeout=None):
            deadline = None if timeout is None else _time.monotonic() + timeout
            while True:
                left = POLL_SLICE if deadline is None else max(0.0, deadline - _time.monotonic())
                try:
                    return await super().get_msg(timeout=min(POLL_SLICE, left))
                except Empty:
                    if deadline is not None and _time.monotonic() >= deadline:
                        raise

    class PollingKernelClient(AsyncKernelClient):
        shell_channel_class = Type(SlicedChannel)
        iopub_channel_class = Type(SlicedChannel)
        stdin_channel_class = Type(SlicedChannel)
        control_channel_class = Type(SlicedChannel)

    return PollingKernelClient


#: One BLAS and OpenMP thread in a kernel, as tools/test.sh runs nbval: a sum's order (so the last digits of a
#: measured deviation a chapter prints, e.g. 2.2e-11 against 1.0e-9 in chapter 10) depends on the number of
#: threads, which would otherwise be the machine's number of cores.
ONE_THREAD = {"OMP_NUM_THREADS": "1", "OPENBLAS_NUM_THREADS": "1", "MKL_NUM_THREADS": "1"}


def execute(path: Path, *, timeout: int = 120, extra_env: dict | None = None, allow_errors: bool = False):
    """Execute a notebook from the current interpreter; return ``(notebook, seconds, error)``.

    ``error`` is None or the ``CellExecutionError`` raised by the first failing cell (the
    notebook then holds the outputs up to and including that cell). With ``allow_errors``
    execution goes on after a failing cell (so every later cell runs and every later claim gets
    its own verdict); the failures are then the error outputs, see :func:`cell_errors`.
    """
    from nbclient import NotebookClient
    from nbclient.exceptions import CellExecutionError, CellTimeoutError

    nb = nbformat.read(path, as_version=4)
    env = {"PYTHONHASHSEED": "0", "MPLBACKEND": "module://matplotlib_inline.backend_inline", **ONE_THREAD}
    env.update(extra_env or {})
    saved = {k: os.environ.get(k) for k in env}
    os.environ.update(env)
    client = NotebookClient(nb, kernel_manager_class=_kernel_manager_class(), kernel_name="python3",
                            shutdown_kernel="immediate", timeout=timeout, record_timing=False, store_widget_state=True,
                            allow_errors=allow_errors, resources={"metadata": {"path": str(path.parent)}})
    start = time.perf_counter()
    error = None
    try:
        client.execute()
    except (CellExecutionError, CellTimeoutError) as exc:
        error = exc
    finally:
        for k, v in saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v
    return nb, time.perf_counter() - start, error


def cell_errors(nb) -> list[tuple[int, str, str]]:
    """The cells of an executed notebook that raised: ``(cell index, exception name, message)``."""
    out = []
    for i, cell in enumerate(nb.cells):
        if cell.cell_type != "code":
            continue
        for output in cell.get("outputs", []):
            if output.get("output_type") == "error":
                message = re.sub(r"\x1b\[[0-9;]*m", "", output.get("evalue", "")).strip()
                out.append((i, output.get("ename", "Error"), message))
    return out


def describe(error) -> str:
    """A short, plain-text account of a failed cell: its first source lines and the exception."""
    text = re.sub(r"\x1b\[[0-9;]*m", "", str(error)).strip().splitlines()
    head = [line for line in text[:12] if line.strip()]
    return "\n".join(head[:8] + ["  ..."] + text[-3:])


def _model_refs(obj) -> list[str]:
    return re.findall(r"IPY_MODEL_([0-9a-f]{32})", json.dumps(obj, sort_keys=True))


def _merge_streams(outputs):
    """Join consecutive outputs of the same stream (the kernel splits one print into several when
    its flush timer fires between writes, which depends on the machine's load)."""
    merged = []
    for out in outputs:
        if (out.get("output_type") == "stream" and merged and merged[-1].get("output_type") == "stream"
                and merged[-1]["name"] == out["name"]):
            merged[-1]["text"] += out["text"]
        else:
            merged.append(out)
    return merged


def make_deterministic(nb) -> None:
    """Normalise what differs between runs: widget model ids, kernel metadata, cell timing, and how
    the kernel happened to split printed text into stream outputs."""
    nb.metadata["kernelspec"] = dict(KERNELSPEC)
    info = nb.metadata.get("language_info", {})
    if "version" in info:
        info["version"] = ".".join(info["version"].split(".")[:2])
    for cell in nb.cells:
        cell.get("metadata", {}).pop("execution", None)
        if cell.cell_type == "code":
            cell.outputs = _merge_streams(cell.outputs)
    state = nb.metadata.get("widgets", {}).get(WIDGET_STATE, {}).get("state", {})
    if not state:
        return
    roots = [out["data"][WIDGET_VIEW]["model_id"] for cell in nb.cells if cell.cell_type == "code"
             for out in cell.get("outputs", []) if WIDGET_VIEW in out.get("data", {})]
    order, seen = [], set()

    def visit(model_id):
        if model_id in seen or model_id not in state:
            return
        seen.add(model_id)
        order.append(model_id)
        for ref in _model_refs(state[model_id]):
            visit(ref)

    for model_id in roots:
        visit(model_id)
    masked = lambda m: re.sub(r"[0-9a-f]{32}", "", json.dumps(state[m], sort_keys=True))  # noqa: E731
    for model_id in sorted(set(state) - seen, key=masked):
        visit(model_id)
    for model in state.values():  # an Output widget remembers the id of the request it captured
        if "msg_id" in model.get("state", {}):
            model["state"]["msg_id"] = ""
    mapping = {old: f"{i + 1:032x}" for i, old in enumerate(order)}
    text = json.dumps(nb)
    text = re.sub(r"[0-9a-f]{32}", lambda m: mapping.get(m.group(0), m.group(0)), text)
    renumbered = nbformat.from_dict(json.loads(text))
    nb.clear()
    nb.update(renumbered)


# ---------------------------------------------------------------------------------------------
# records
# ---------------------------------------------------------------------------------------------

def records(nb) -> list[dict]:
    """The claim and erratum records stored in a notebook's outputs, in order (what the stored
    outputs say; the verify command reads the records of its own execution instead, see
    :func:`read_verdict_log`)."""
    out = []
    for cell in nb.cells:
        if cell.cell_type != "code":
            continue
        for output in cell.get("outputs", []):
            record = output.get("metadata", {}).get(RECORD_KEY)
            if record:
                out.append(record)
    return out


def _without_front_matter(text: str) -> str:
    """``text`` without a leading YAML front-matter block (``---`` lines around it)."""
    return re.sub(r"\A---\n.*?\n---(\n|\Z)", "", text, count=1, flags=re.S)


def title(path: Path) -> str:
    """The first level-1 heading of a notebook or markdown page (a YAML front-matter block, such as the
    chapters' macros cell, holds ``# comments``, not headings: it is skipped)."""
    if path.suffix == ".ipynb":
        cells = nbformat.read(path, as_version=4).cells
        text = "\n".join(_without_front_matter(c.source) for c in cells if c.cell_type == "markdown")
    else:
        text = _without_front_matter(path.read_text())
    match = re.search(r"^# (.+)$", text, flags=re.M)
    return match.group(1).strip() if match else path.stem


def read_verdict_log(path: Path) -> list[dict]:
    """The records one execution wrote to its verdict log (``MLNOTES_VERDICT_LOG``): one per claim or
    erratum made, in order (a fresh execution runs each cell once, so nothing is counted twice)."""
    path = Path(path)
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
