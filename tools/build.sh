#!/usr/bin/env bash
# Build the website into _build/html: set up (tools/setup.sh), then a strict Jupyter Book build
# (-W: any Sphinx warning fails; -n: every cross-reference must resolve). The build renders the
# committed notebook outputs; it never executes a notebook.
#   tools/build.sh              set up, then build
#   tools/build.sh --no-setup   only build (tools/test.sh sets up first, then builds beside the unit tests)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
case "${1:-}" in
  --no-setup) ;;
  "") bash tools/setup.sh ;;
  *) echo "build.sh: unknown argument: $1 (use --no-setup or nothing)" >&2; exit 2 ;;
esac
# --all: Sphinx does not recopy changed static files on an incremental build
.venv/bin/jupyter-book build . --all -W -n --keep-going
echo "build: open _build/html/index.html"
