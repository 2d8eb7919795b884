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
# Full-page screenshots of the site are pictures for people, not checks (a third of a page's browser
# test): off here; MLNOTES_SCREENSHOTS=_build/screenshots bash tools/test.sh takes them.
export MLNOTES_SCREENSHOTS="${MLNOTES_SCREENSHOTS:-off}"
# --dist loadscope with the work units of conftest.py: a notebook's cells, or a site page's browser
# tests, run in order on one worker; the longest units start first.
# _build/test-report.xml: every test's seconds, which tools/stages.py sums per stage and per chapter (and
# projects to the whole course) after the run.
build_seconds=$((SECONDS - start))
status=0
.venv/bin/python -m pytest tests book -p no:cacheprovider \
  --nbval --nbval-current-env --nbval-sanitize-with tests/nbval_sanitize.cfg \
  -n 2 --dist loadscope --durations=30 --junitxml=_build/test-report.xml "$@" || status=$?
echo "test: pytest took $((SECONDS - start - build_seconds)) s; setup and build $build_seconds s"
.venv/bin/python tools/stages.py _build/test-report.xml --fixed "$build_seconds" || true
exit $status
