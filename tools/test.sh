#!/usr/bin/env bash
# Run every test: set up, strict build, then in one pytest run the library's unit tests, the
# checker's must-fail tests, notebook hygiene and tool tests, nbval over every chapter, and the
# browser check of the built site (headless Chromium, installed by tools/setup.sh where it can be).
# Extra arguments go to pytest.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
start=$SECONDS
bash tools/build.sh
echo "test: setup and strict build took $((SECONDS - start)) s"
exec .venv/bin/python -m pytest tests book -p no:cacheprovider \
  --nbval --nbval-current-env --nbval-sanitize-with tests/nbval_sanitize.cfg \
  -n 2 --dist loadfile --durations=30 "$@"
