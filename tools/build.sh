#!/usr/bin/env bash
# Build the website into _build/html: set up (tools/setup.sh), then a strict Jupyter Book build
# (-W: any Sphinx warning fails; -n: every cross-reference must resolve). The build renders the
# committed notebook outputs; it never executes a notebook.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
bash tools/setup.sh
# --all: Sphinx does not recopy changed static files on an incremental build
.venv/bin/jupyter-book build . --all -W -n --keep-going
echo "build: open _build/html/index.html"
