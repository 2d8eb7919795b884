#!/usr/bin/env bash
# Fetch the JavaScript the site serves itself, so that no page needs a CDN:
#   - MathJax 3 (tex-mml-svg component, which draws glyphs as SVG paths and needs no font files; TeX
#     extensions; the CHTML output and its fonts, which MathJax's menu loads when a reader picks it),
#   - RequireJS,
#   - the Jupyter widget manager @jupyter-widgets/html-manager (embed-amd.js plus the
#     font/image files it loads at run time, relative to its own URL).
# Everything lands in book/_assets/vendor/ (gitignored), which Sphinx copies to _build/html/_static/vendor/.
#
# Usage: tools/assets.sh [--force]
#   Idempotent: when vendor/.stamp records the same pinned versions and all files are there, it does nothing.
#   --force refetches. Needs node's npm (talks to the npm registry only: `npm pack`, no install scripts).
set -euo pipefail

MATHJAX_VERSION=3.2.2
HTML_MANAGER_VERSION=1.0.15
REQUIREJS_VERSION=2.3.8

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
VENDOR="$ROOT/book/_assets/vendor"
STAMP="$VENDOR/.stamp"
WANT_STAMP="mathjax@$MATHJAX_VERSION @jupyter-widgets/html-manager@$HTML_MANAGER_VERSION requirejs@$REQUIREJS_VERSION"

# Files that must exist for the site to work offline (checked for the fast path).
REQUIRED=(
  mathjax/tex-mml-svg.js
  mathjax/output/chtml.js
  mathjax/output/chtml/fonts/tex.js
  mathjax/output/chtml/fonts/woff-v2/MathJax_Main-Regular.woff
  mathjax/input/tex/extensions/ams.js
  require.js
  widgets/embed-amd.js
)

force=0
case "${1:-}" in
  --force) force=1 ;;
  "") ;;
  -h|--help) sed -n '2,12p' "$0"; exit 0 ;;
  *) echo "assets.sh: unknown argument: $1 (use --force or nothing)" >&2; exit 2 ;;
esac

if [[ $force -eq 0 && -f "$STAMP" && "$(cat "$STAMP")" == "$WANT_STAMP" ]]; then
  ok=1
  for f in "${REQUIRED[@]}"; do [[ -s "$VENDOR/$f" ]] || { ok=0; break; }; done
  if [[ $ok -eq 1 ]]; then
    echo "assets.sh: vendored assets up to date ($WANT_STAMP) in ${VENDOR#$ROOT/}"
    exit 0
  fi
fi

if ! command -v npm >/dev/null 2>&1; then
  cat >&2 <<EOF
assets.sh: ERROR: npm not found on PATH.
  The site serves MathJax, RequireJS and the Jupyter widget manager itself (no CDN); they are fetched
  from the npm registry. Install Node.js with npm (e.g. 'apt-get install -y npm', or https://nodejs.org),
  then rerun: tools/assets.sh
EOF
  exit 1
fi

TMP="$(mktemp -d "${TMPDIR:-/tmp}/mlnotes-assets.XXXXXX")"
trap 'rm -rf "$TMP"' EXIT

echo "assets.sh: fetching $WANT_STAMP from the npm registry"
(
  cd "$TMP"
  # npm pack downloads the published tarball only: no dependencies, no install scripts.
  npm pack --silent \
    "mathjax@$MATHJAX_VERSION" \
    "@jupyter-widgets/html-manager@$HTML_MANAGER_VERSION" \
    "requirejs@$REQUIREJS_VERSION" >/dev/null
  for name in mathjax html-manager requirejs; do
    tgz=$(ls ./*"$name"-*.tgz)
    mkdir -p "x/$name"
    tar -xzf "$tgz" -C "x/$name"
  done
)
MJ="$TMP/x/mathjax/package/es5"
HM="$TMP/x/html-manager/package/dist"
RJ="$TMP/x/requirejs/package"

# Assemble in a staging dir and swap it in, so an interrupted run never leaves half a vendor dir.
STAGE="$TMP/vendor"
mkdir -p "$STAGE/mathjax/input/tex" "$STAGE/mathjax/output/chtml/fonts" "$STAGE/widgets"

# MathJax: the combined component plus what it loads lazily, at the same relative paths as in es5/.
cp "$MJ/tex-mml-svg.js" "$STAGE/mathjax/"
# Math Renderer > CHTML in MathJax's context menu loads output/chtml.js, its font data and fonts (relative to the
# component): without them the reader's choice, which MathJax keeps in localStorage, left every page
# without math, offline
cp "$MJ/output/chtml.js" "$STAGE/mathjax/output/"
cp "$MJ/output/chtml/fonts/tex.js" "$STAGE/mathjax/output/chtml/fonts/"
cp -r "$MJ/output/chtml/fonts/woff-v2" "$STAGE/mathjax/output/chtml/fonts/"
cp -r "$MJ/input/tex/extensions" "$STAGE/mathjax/input/tex/"
cp "$TMP/x/mathjax/package/LICENSE" "$STAGE/mathjax/LICENSE"

# RequireJS (the package ships the unminified require.js only).
cp "$RJ/require.js" "$STAGE/require.js"

# Widget manager: embed-amd.js and the files its webpack public path points at (font-awesome and
# other fonts/images, content-hashed names next to the bundle). No source maps, no embed.js.
cp "$HM/embed-amd.js" "$STAGE/widgets/"
find "$HM" -maxdepth 1 -type f \
  \( -name '*.woff2' -o -name '*.woff' -o -name '*.ttf' -o -name '*.eot' -o -name '*.svg' \
     -o -name '*.png' -o -name '*.gif' -o -name '*.css' \) -exec cp {} "$STAGE/widgets/" \;
[[ -f "$HM/embed.js.LICENSE.txt" ]] && cp "$HM/embed.js.LICENSE.txt" "$STAGE/widgets/LICENSE.txt"

for f in "${REQUIRED[@]}"; do
  [[ -s "$STAGE/$f" ]] || { echo "assets.sh: ERROR: expected $f missing after extraction" >&2; exit 1; }
done
echo "$WANT_STAMP" > "$STAGE/.stamp"

mkdir -p "$(dirname "$VENDOR")"
rm -rf "$VENDOR.old"
[[ -d "$VENDOR" ]] && mv "$VENDOR" "$VENDOR.old"
mv "$STAGE" "$VENDOR"
rm -rf "$VENDOR.old"

echo "assets.sh: vendored into ${VENDOR#$ROOT/} ($(du -sh "$VENDOR" | cut -f1))"
