#!/usr/bin/env bash
# Run every test: set up; then the strict build of the site and the library's unit tests side by side (they
# need nothing from each other, and the build uses one core); then, in one pytest run on two workers, the
# checker's must-fail tests, notebook hygiene and tool tests, nbval over every chapter, the JupyterLab test
# and the browser check of the built site (headless Chromium, installed by tools/setup.sh where it can be).
# Extra arguments go to both pytest runs.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
start=$SECONDS
bash tools/setup.sh
setup_seconds=$((SECONDS - start))
echo "test: setup took $setup_seconds s"
# Full-page screenshots of the site are pictures for people, not checks (a third of a page's browser
# test): off here; MLNOTES_SCREENSHOTS=_build/screenshots bash tools/test.sh takes them.
export MLNOTES_SCREENSHOTS="${MLNOTES_SCREENSHOTS:-off}"
# One BLAS and OpenMP thread per process, as tools/execute.py runs the chapters (tools/nbtools.py: ONE_THREAD):
# the last digits of a measured deviation a chapter prints depend on the number of threads, which would
# otherwise be the machine's number of cores. The test command keeps both cores busy with its own processes
# anyway, where extra threads only compete and spin: chapters 18 and 20 under nbval took 24.9 -> 20.4 and
# 32.8 -> 28.7 s CPU (measured).
export OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 MKL_NUM_THREADS=1
# Bytecode caches (in the git-ignored __pycache__ folders): where PYTHONDONTWRITEBYTECODE is set (as on this
# machine), every process compiled mlnotes and re-rewrote the asserts of every test module again; pytest's
# collection of tests/ took 11.1 s CPU each time, 7.2 s with the caches written (measured).
unset PYTHONDONTWRITEBYTECODE
mkdir -p _build
rm -f _build/test-report.xml _build/test-report-unit.xml

# The strict build of tools/build.sh, without its setup (done above).
build_start=$SECONDS
bash tools/build.sh --no-setup > _build/build.log 2>&1 &
build_pid=$!
# The unit tests (no notebook, no site): one process, on the core the build leaves.
.venv/bin/python -m pytest tests/unit tests/test_layers.py -p no:cacheprovider -n 0 \
  --durations=10 --junitxml=_build/test-report-unit.xml "$@" > _build/test-unit.log 2>&1 &
unit_pid=$!
build_status=0
wait "$build_pid" || build_status=$?
build_seconds=$((SECONDS - build_start))
cat _build/build.log
echo "test: strict build took $build_seconds s (alongside the unit tests), exit status $build_status"

# --dist loadscope with the work units of conftest.py: a notebook's cells, or a site page's browser
# tests, run in order on one worker; the longest units start first.
# _build/test-report.xml (and -unit.xml): every test's seconds, which tools/stages.py sums per stage and per
# chapter (and projects to the whole course) after the run.
site_tests=()
if [ "$build_status" -ne 0 ]; then
  # never check a stale site from an earlier build
  echo "test: the strict build failed (above): the browser tests of the site do not run"
  site_tests=(--ignore=tests/site)
fi
status=0
pytest_start=$SECONDS
.venv/bin/python -m pytest tests book -p no:cacheprovider --ignore=tests/unit --ignore=tests/test_layers.py \
  "${site_tests[@]}" \
  --nbval --nbval-current-env --nbval-sanitize-with tests/nbval_sanitize.cfg \
  -n 2 --dist loadscope --durations=30 --junitxml=_build/test-report.xml "$@" || status=$?
unit_status=0
wait "$unit_pid" || unit_status=$?
echo "test: the unit tests (alongside the build):"
cat _build/test-unit.log
# with extra arguments (e.g. -k) the unit run may select nothing (pytest's exit status 5): not a failure then
if [ "$unit_status" -eq 5 ] && [ $# -gt 0 ]; then unit_status=0; fi
wall_seconds=$((SECONDS - start))
echo "test: pytest took $((SECONDS - pytest_start)) s after the build; setup $setup_seconds s, build $build_seconds s;" \
  "$wall_seconds s in all"
.venv/bin/python tools/stages.py _build/test-report.xml _build/test-report-unit.xml \
  --fixed "$setup_seconds" --alongside "$build_seconds" --wall "$wall_seconds" || true
for code in "$build_status" "$unit_status" "$status"; do
  if [ "$code" -ne 0 ]; then exit 1; fi
done
