#!/usr/bin/env bash
# Set up everything the book needs, idempotently: .venv with the exact pins of requirements.txt,
# mlnotes installed editable, the offline JavaScript (MathJax, widget manager) in book/_assets/vendor, and
# Chromium for the browser check (where it can be installed).
# Needs Python >= 3.11 (override with PYTHON=python3.12) and npm.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
PYTHON=${PYTHON:-python3}
UV_VERSION=0.13.8   # the installer (not a dependency of the book)
"$PYTHON" -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else "mlnotes needs Python >= 3.11, found " + sys.version.split()[0])'
# Chromium for the browser check of the built site (tests/site): Debian's package, installed when missing
# and possible (root and apt-get), in the background while the Python packages install (both mostly wait on
# downloads); elsewhere say what to do. $MLNOTES_CHROMIUM names another binary.
chromium_install=""
if [ -n "${MLNOTES_CHROMIUM:-}" ] || command -v chromium >/dev/null 2>&1 || [ -x /usr/bin/chromium ]; then
  :
elif [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
  echo "setup: installing Debian's chromium for the browser check of the site (in the background)"
  (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null) &
  chromium_install=$!
else
  echo "setup: chromium is missing and cannot be installed here (that needs root and apt-get);" \
       "install it (e.g. sudo apt-get install chromium) or set MLNOTES_CHROMIUM to a Chromium binary," \
       "else the browser check of the site is skipped (and fails under CI=true)"
fi
[ -x .venv/bin/python ] || "$PYTHON" -m venv .venv
stamp=.venv/.mlnotes-requirements
if ! cmp -s requirements.txt "$stamp" || ! .venv/bin/python -c 'import mlnotes' 2>/dev/null; then
  # uv installs the same exact pins as pip, in parallel; pip takes over where uv cannot be installed.
  # --compile-bytecode: as pip does. Where PYTHONDONTWRITEBYTECODE is set (as on this machine), nothing else
  # writes the .pyc files, and every process (each chapter's kernel, each test worker) would compile what it
  # imports: numpy, scipy, scikit-learn, sympy and matplotlib took 8.6 s CPU to import instead of 2.4 s.
  echo "setup: installing pinned packages into .venv"
  if .venv/bin/python -m pip install --quiet --disable-pip-version-check "uv==$UV_VERSION" 2>/dev/null; then
    .venv/bin/uv pip install --quiet --compile-bytecode --python .venv/bin/python -r requirements.txt
    .venv/bin/uv pip install --quiet --python .venv/bin/python --no-deps -e .
  else
    echo "setup: uv $UV_VERSION could not be installed; installing with pip (about a minute and a half)"
    .venv/bin/python -m pip install --quiet --disable-pip-version-check -r requirements.txt
    .venv/bin/python -m pip install --quiet --disable-pip-version-check --no-deps -e .
  fi
  cp requirements.txt "$stamp"
fi
bash tools/assets.sh
if [ -n "$chromium_install" ]; then
  wait "$chromium_install" \
    || echo "setup: could not install chromium with apt-get; the browser check will report it missing"
fi
