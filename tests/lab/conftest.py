"""A JupyterLab server from the project's .venv, on a copy of the book, for the browser test.

The server runs in its own process group on a free port with an empty token; the fixture stops it,
and every kernel it started, also when the test fails, at the end of the module (the root conftest.py
runs the module's tests as one xdist unit, so the server stops as soon as they are done). The chapters
are copied to a temporary folder so that running them can never write into the committed notebooks;
the copies have no stored outputs (the test clears them before Run All anyway, as a reader's run does:
JupyterLab then never renders outputs that are thrown away). Screenshots (pictures for people, not
checks) go to $MLNOTES_SCREENSHOTS/lab, by default _build/screenshots/lab; MLNOTES_SCREENSHOTS=off
(tools/test.sh sets it) takes none but a failing test's.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import nbformat
import psutil
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))   # tests/: the shared screenshots setting
from screenshots import screenshot_root  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
JUPYTER = ROOT / ".venv" / "bin" / "jupyter"
CHROMIUM = Path("/usr/bin/chromium")
FAILURES = ROOT / "_build" / "screenshots" / "lab"  # a failing test's screenshot, whatever the setting
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--no-first-run"]
# JupyterLab settings for a test: every cell in the DOM (no windowing), no autosave, no news check.
LAB_SETTINGS = {
    "@jupyterlab/notebook-extension/tracker.jupyterlab-settings": {"windowingMode": "none"},
    "@jupyterlab/docmanager-extension/plugin.jupyterlab-settings": {"autosave": False},
    "@jupyterlab/apputils-extension/notification.jupyterlab-settings": {"fetchNews": "false",
                                                                          "checkForUpdates": False},
}


def screenshot_dir() -> Path | None:
    """$MLNOTES_SCREENSHOTS/lab (default _build/screenshots/lab), or None for "off" (the test command's
    setting, as for the site's): four screenshots a chapter took 3-4 s of Chromium CPU (measured)."""
    root = screenshot_root(FAILURES.parent)
    return root / "lab" if root is not None else None


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def shutdown_kernels(base: str) -> None:
    """Shut down every kernel of the server (each chapter runs in its own; two cores are shared)."""
    with urllib.request.urlopen(f"{base}/api/kernels", timeout=10) as r:
        kernels = json.load(r)
    for kernel in kernels:
        req = urllib.request.Request(f"{base}/api/kernels/{kernel['id']}", method="DELETE")
        urllib.request.urlopen(req, timeout=30).close()


def _stop(proc: subprocess.Popen) -> None:
    """Stop the server's process group and every process it started (kernels run in their own sessions)."""
    try:
        family = [proc.pid] + [c.pid for c in psutil.Process(proc.pid).children(recursive=True)]
    except psutil.NoSuchProcess:
        family = [proc.pid]
    for sig in (signal.SIGTERM, signal.SIGKILL):
        try:
            os.killpg(proc.pid, sig)
        except ProcessLookupError:
            pass
        for pid in family[1:]:
            try:
                os.kill(pid, sig)
            except ProcessLookupError:
                pass
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            continue
        if not any(psutil.pid_exists(pid) and psutil.Process(pid).status() != psutil.STATUS_ZOMBIE
                   for pid in family[1:]):
            return


@pytest.fixture(scope="module")
def lab(tmp_path_factory):
    """``(base_url, root_dir)`` of a running JupyterLab whose root is a copy of ``book/``."""
    if not JUPYTER.exists():
        pytest.fail(f"{JUPYTER} missing: run tools/setup.sh (JupyterLab is pinned in requirements.txt)")
    tmp = tmp_path_factory.mktemp("lab")
    book = tmp / "book"
    shutil.copytree(ROOT / "book", book, ignore=shutil.ignore_patterns("_assets", ".ipynb_checkpoints"))
    for path in book.rglob("*.ipynb"):
        nb = nbformat.read(path, as_version=4)
        for cell in nb.cells:
            if cell.cell_type == "code":
                cell.outputs, cell.execution_count = [], None
        nbformat.write(nb, path)
    settings = tmp / "settings"
    for name, value in LAB_SETTINGS.items():
        path = settings / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(value))
    port = _free_port()
    env = dict(os.environ, JUPYTER_RUNTIME_DIR=str(tmp / "runtime"), JUPYTER_CONFIG_DIR=str(tmp / "config"),
               PYTHONHASHSEED="0")
    log = (tmp / "lab.log").open("w")
    proc = subprocess.Popen(
        [str(JUPYTER), "lab", "--allow-root", "--no-browser", f"--port={port}", "--ServerApp.ip=127.0.0.1",
         "--IdentityProvider.token=", "--ServerApp.password=", f"--ServerApp.root_dir={book}",
         "--LabApp.expose_app_in_browser=True", "--ServerApp.disable_check_xsrf=True", f"--LabApp.user_settings_dir={settings}",
         f"--LabApp.workspaces_dir={tmp / 'workspaces'}",
         "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate"],
        cwd=book, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                with urllib.request.urlopen(f"{base}/api/status", timeout=2) as r:
                    if r.status == 200:
                        break
            except OSError:
                pass
            if proc.poll() is not None or time.monotonic() > deadline:
                pytest.fail(f"JupyterLab did not start:\n{(tmp / 'lab.log').read_text()[-3000:]}")
            time.sleep(0.3)
        yield base, book
    finally:
        _stop(proc)
        log.close()


@pytest.fixture(scope="module")
def browser():
    if not CHROMIUM.exists():
        pytest.fail("/usr/bin/chromium missing: apt-get install -y chromium")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        try:
            yield b
        finally:
            b.close()
