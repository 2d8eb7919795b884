#!/usr/bin/env bash
# Set up everything the book needs, idempotently: .venv with the exact pins of requirements.txt,
# mlnotes installed editable, and the offline JavaScript (MathJax, widget manager) in book/_assets/vendor.
# Needs Python >= 3.11 (override with PYTHON=python3.12) and npm.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
PYTHON=${PYTHON:-python3}
"$PYTHON" -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else "mlnotes needs Python >= 3.11, found " + sys.version.split()[0])'
[ -x .venv/bin/python ] || "$PYTHON" -m venv .venv
stamp=.venv/.mlnotes-requirements
if ! cmp -s requirements.txt "$stamp" || ! .venv/bin/python -c 'import mlnotes' 2>/dev/null; then
  echo "setup: installing pinned packages into .venv (about a minute the first time)"
  .venv/bin/python -m pip install --quiet --disable-pip-version-check -r requirements.txt
  .venv/bin/python -m pip install --quiet --disable-pip-version-check --no-deps -e .
  cp requirements.txt "$stamp"
fi
bash tools/assets.sh
