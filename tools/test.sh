#!/usr/bin/env bash
# Run every test: set up, strict build, then in one pytest run the library's unit tests, the
# checker's must-fail tests, notebook hygiene and tool tests, nbval over every chapter, and the
# browser check of the built site (headless Chromium). Extra arguments go to pytest.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
if ! command -v chromium >/dev/null 2>&1; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "test: installing Debian's chromium for the browser check"
    (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null) \
      || echo "test: could not install chromium; the browser check will report why"
  else
    echo "test: chromium is missing and cannot be installed here (needs root and apt); the browser check will be skipped"
  fi
fi
start=$SECONDS
bash tools/build.sh
echo "test: setup and strict build took $((SECONDS - start)) s"
exec .venv/bin/python -m pytest tests book -p no:cacheprovider \
  --nbval --nbval-current-env --nbval-sanitize-with tests/nbval_sanitize.cfg \
  -n 2 --dist loadfile "$@"
