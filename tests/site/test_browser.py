"""Open every page of the built site in headless Chromium and check what a reader gets, offline.

Per page (parametrized): MathJax typesets every math element without errors or undefined macros, no
request leaves the local server, no failed request, no console error outside ALLOWED_CONSOLE_ERRORS,
every <img> loads, saved widgets render; a full-page screenshot goes to _build/screenshots/<page>.jpg
(tools/test.sh turns them off).
The canary test runs the same checks on a deliberately broken page, so they are known to fail.

Run after building:  tools/assets.sh && jupyter-book build . -W -n --keep-going && pytest tests/site
Environment: MLNOTES_SITE (built site, default _build/html); MLNOTES_SCREENSHOTS (folder, default
<site>/../screenshots, "off" for none); MLNOTES_CHROMIUM (browser binary); CI=true (a missing Chromium or
Playwright fails instead of skipping).
"""

from __future__ import annotations

import contextlib
import functools
import http.server
import json
import os
import re
import shutil
import sys
import threading
from dataclasses import dataclass, field
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))   # tests/: the shared screenshots setting
from screenshots import screenshot_root  # noqa: E402

# ---------------------------------------------------------------------------------------------------
# environment: built site, local server, browser (session fixtures: under `--dist loadgroup` a worker runs
# this module's page units between other units, and one Chromium and one server serve them all) (kept in this file, not conftest.py, so that no
# `import conftest` can pick up another directory's conftest)

REPO = Path(__file__).resolve().parents[2]
CHROMIUM_FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
    "--disable-sync",
    "--disable-quic",
]


def in_ci() -> bool:
    return os.environ.get("CI", "").strip().lower() in {"true", "1", "yes"}


def unavailable(reason: str):
    """Skip locally, fail in CI: a CI run must never pass without the browser checks."""
    if in_ci():
        pytest.fail(f"{reason} (CI=true: the browser checks are required)", pytrace=False)
    pytest.skip(reason)


def site_dir() -> Path:
    return Path(os.environ.get("MLNOTES_SITE", REPO / "_build" / "html")).resolve()


def require_site() -> Path:
    site = site_dir()
    if not (site / "index.html").is_file():
        pytest.fail(
            f"built site not found at {site} (no index.html). Build it first:\n"
            "    tools/assets.sh && jupyter-book build . -W -n --keep-going\n"
            "or point MLNOTES_SITE at a built site.",
            pytrace=False,
        )
    return site


def find_chromium() -> str | None:
    """$MLNOTES_CHROMIUM if set (and only it), else chromium on PATH, else /usr/bin/chromium."""
    explicit = os.environ.get("MLNOTES_CHROMIUM")
    candidates = [explicit] if explicit else [shutil.which("chromium"), "/usr/bin/chromium"]
    for candidate in candidates:
        if candidate and Path(candidate).is_file() and os.access(candidate, os.X_OK):
            return candidate
    return None


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format, *args):  # noqa: A002 - signature from the base class
        pass


@contextlib.contextmanager
def serve(directory: Path):
    """Serve ``directory`` on 127.0.0.1:<free port>; yields the origin, e.g. ``http://127.0.0.1:41234``."""
    handler = functools.partial(_QuietHandler, directory=str(directory))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, name=f"serve {directory}", daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)


def launch(pw, chromium: str):
    """Headless Chromium that cannot reach the network: every request to another host goes to a proxy that
    is not there (port 9, "discard"); check_page records such requests. (A route could stop them too, but a
    page with a route gets no HTTP cache: see the `reader` fixture.) launch() gives every run a fresh
    temporary user-data-dir and deletes it afterwards."""
    return pw.chromium.launch(executable_path=chromium, headless=True, args=CHROMIUM_FLAGS,
                              proxy={"server": "http://127.0.0.1:9", "bypass": "127.0.0.1,localhost"})


def new_context(browser, width: int = 1280, height: int | None = None):
    """A fresh browser context (no storage, no cache) at ``width`` px, its height a phone's or a desktop's."""
    return browser.new_context(viewport={"width": width, "height": height or VIEWPORT_HEIGHT.get(width, 900)},
                               service_workers="block")


@pytest.fixture(scope="session")
def browser():
    chromium = find_chromium()
    if chromium is None:
        unavailable("Chromium not found ($MLNOTES_CHROMIUM, else chromium on PATH or /usr/bin/chromium); "
                    "apt-get install -y chromium")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        unavailable("Python Playwright is not installed (pip install playwright; never 'playwright install')")
    with sync_playwright() as pw:
        b = launch(pw, chromium)
        try:
            yield b
        finally:
            b.close()


@pytest.fixture(scope="session")
def reader(browser):
    """One browser context for the pages that test_page loads one after another, as a reader's tab: the
    site's scripts (MathJax, the widget manager, the theme: 7 MB) come from its HTTP cache, compiled, after
    the first page (a fresh context for every page took 0.9-1.4 s more for each page after the first,
    measured). A context with a route gets no cache, so external requests are recorded (check_page) and
    stopped by the browser's proxy instead of a route. The pages share storage: the site keeps only the
    theme's colour mode there ("light", which every page sets when it loads), and the navigation test's
    clicks leave nothing (checked), so no page's layout depends on the pages before it;
    test_resized_layout_equals_a_fresh_load compares with a fresh context."""
    context = new_context(browser)
    try:
        yield context
    finally:
        context.close()


@pytest.fixture(scope="session")
def site():
    return require_site()


@pytest.fixture(scope="session")
def origin(site):
    with serve(site) as url:
        yield url


@pytest.fixture(scope="session")
def screenshot_dir(site):
    """<site>/../screenshots, or $MLNOTES_SCREENSHOTS; "off" skips them (a very long page takes seconds)."""
    out = screenshot_root(site.parent / "screenshots")
    if out is not None:
        out.mkdir(parents=True, exist_ok=True)
    return out


# ---------------------------------------------------------------------------------------------------
# the checks

# Console errors and uncaught exceptions that are known and harmless; every entry says why.
ALLOWED_CONSOLE_ERRORS: list[tuple[re.Pattern[str], str]] = [
    (
        re.compile(r"Identifier 'THEBE_JS_URL' has already been declared"),
        # sphinx-thebe emits its inline <script>const THEBE_JS_URL = ...</script> twice on every
        # Jupyter Book 1 page (upstream bug); the second copy throws, the first one works.
        "sphinx-thebe double inline config",
    ),
    (
        re.compile(r"Failed to load resource: .*\(https?://[^ ]+/favicon\.ico:\d*\)$"),
        # Chromium asks every origin for /favicon.ico by itself; the book sets no favicon, the 404 is
        # harmless (and invisible to page.on('request'), so it cannot be checked elsewhere).
        "browser's own /favicon.ico probe",
    ),
]

WIDGET_VIEW_TYPE = "application/vnd.jupyter.widget-view+json"
WIDGET_TIMEOUT_MS = 15_000
NAV_TIMEOUT_MS = 120_000  # generous: a long chapter page on a loaded 2-core machine
REDIRECT_RE = re.compile(r'<meta\s+http-equiv="refresh"\s+content="\d+;\s*url=([^"]+)"', re.I)


def discover_pages(site: Path) -> list[str]:
    """All HTML pages of the built site, relative to its root: every _toc.yml page, and also index.html
    (a redirect), search.html and genindex.html, which must load cleanly too. Theme templates under
    _static are not pages."""
    if not site.is_dir():
        return []
    skip_dirs = {"_static", "_sources", "_images", "_downloads", "_panels_static"}
    return sorted(
        p.relative_to(site).as_posix()
        for p in site.rglob("*.html")
        if not (set(p.relative_to(site).parts[:-1]) & skip_dirs)
    )


def toc_pages() -> list[str]:
    """The .html page each _toc.yml entry (root and every file) becomes."""
    import yaml

    toc = yaml.safe_load((REPO / "_toc.yml").read_text())
    files: list[str] = []

    def walk(node):
        if isinstance(node, dict):
            for key in ("root", "file"):
                if isinstance(node.get(key), str):
                    files.append(node[key])
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    walk(toc)
    return [re.sub(r"\.(md|ipynb|rst)$", "", f) + ".html" for f in files]


@dataclass
class PageReport:
    url: str
    external_requests: list[str] = field(default_factory=list)
    failed_requests: list[str] = field(default_factory=list)
    console_errors: list[str] = field(default_factory=list)
    math_errors: list[str] = field(default_factory=list)
    broken_images: list[str] = field(default_factory=list)
    widget_errors: list[str] = field(default_factory=list)
    math_elements: int = 0
    mjx_containers: int = 0
    images: int = 0
    widget_views: int = 0
    widgets_rendered: int = 0

    def problems(self) -> dict[str, list[str]]:
        kinds = ("external_requests", "failed_requests", "console_errors", "math_errors", "broken_images",
                 "widget_errors")
        return {k: getattr(self, k) for k in kinds if getattr(self, k)}

    def summary(self) -> str:
        lines = [f"{self.url}:"]
        for kind, items in self.problems().items():
            lines.append(f"  {kind}:")
            lines += [f"    - {item}" for item in items]
        return "\n".join(lines)


def is_local(url: str, origin: str) -> bool:
    return url.startswith(origin + "/") or url == origin or url.startswith(("data:", "blob:", "about:"))


def allowed_console_error(text: str) -> bool:
    return any(pattern.search(text) for pattern, _why in ALLOWED_CONSOLE_ERRORS)


_SETTLE_JS = """async () => {
  if (window.MathJax && MathJax.startup && MathJax.startup.promise) await MathJax.startup.promise;
  await Promise.all(Array.from(document.images).map(img => img.complete ? null :
    new Promise(done => { img.addEventListener('load', done); img.addEventListener('error', done); })));
  await document.fonts.ready;
}"""

_MATH_JS = r"""() => {
  const errors = [];
  // the glyphs are SVG paths (CHTML: CSS), so textContent is empty: use the assistive MathML copy for the message
  const mathSource = el => {
    const box = el.closest('mjx-container');
    const mml = box && box.querySelector('mjx-assistive-mml');
    return ((mml ? mml.textContent : el.textContent) || '').trim().slice(0, 120);
  };
  const maths = Array.from(document.querySelectorAll('.math'));
  for (const el of maths) {
    if (!el.querySelector('mjx-container'))
      errors.push('not typeset: ' + el.textContent.trim().slice(0, 120));
  }
  // both of MathJax's outputs: the site's SVG (_config.yml: mathjax_path) and CHTML
  for (const el of document.querySelectorAll('mjx-merror, mjx-container [data-mml-node="merror"]'))
    errors.push('merror: ' + (el.getAttribute('data-mjx-error') || mathSource(el)).slice(0, 120));
  // undefined macros (MathJax 3 noundefined extension) render as red text, not as merror: SVG puts the
  // colour in a fill attribute, CHTML in the element's inline style (read attributes and el.style, not
  // getComputedStyle, which recalculated the style of ~100,000 glyph elements: 0.7 s a chapter page, measured)
  const red = c => ['red', 'rgb(255,0,0)', '#f00', '#ff0000'].includes((c || '').replace(/\s/g, '').toLowerCase());
  for (const el of document.querySelectorAll('mjx-container [data-mml-node="mtext"][fill], mjx-mtext[style]')) {
    if (red(el.getAttribute('fill')) || red(el.style.color))
      errors.push('red mtext (undefined macro?) in: ' + mathSource(el));
  }
  // widget labels and HTMLMath widgets whose TeX was left raw (e.g. no MathJax.Hub shim, $ delimiters)
  const skip = 'script, style, pre, code, textarea, input, mjx-container';
  for (const area of document.querySelectorAll('.widget-subarea')) {
    const walker = document.createTreeWalker(area, NodeFilter.SHOW_TEXT);
    while (walker.nextNode()) {
      const node = walker.currentNode;
      if (node.parentElement && node.parentElement.closest(skip)) continue;
      if (/\$[^$\n]+\$|\\\(|\\\[/.test(node.nodeValue))
        errors.push('raw TeX in a widget: ' + node.nodeValue.trim().slice(0, 120));
    }
  }
  // the same from MathJax's own internal MathML: merror nodes and mathcolor=red mtext nodes
  const doc = window.MathJax && MathJax.startup && MathJax.startup.document;
  if (doc && doc.math) {
    for (const item of doc.math) {
      if (!item.root || !item.root.walkTree) continue;
      item.root.walkTree(node => {
        if (node.isKind('merror')) errors.push('MathJax merror in: ' + String(item.math).slice(0, 120));
        else if (node.isKind('mtext') && node.attributes.get('mathcolor') === 'red')
          errors.push('undefined macro in: ' + String(item.math).slice(0, 120));
      });
    }
  }
  return {errors, mathElements: maths.length, containers: document.querySelectorAll('mjx-container').length};
}"""

_IMAGES_JS = """() => Array.from(document.images).map(img => ({
  src: img.currentSrc || img.src || img.outerHTML.slice(0, 120), ok: img.complete && img.naturalWidth > 0}))"""

_WIDGETS_RENDERED_JS = f"""() => Array.from(document.querySelectorAll('script[type="{WIDGET_VIEW_TYPE}"]'))
  .filter(s => {{ const area = s.previousElementSibling;
                 return area && area.classList.contains('widget-subarea') &&
                        area.querySelector('.jupyter-widgets, .lm-Widget') !== null; }}).length"""


def check_page(browser, url: str, origin: str, screenshot: Path | None = None,
               widget_timeout_ms: int = WIDGET_TIMEOUT_MS, inspect=None, context=None) -> PageReport:
    """Load ``url`` in a new tab of ``context`` (else of a fresh browser context, closed afterwards) and
    collect every problem (does not assert). ``inspect(page)``, if given, runs on the loaded page after the
    checks (and the screenshot), before the tab closes: the layout tests measure the same load instead of
    loading the page again. External requests are recorded; the browser's proxy (launch) stops them."""
    report = PageReport(url)
    own_context = context is None
    if own_context:
        context = new_context(browser)
    page = context.new_page()
    page.set_default_timeout(NAV_TIMEOUT_MS)

    def on_request(request):
        if not is_local(request.url, origin):
            report.external_requests.append(f"{request.method} {request.url}")

    def on_response(response):
        if response.status >= 400:
            report.failed_requests.append(f"HTTP {response.status} {response.url}")

    def on_request_failed(request):
        if is_local(request.url, origin):
            report.failed_requests.append(f"{request.failure} {request.url}")

    def on_console(msg):
        if msg.type == "error":
            loc = msg.location or {}
            text = f"console.error: {msg.text} ({loc.get('url', '')}:{loc.get('lineNumber', '')})"
            if not allowed_console_error(text):
                report.console_errors.append(text)

    def on_page_error(error):
        text = f"uncaught: {error}"
        if not allowed_console_error(text):
            report.console_errors.append(text)

    page.on("request", on_request)
    page.on("response", on_response)
    page.on("requestfailed", on_request_failed)
    page.on("console", on_console)
    page.on("pageerror", on_page_error)
    try:
        page.goto(url, wait_until="load")
        page.evaluate(_SETTLE_JS)

        report.widget_views = page.locator(f'script[type="{WIDGET_VIEW_TYPE}"]').count()
        if report.widget_views:
            try:
                page.wait_for_function(f"n => ({_WIDGETS_RENDERED_JS})() >= n", arg=report.widget_views,
                                       timeout=widget_timeout_ms)
            except Exception:  # playwright TimeoutError; reported below with the count
                pass
            report.widgets_rendered = page.evaluate(_WIDGETS_RENDERED_JS)
            if report.widgets_rendered < report.widget_views:
                report.widget_errors.append(
                    f"{report.widgets_rendered} of {report.widget_views} saved widget views rendered "
                    f"(no widget DOM after {widget_timeout_ms} ms)")
            page.evaluate(_SETTLE_JS)  # widget labels may queue more typesetting and fonts

        math = page.evaluate(_MATH_JS)
        report.math_errors += math["errors"]
        report.math_elements, report.mjx_containers = math["mathElements"], math["containers"]

        images = page.evaluate(_IMAGES_JS)
        report.images = len(images)
        report.broken_images += [img["src"] for img in images if not img["ok"]]

        if screenshot is not None:
            screenshot.parent.mkdir(parents=True, exist_ok=True)
            # JPEG: a 40,000 px chapter page encodes in about half the time PNG takes (measured)
            page.screenshot(path=str(screenshot), full_page=True,
                            **({"type": "jpeg", "quality": 70} if screenshot.suffix == ".jpg" else {}))
        if inspect is not None:
            inspect(page)
    finally:
        page.close()
        if own_context:
            context.close()
    return report


# ---------------------------------------------------------------------------------------------------
# layout measurements (issue 9, "read on any screen"): one function used for the before/after numbers
# (tests/site/measure.py) and by the layout tests below

MEASURE_WIDTHS = (1280, 390)
VIEWPORT_HEIGHT = {1280: 900, 390: 844}

_MEASURE_JS = r"""(equationsOnly) => {
  // closed <details> keep their content laid out under content-visibility: hidden (Chromium), so
  // getClientRects alone would count collapsed code as shown
  // (inside a closed <details> is hidden: asking Chromium first lays out the hidden subtree, 3 s of a long
  // chapter page, measured)
  const visible = el => !el.closest('details:not([open])') && el.getClientRects().length > 0 &&
                        (!el.checkVisibility || el.checkVisibility());
  const px = v => parseFloat(v) || 0;
  const article = document.querySelector('article.bd-article') || document.querySelector('main') || document.body;
  const as = getComputedStyle(article);
  const column = article.clientWidth - px(as.paddingLeft) - px(as.paddingRight);
  const ctx = document.createElement('canvas').getContext('2d');

  // code blocks: lines, and lines wider than the block's visible width (cut off on the right)
  function codeStats(pre) {
    const s = getComputedStyle(pre);
    ctx.font = `${s.fontStyle} ${s.fontWeight} ${s.fontSize} ${s.fontFamily}`;
    const avail = pre.clientWidth - px(s.paddingLeft) - px(s.paddingRight);
    const lines = pre.textContent.replace(/\n$/, '').split('\n');
    const wraps = /^(pre-wrap|break-spaces|normal|pre-line)$/.test(s.whiteSpace);
    const cut = wraps ? [] : lines.filter(l => ctx.measureText(l.replace(/\t/g, '    ')).width > avail + 1);
    return {lines: lines.length, cut: cut.length, cutExamples: cut.slice(0, 3).map(l => l.trim().slice(0, 80))};
  }
  const code = {lines: 0, cut: 0, px: 0, latexStrings: 0, cells: 0, cellsShown: 0, cutExamples: []};
  for (const cell of equationsOnly ? [] : document.querySelectorAll('.cell_input')) {
    code.cells += 1;
    if (!visible(cell)) continue;
    code.cellsShown += 1;
    code.px += cell.getBoundingClientRect().height;
    for (const pre of cell.querySelectorAll('pre')) {
      const st = codeStats(pre);
      code.lines += st.lines; code.cut += st.cut;
      if (code.cutExamples.length < 5) code.cutExamples.push(...st.cutExamples);
      code.latexStrings += (pre.textContent.match(/latex\s*=/g) || []).length;
    }
  }
  const output = {lines: 0, cut: 0, px: 0};
  for (const cell of equationsOnly ? [] : document.querySelectorAll('.cell_output')) {
    if (!visible(cell)) continue;
    output.px += cell.getBoundingClientRect().height;
    for (const pre of cell.querySelectorAll('pre')) {
      if (!visible(pre)) continue;
      const st = codeStats(pre); output.lines += st.lines; output.cut += st.cut;
    }
  }

  // display equations: wider than the room MathJax has for them (column minus the equation number)?
  const texOf = new Map();
  const doc = window.MathJax && MathJax.startup && MathJax.startup.document;
  if (doc && doc.math) for (const item of doc.math) if (item.typesetRoot) texOf.set(item.typesetRoot, String(item.math));
  const equations = [];
  for (const box of document.querySelectorAll('div.math')) {
    const c = box.querySelector('mjx-container');
    if (!c || !visible(box)) continue;
    const m = c.querySelector(':scope > svg, mjx-math');  // the drawn equation (SVG output; CHTML)
    const width = m ? m.getBoundingClientRect().width : c.scrollWidth;
    const room = c.clientWidth;
    const cs = getComputedStyle(c);
    const eqno = box.querySelector('.eqno');
    equations.push({
      label: box.id ? box.id.replace(/^equation-/, '') : null,
      number: eqno ? eqno.textContent.replace(/#$/, '').trim() : null,
      tex: (texOf.get(c) || box.textContent).replace(/\s+/g, ' ').trim().slice(0, 60),
      inOutput: !!box.closest('.cell_output'),
      folded: !!box.closest('details.mlnotes-opened'),  // shown only after a reader opens a <details>
      width: Math.round(width), room: Math.round(room), column: Math.round(box.clientWidth),
      overwide: width > room + 1,
      scrolls: /auto|scroll/.test(cs.overflowX) && c.scrollWidth >= width - 1,
      cue: /gradient/.test(cs.backgroundImage) || c.classList.contains('mlnotes-scroll-cue'),
    });
  }

  // text in the opened folds of outputs (a long checked form is sympy's text): no block may need a
  // sideways scroll
  const foldedCode = {blocks: 0, cut: []};
  for (const pre of equationsOnly ? document.querySelectorAll('.cell_output details.mlnotes-opened pre') : []) {
    if (!visible(pre)) continue;
    foldedCode.blocks += 1;
    if (pre.scrollWidth > pre.clientWidth + 1) foldedCode.cut.push(pre.textContent.trim().slice(0, 60));
  }

  const tables = (equationsOnly ? [] : Array.from(article.querySelectorAll('table'))).filter(visible).map(t => {
    const r = t.getBoundingClientRect();
    let sc = t.parentElement, scrolls = false;
    for (; sc && sc !== article; sc = sc.parentElement)
      if (/auto|scroll/.test(getComputedStyle(sc).overflowX) && sc.clientWidth < sc.scrollWidth) { scrolls = true; break; }
    return {id: t.id || (t.closest('section[id]') || {}).id || null, width: Math.round(r.width),
            column: Math.round(column), overflows: r.width > column + 1, scrolls};
  });

  const figures = (equationsOnly ? [] : Array.from(article.querySelectorAll('.cell_output img, .widget-subarea img, figure img'))).filter(visible)
    .map(img => ({src: (img.currentSrc || img.src).slice(0, 600), natural: img.naturalWidth, naturalHeight: img.naturalHeight,
                  rendered: Math.round(img.getBoundingClientRect().width * 10) / 10,
                  inWidget: !!img.closest('.widget-subarea'),
                  scrolls: img.parentElement.scrollWidth > img.parentElement.clientWidth + 1 &&
                           /auto|scroll/.test(getComputedStyle(img.parentElement).overflowX),
                  hint: !!(img.parentElement.previousElementSibling &&
                           img.parentElement.previousElementSibling.classList.contains('mlnotes-scroll-hint')),
                  section: ((img.closest('section') || {}).querySelector ?
                            (img.closest('section').querySelector('h1, h2, h3, h4') || {}).textContent || '' : '')
                            .replace(/#$/, '').trim().slice(0, 80)}));

  // widgets: every control (form elements, noUiSlider tracks, editable readouts) outside output areas,
  // and whether it is really disabled (not only styled); the static-site note must sit above the widget
  const widgets = [];
  for (const area of equationsOnly ? [] : document.querySelectorAll('.widget-subarea')) {
    const controls = Array.from(area.querySelectorAll(
      'input, select, textarea, button, .noUi-target, [contenteditable]'))
      .filter(el => !el.closest('.widget-output') && (!el.hasAttribute('contenteditable') || el.matches('.widget-readout, [contenteditable="true"], [contenteditable="false"]')));
    const isDisabled = el => el.matches('.noUi-target') ? el.hasAttribute('disabled')
      : el.hasAttribute('contenteditable') ? !el.isContentEditable : el.disabled === true;
    const before = area.previousElementSibling;
    widgets.push({controls: controls.length, disabled: controls.filter(isDisabled).length,
                  note: !!(before && before.classList.contains('mlnotes-widget-note') && before.textContent.trim()),
                  noteText: before && before.classList.contains('mlnotes-widget-note') ? before.textContent.trim().slice(0, 200) : null});
  }

  return {height: document.documentElement.scrollHeight, column: Math.round(column),
          code, output, equations, tables, figures, widgets, foldedCode};
}"""


# the layout measurements load the long chapter pages one after another in one tab: on a loaded 2-core
# machine a 50,000 px page with ~1,500 equations can take longer than NAV_TIMEOUT_MS to reach "load"
MEASURE_TIMEOUT_MS = 180_000


def new_page(browser, width: int = 1280, height: int | None = None, timeout_ms: int = MEASURE_TIMEOUT_MS):
    """A fresh context and page at ``width`` px (requests to other hosts fail at the browser's proxy: launch).
    Returns (context, page); the caller closes the context."""
    context = new_context(browser, width, height)
    page = context.new_page()
    page.set_default_timeout(timeout_ms)
    return context, page


def load(page, url: str) -> None:
    """Go to ``url`` and wait for MathJax, images, fonts and saved widgets."""
    page.goto(url, wait_until="load")
    page.evaluate(_SETTLE_JS)
    views = page.locator(f'script[type="{WIDGET_VIEW_TYPE}"]').count()
    if views:
        try:
            page.wait_for_function(f"n => ({_WIDGETS_RENDERED_JS})() >= n", arg=views, timeout=WIDGET_TIMEOUT_MS)
        except Exception:  # reported by check_page; the measurement records what rendered
            pass
        page.evaluate(_SETTLE_JS)


def png_dpi(source: Path | bytes) -> float | None:
    """Pixels per inch recorded in a PNG's pHYs chunk (matplotlib writes the dpi it drew at), else None.
    ``source``: a PNG file, or the PNG's first bytes (the chunk comes before the image data)."""
    import struct

    try:
        data = source if isinstance(source, bytes) else source.read_bytes()
    except OSError:
        return None
    i = data.find(b"pHYs")
    if i < 0 or len(data) < i + 13:
        return None
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        return None
    x_ppu, _y_ppu, unit = struct.unpack(">IIB", data[i + 4:i + 13])
    return x_ppu * 0.0254 if unit == 1 else None


def measure_page(page, site: Path | None = None, origin: str | None = None) -> dict:
    """Layout numbers of the loaded page (see _MEASURE_JS); figures get their PNG dpi (from ``site``) and
    the CSS px per figure inch they are shown at."""
    m = page.evaluate(_MEASURE_JS, False)
    import base64

    for fig in m["figures"]:
        dpi = None
        if site is not None and origin and fig["src"].startswith(origin + "/"):
            dpi = png_dpi(site / fig["src"][len(origin) + 1:].split("?")[0])
        elif fig["src"].startswith("data:image/png;base64,"):  # widget outputs: the PNG's first bytes
            head = fig["src"][len("data:image/png;base64,"):]
            dpi = png_dpi(base64.b64decode(head[: len(head) // 4 * 4]))
            fig["src"] = fig["src"][:40] + "..."
        fig["dpi"] = dpi
        # a figure inch is `dpi` image pixels; shown at rendered/natural CSS px per image pixel
        fig["css_px_per_inch"] = (round(fig["rendered"] / fig["natural"] * dpi, 1)
                                  if dpi and fig["natural"] else None)
    return m


_OPEN_DETAILS_JS = """() => { const closed = Array.from(document.querySelectorAll('article details:not([open])'));
  closed.forEach(d => { d.open = true; d.classList.add('mlnotes-opened'); }); return closed.length; }"""


def open_folds(page) -> None:
    """Open every folded <details> of the loaded page (collapsed code, dropdowns, claim details), marked
    ``mlnotes-opened`` so that close_folds closes exactly these, and let MathJax, images and fonts settle."""
    page.evaluate(_OPEN_DETAILS_JS)
    page.evaluate(_SETTLE_JS)


def close_folds(page) -> None:
    page.evaluate(_CLOSE_OPENED_JS)
    page.evaluate(_FRAMES_JS)


def add_folded_equations(entry: dict, opened: dict) -> None:
    """Record what was measured with every fold open (a reader who opens them must not meet an over-wide
    equation or a text cut off either): detail["equations_all"] and the summary counts over it
    (overwide_equations*), detail["folded_code"] (text blocks in opened output folds, and those cut off)."""
    equations = opened["equations"]
    entry["detail"]["equations_all"] = equations
    entry["detail"]["folded_code"] = opened["foldedCode"]
    entry["summary"].update({
        "display_equations_all": len(equations),
        "overwide_equations": sum(e["overwide"] and must_fit(e) for e in equations),
        "overwide_folded_outputs": sum(e["overwide"] and not must_fit(e) for e in equations),
        "overwide_clipped": sum(e["overwide"] and not e["scrolls"] for e in equations),
        "overwide_without_cue": sum(e["overwide"] and not e["cue"] for e in equations),
    })


def measure_open_equations(page) -> dict:
    """The display equations ("equations") and the text blocks of output folds ("foldedCode") of the loaded
    page as _MEASURE_JS measures them, with every fold open (the caller opens them: open_folds)."""
    return page.evaluate(_MEASURE_JS, True)


def summarize(m: dict) -> dict:
    """The headline numbers of one page's measurement."""
    eqs = m["equations"]
    return {
        "height_px": m["height"],
        "code_lines_visible": m["code"]["lines"],
        "code_lines_cut": m["code"]["cut"],
        "code_cells": m["code"]["cells"],
        "code_cells_shown": m["code"]["cellsShown"],
        "code_px": round(m["code"]["px"]),
        "output_px": round(m["output"]["px"]),
        "output_lines_cut": m["output"]["cut"],
        "latex_strings_visible": m["code"]["latexStrings"],
        "display_equations": len(eqs),
        "overwide_equations_shown": sum(e["overwide"] for e in eqs),
        "overwide_equations": sum(e["overwide"] for e in eqs),  # replaced with folded ones included
        "overwide_clipped": sum(e["overwide"] and not e["scrolls"] for e in eqs),
        "overwide_without_cue": sum(e["overwide"] and not e["cue"] for e in eqs),
        "tables_overflowing": [t["width"] for t in m["tables"] if t["overflows"]],
        "widest_table_px": max((t["width"] for t in m["tables"]), default=0),
        "column_px": m["column"],
        "figures": len(m["figures"]),
        "min_figure_css_px_per_inch": min((f["css_px_per_inch"] for f in m["figures"] if f["css_px_per_inch"]),
                                          default=None),
        "widgets": len(m["widgets"]),
        "widgets_honest": sum(w["note"] and w["disabled"] == w["controls"] for w in m["widgets"]),
    }


# pages and anchors photographed for the closing note of issue 9
SHOT_PAGES = ("book/intro.html", "book/part1/01_linear_algebra.html", "book/part2/06_gradient_methods.html",
              "book/part3/12_linear_classification.html", "book/back/errata.html")
_SHOT_ANCHORS = {
    "code": "document.querySelector('.cell')",
    "equation": """Array.from(document.querySelectorAll('div.math mjx-container')).sort(
        (a, b) => (b.scrollWidth - b.clientWidth) - (a.scrollWidth - a.clientWidth))[0]""",
    "widget": "document.querySelector('.widget-subarea')",
    "table": "document.querySelector('article table')",
    "figure": "document.querySelector('.cell_output img')",
}


def screenshots(page, out_dir: Path, stem: str) -> list[Path]:
    """Viewport screenshots of the loaded page: its top, and each anchor of _SHOT_ANCHORS it has."""
    out_dir.mkdir(parents=True, exist_ok=True)
    shots = []
    page.evaluate("window.scrollTo(0, 0)")
    shots.append(out_dir / f"{stem}-top.png")
    page.screenshot(path=str(shots[-1]))
    for name, expr in _SHOT_ANCHORS.items():
        found = page.evaluate(f"""() => {{ const el = {expr};
            if (!el || !el.getClientRects().length) return false;
            const box = el.closest('div.math, .cell, table, .widget-subarea') || el;
            window.scrollTo(0, box.getBoundingClientRect().top + window.scrollY - 60); return true; }}""")
        if found:
            shots.append(out_dir / f"{stem}-{name}.png")
            page.screenshot(path=str(shots[-1]))
    return shots


def measure_loaded(page, site: Path, origin: str) -> dict:
    """{"summary", "detail"} of the loaded page at its present width: its layout as loaded, then the display
    equations with every fold opened (closed again afterwards)."""
    m = measure_page(page, site, origin)
    entry = {"summary": summarize(m), "detail": m}
    open_folds(page)
    add_folded_equations(entry, measure_open_equations(page))
    close_folds(page)
    return entry


_CLOSE_OPENED_JS = """() => document.querySelectorAll('details.mlnotes-opened').forEach(d => {
  d.open = false; d.classList.remove('mlnotes-opened'); })"""
_FRAMES_JS = "() => new Promise(done => requestAnimationFrame(() => requestAnimationFrame(done)))"


def resize(page, width: int) -> None:
    """Give the loaded page the viewport of ``width`` (and its height) and let the layout settle: the
    theme's layout is CSS, and the book's scripts (figures.js) follow a resize."""
    page.set_viewport_size({"width": width, "height": VIEWPORT_HEIGHT.get(width, 900)})
    page.evaluate(_FRAMES_JS)
    page.evaluate(_SETTLE_JS)


def measure_widths(page, site: Path, origin: str, widths=MEASURE_WIDTHS, at_first_width=None) -> dict:
    """measure_loaded at each of ``widths`` on one load of a page at ``widths[0]``: {width: entry}. The same
    numbers, in fewer layouts of the page (each costs seconds on a long chapter): the page as loaded at
    widths[0]; then ``at_first_width(page)`` if given (e.g. the menu button and a slider, on the page as
    a reader first sees it); every fold opened and the equations measured at each width in turn (resizing
    with the folds open); the folds closed and the page as loaded measured at the remaining widths, last
    first. The viewport is left at the width measured last."""
    out = {}
    first = measure_page(page, site, origin)
    out[widths[0]] = {"summary": summarize(first), "detail": first}
    if at_first_width is not None:
        at_first_width(page)
    open_folds(page)
    open_equations = {}
    for i, width in enumerate(widths):
        if i:
            resize(page, width)
        open_equations[width] = measure_open_equations(page)
    close_folds(page)
    for i, width in enumerate(reversed(widths[1:])):
        if i:
            resize(page, width)
        m = measure_page(page, site, origin)
        out[width] = {"summary": summarize(m), "detail": m}
    for width in widths:
        add_folded_equations(out[width], open_equations[width])
    return out


def drag_first_slider(page) -> tuple[str, str] | None:
    """Drag the first slider handle of the loaded page 150 px right; (readout before, readout after), or
    None if the page has no slider."""
    handle = page.locator(".widget-subarea .noUi-handle").first
    if not handle.count():
        return None
    readout = page.locator(".widget-subarea .widget-readout").first
    before = readout.inner_text()
    handle.scroll_into_view_if_needed()
    box = handle.bounding_box()
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.down()
    page.mouse.move(box["x"] + 150, box["y"] + box["height"] / 2, steps=5)
    page.mouse.up()
    return before, readout.inner_text()


def measure_site(browser, site: Path, origin: str, pages: list[str], widths=MEASURE_WIDTHS,
                 shot_dir: Path | None = None, shot_pages=SHOT_PAGES) -> dict:
    """Measure ``pages`` at each width; returns {page: {width: {"summary": ..., "detail": ...}}}.
    Screenshots of ``shot_pages`` go to ``shot_dir`` as <page stem>-<width>-<anchor>.png."""
    result: dict = {}
    for width in widths:
        context, page = new_page(browser, width)
        try:
            for path in pages:
                load(page, f"{origin}/{path}")
                shots = ([str(p) for p in screenshots(page, shot_dir, Path(path).stem + f"-{width}")]
                         if shot_dir is not None and path in shot_pages else None)
                result.setdefault(path, {})[str(width)] = measure_loaded(page, site, origin)
                if shots is not None:
                    result[path][str(width)]["screenshots"] = shots
        finally:
            context.close()
    return result


# ---------------------------------------------------------------------------------------------------
# every page of the built site

PAGES = discover_pages(site_dir()) or ["<site not built>"]

#: What test_page measured on its own load of a page (at 1280 px, then resized to 390 px), for the layout,
#: widget and navigation tests below: each page is loaded once (the browser tests are the slowest stage of
#: the test command); test_resized_layout_equals_a_fresh_load shows the resize measures what a fresh load
#: does. (page, width) -> measure_loaded entry; ("slider", page) -> drag_first_slider result;
#: ("nav", page, width) -> navigation_problems; ("fresh", page, width) -> fresh_load.
#: The root conftest.py schedules every test of one page as one work unit on one worker, so they share it.
_LOADED: dict = {}


def test_toc_pages_built(site):
    pages = set(discover_pages(site))
    missing = [p for p in toc_pages() if p not in pages]
    assert not missing, f"_toc.yml entries without a built page in {site}: {missing}"


@pytest.mark.parametrize("page_path", PAGES)
def test_page(page_path, browser, reader, site, origin, screenshot_dir):  # browser first: no Chromium -> skip
    html = (site / page_path).read_text(encoding="utf-8", errors="replace")
    redirect = REDIRECT_RE.search(html)
    if redirect and len(html) < 2000:  # a redirect stub (e.g. Jupyter Book's index.html -> root page)
        target = (site / page_path).parent / redirect.group(1).split("#")[0]
        assert target.is_file(), f"{page_path} redirects to a missing page: {redirect.group(1)}"
        return

    shot = screenshot_dir / (page_path[: -len(".html")] + ".jpg") if screenshot_dir else None

    def at_1280(page):
        if page_path in NAV_PAGES:
            _LOADED[("nav", page_path, 1280)] = navigation_problems(page, page_path, 1280)
        _LOADED[("slider", page_path)] = drag_first_slider(page)    # a static slider must not move

    def inspect(page):
        # on this load: the layout at 1280 px, the menu button (NAV_PAGES) and the slider, then the layout
        # at 390 px by resizing (test_resized_layout_equals_a_fresh_load compares it with a fresh load)
        for width, entry in measure_widths(page, site, origin, (1280, 390), at_first_width=at_1280).items():
            _LOADED[(page_path, width)] = entry

    report = check_page(browser, f"{origin}/{page_path}", origin, screenshot=shot, inspect=inspect, context=reader)
    assert not report.problems(), report.summary()

    # pages whose HTML has math must have it typeset (also when MathJax silently failed to load)
    if 'class="math' in html:
        assert report.math_elements > 0 and report.mjx_containers >= report.math_elements, (
            f"{page_path}: {report.math_elements} math elements, {report.mjx_containers} mjx-container")
    if WIDGET_VIEW_TYPE in html:
        assert report.widget_views > 0 and report.widgets_rendered == report.widget_views
    if shot is not None:
        assert shot.is_file() and shot.stat().st_size > 0


# ---------------------------------------------------------------------------------------------------
# canary: the checks above must be able to fail

# The canary pages load the site's MathJax component with the site's settings (site_mathjax), and a macro
# and (canary) the class of the elements to typeset of their own: canary_site fills in __COMPONENT__ and
# __CONFIG__ (canary_config).
CANARY_HTML = r"""<!doctype html>
<html><head><meta charset="utf-8"><title>canary</title>
<script>window.MathJax = __CONFIG__;</script>
<script defer src="vendor/mathjax/__COMPONENT__"></script>
</head><body>
<p>fine: <span class="math">\(x^\top y \in \R\)</span></p>
<p>undefined macro: <span class="math">\(\undefinedmacro{x} + 1\)</span></p>
<div class="math">\[\frac{1}{2}}\]</div>
<img src="https://cdn.example.invalid/logo.png" alt="external">
<img src="missing.png" alt="broken">
<script type="application/vnd.jupyter.widget-view+json">{"model_id": "0", "version_major": 2, "version_minor": 0}</script>
<script>console.error("canary console error");</script>
<div class="widget-subarea"><div class="jupyter-widgets">label $\alpha$</div></div>
</body></html>
"""

# the theme's navigation markup with buttons bound to nothing (issue 9: the theme bound a hidden copy)
DEADNAV_HTML = """<!doctype html>
<html><head><meta charset="utf-8"><title>dead navigation</title><style>
  body { margin: 0; display: flex; } #pst-primary-sidebar { width: 250px; flex: none; }
  .bd-article { flex: 1; } @media (max-width: 991px) { #pst-primary-sidebar { display: none; } }
</style></head><body>
<button class="primary-toggle">menu</button><button class="secondary-toggle">contents</button>
<dialog id="pst-primary-sidebar-modal"><nav class="bd-links"><a href="#">a chapter</a></nav></dialog>
<dialog id="pst-secondary-sidebar-modal"><nav><a href="#">a section</a></nav></dialog>
<div id="pst-primary-sidebar"><nav class="bd-links"><a href="#">a chapter</a></nav></div>
<article class="bd-article"><nav id="pst-page-toc-nav"></nav><p>text</p></article>
</body></html>
"""

GOOD_HTML = r"""<!doctype html>
<html><head><meta charset="utf-8"><title>good</title>
<script>window.MathJax = __CONFIG__;</script>
<script defer src="vendor/mathjax/__COMPONENT__"></script>
</head><body><p><span class="math">\(x^\top y \in \R\)</span></p>
<p>coloured text that is not an error: <math><mtext mathcolor="blue">ok</mtext></math></p>
<img src="data:image/gif;base64,R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7" alt="dot"></body></html>
"""


def site_mathjax() -> tuple[str, dict]:
    """The site's MathJax component (a file of vendor/mathjax) and its settings (``mathjax3_config``), as
    the repository's _config.yml gives them to every page of the site it builds."""
    import yaml

    config = yaml.safe_load((REPO / "_config.yml").read_text(encoding="utf-8"))["sphinx"]["config"]
    return Path(config["mathjax_path"]).name, config["mathjax3_config"]


def canary_config(settings: dict, process_class: str | None = None) -> dict:
    """The site's MathJax ``settings`` with the canary pages' own macro (the site's TeX settings otherwise
    kept) and, if given, ``process_class`` added to its options (the site's options otherwise kept)."""
    config = {**settings, "tex": {**settings.get("tex", {}), "macros": {"R": "\\mathbb{R}"}}}
    if process_class is not None:
        config["options"] = {**settings.get("options", {}), "processHtmlClass": process_class}
    return config


def _mathjax_dir(site: Path | None, component: str) -> Path | None:
    for candidate in (REPO / "book" / "_assets" / "vendor" / "mathjax",
                      site / "_static" / "vendor" / "mathjax" if site else None):
        if candidate and (candidate / component).is_file():
            return candidate
    return None


@pytest.fixture(scope="module")
def canary_site(tmp_path_factory):
    component, settings = site_mathjax()
    mathjax = _mathjax_dir(site_dir(), component)
    if mathjax is None:
        pytest.fail(f"vendored MathJax ({component}) not found: run tools/assets.sh first", pytrace=False)
    root = tmp_path_factory.mktemp("canary")
    (root / "vendor").mkdir()
    (root / "vendor" / "mathjax").symlink_to(mathjax, target_is_directory=True)
    for name, html, config in (("canary.html", CANARY_HTML, canary_config(settings, "math")),
                               ("good.html", GOOD_HTML, canary_config(settings))):
        html = html.replace("__COMPONENT__", component).replace("__CONFIG__", json.dumps(config))
        (root / name).write_text(html, encoding="utf-8")
    (root / "deadnav.html").write_text(DEADNAV_HTML, encoding="utf-8")
    with serve(root) as url:
        yield url


def test_canary_checks_fail_on_a_broken_page(browser, canary_site):
    report = check_page(browser, f"{canary_site}/canary.html", canary_site, widget_timeout_ms=1500)
    problems = report.problems()
    assert set(problems) == {"external_requests", "failed_requests", "console_errors", "math_errors",
                             "broken_images", "widget_errors"}, report.summary()
    assert any("cdn.example.invalid" in r for r in report.external_requests)
    assert any("404" in r and "missing.png" in r for r in report.failed_requests)
    assert any("canary console error" in e for e in report.console_errors)
    assert any("undefinedmacro" in e and "red mtext" in e for e in report.math_errors), report.math_errors
    assert any("undefinedmacro" in e and "undefined macro in" in e for e in report.math_errors)
    assert any(e.startswith("merror: ") for e in report.math_errors), report.math_errors        # the page
    assert any(e.startswith("MathJax merror in: ") for e in report.math_errors), report.math_errors  # MathJax's
    assert any("raw TeX in a widget: label $\\alpha$" in e for e in report.math_errors), report.math_errors
    assert sorted(Path(s).name for s in report.broken_images) == ["logo.png", "missing.png"]
    assert report.widget_views == 1 and report.widgets_rendered == 0


def test_canary_checks_pass_on_a_good_page(browser, canary_site):
    report = check_page(browser, f"{canary_site}/good.html", canary_site)
    assert not report.problems(), report.summary()
    # the blue MathML text is typeset (a second mjx-container) and is not taken for an undefined macro
    assert report.math_elements == 1 and report.mjx_containers == 2 and report.images == 1


# ---------------------------------------------------------------------------------------------------
# reading on any screen (issue 9): navigation at 390 and 1280 px, over-wide equations, code cut off,
# tables, static widgets, figure legibility. Layout numbers come from measure_page (as the before/after
# numbers of tests/site/measure.py do).

CHAPTER_PAGES = [p for p in PAGES if re.search(r"/part\d+/\d\d_", p)]
LAYOUT_PAGES = [p for p in PAGES if p.startswith("book/")] or ["<site not built>"]
# smallest text in a figure, in CSS px: the style's font size at the px per figure inch it is shown at
MIN_FIGURE_TEXT_PX = {1280: 10.0, 390: 7.5}


@pytest.fixture(scope="module")
def layout(browser, site, origin):
    """layout(page, width) -> {"summary", "detail"} of measure_page, measured once per page and width
    (one browser context per width, closed at the end of the module)."""
    contexts: dict = {}
    cache: dict = {}

    def measure(page_path: str, width: int) -> dict:
        if (page_path, width) in _LOADED:
            return _LOADED[(page_path, width)]
        if (page_path, width) not in cache:
            if width not in contexts:
                contexts[width] = new_page(browser, width)
            _context, page = contexts[width]
            load(page, f"{origin}/{page_path}")
            cache[(page_path, width)] = measure_loaded(page, site, origin)
        return cache[(page_path, width)]

    try:
        yield measure
    finally:
        for context, _page in contexts.values():
            context.close()


def _describe(eqs: list[dict]) -> str:
    return "\n".join(f"  - {e['label'] or e['tex']!r} {e['number'] or ''}: {e['width']} px in {e['room']} px"
                     + (" (in an output)" if e["inOutput"] else "") for e in eqs)


# a chapter with figures, a widget and over-wide equations at 390 px, and among the lightest pages (its fresh
# load at 390 px serves test_resized_layout_equals_a_fresh_load too): chapter 21 loads in a third of chapter
# 6's time, which this was before (10.5 s against 33 s, measured)
NAV_PAGES = ("book/intro.html", "book/part5/21_boosting.html")
_SIDEBAR_JS = """() => { const s = document.querySelector('#pst-primary-sidebar'), r = s.getBoundingClientRect();
    return {shown: r.right > 1 && r.width > 100 && getComputedStyle(s).visibility !== 'hidden',
            article: document.querySelector('.bd-article').getBoundingClientRect().width}; }"""


def navigation_problems(page, page_path: str, width: int, timeout_ms: int = 10_000) -> list[str]:
    """Click the loaded page's navigation buttons as a reader does; the problems found (empty: it works).
    Below 992 px the navigation and contents buttons must open the sidebars as dialogs with visible links;
    on the desktop the menu button must collapse the primary sidebar (the text taking its room) and bring
    it back. Waits for each state (the theme animates), at most ``timeout_ms``."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    shown = lambda sel: page.locator(f"{sel} >> visible=true")  # noqa: E731

    def reached(condition_js: str, arg=None) -> bool:
        try:
            page.wait_for_function(condition_js, arg=arg, timeout=timeout_ms)
        except PlaywrightTimeout:
            return False
        return True

    primary = shown(".primary-toggle")
    if primary.count() != 1:
        return [f"{page_path}: {primary.count()} visible navigation buttons at {width} px"]
    if width < 992:
        for button, dialog, link in ((".primary-toggle", "#pst-primary-sidebar-modal", "nav.bd-links a"),
                                     (".secondary-toggle", "#pst-secondary-sidebar-modal", "nav a")):
            if button == ".secondary-toggle" and page.locator("#pst-page-toc-nav").count() == 0:
                continue  # a page without sections has no contents button to offer
            visible_buttons = shown(button)
            if visible_buttons.count() != 1:
                return [f"{page_path}: no visible {button} at {width} px"]
            visible_buttons.first.click()
            if not reached(f"() => document.querySelector('{dialog}').open"):
                return [f"{page_path} at {width} px: clicking {button} did not open {dialog}"]
            if page.locator(f"{dialog} {link} >> visible=true").count() == 0:
                return [f"{page_path}: {dialog} opened without visible links"]
            page.keyboard.press("Escape")
            if not reached(f"() => !document.querySelector('{dialog}').open"):
                return [f"{page_path} at {width} px: Escape did not close {dialog}"]
        return []
    start = page.evaluate(_SIDEBAR_JS)
    if not start["shown"]:
        return [f"{page_path}: primary sidebar not shown at {width} px"]
    primary.first.click()
    # collapsed, and the text took the sidebar's room
    if not reached(f"a => {{ const s = ({_SIDEBAR_JS})(); return !s.shown && s.article > a + 100; }}",
                   start["article"]):
        return [f"{page_path}: the menu button did not collapse the sidebar, or the text did not take its room "
                f"(before {start}, after {page.evaluate(_SIDEBAR_JS)})"]
    if page.locator("#pst-primary-sidebar-modal").evaluate("d => d.open"):
        return [f"{page_path}: the menu button opened the phone dialog at {width} px"]
    primary.first.click()
    if not reached(f"() => ({_SIDEBAR_JS})().shown"):
        return [f"{page_path}: the menu button did not bring the sidebar back"]
    return []


def fresh_load(browser, site: Path, origin: str, page_path: str, width: int) -> dict:
    """One fresh load of ``page_path`` at ``width`` px (cached in _LOADED): {"layout": measure_loaded entry,
    "nav": navigation_problems on that load (after measuring)}."""
    key = ("fresh", page_path, width)
    if key not in _LOADED:
        context, page = new_page(browser, width)
        try:
            load(page, f"{origin}/{page_path}")
            entry = measure_loaded(page, site, origin)
            _LOADED[key] = {"layout": entry, "nav": navigation_problems(page, page_path, width)}
        finally:
            context.close()
    return _LOADED[key]


@pytest.mark.parametrize("width", [390, 1280])
@pytest.mark.parametrize("page_path", NAV_PAGES)
def test_navigation_buttons_work(browser, origin, site, page_path, width):
    """At 390 px the navigation and contents buttons open the sidebars as dialogs with their links (on a
    fresh load at 390 px); at 1280 px the menu button collapses the primary sidebar and brings it back (on
    test_page's load of the page, after its checks; a fresh load if that did not run)."""
    if not (site / page_path).is_file():
        pytest.skip(f"{page_path} not built")
    if width >= 992 and ("nav", page_path, width) in _LOADED:
        problems = _LOADED[("nav", page_path, width)]
    else:
        problems = fresh_load(browser, site, origin, page_path, width)["nav"]
    assert not problems, "\n".join(problems)


def test_navigation_check_fails_on_dead_buttons(browser, canary_site):
    """navigation_problems can fail: a page whose menu buttons do nothing (the bug issue 9 found)."""
    for width in (390, 1280):
        context, page = new_page(browser, width)
        try:
            load(page, f"{canary_site}/deadnav.html")
            problems = navigation_problems(page, "deadnav.html", width, timeout_ms=1000)
        finally:
            context.close()
        expected = "did not open #pst-primary-sidebar-modal" if width < 992 else "did not collapse the sidebar"
        assert any(expected in p for p in problems), (width, problems)


def must_fit(e: dict) -> bool:
    """The book's own math must fit the column at 1280 px: every display equation a reader sees, and the
    folded ones written in the text (solutions). Machine-printed expressions inside a folded output (a
    claim's proof details, sympy's own LaTeX) may be wider: they must scroll with a cue instead."""
    return not (e.get("folded") and e["inOutput"])


@pytest.mark.parametrize("page_path", LAYOUT_PAGES)
def test_no_display_equation_wider_than_the_column_at_1280(layout, page_path):
    all_eqs = layout(page_path, 1280)["detail"]["equations_all"]
    unreachable = [e for e in all_eqs if e["overwide"] and not must_fit(e) and not (e["scrolls"] and e["cue"])]
    assert not unreachable, f"{page_path}: folded over-wide output equations without scrolling and cue:\n" \
                            f"{_describe(unreachable)}"
    eqs = [e for e in all_eqs if e["overwide"] and must_fit(e)]
    assert not eqs, (f"{page_path}: {len(eqs)} display equations wider than their room at 1280 px (break them "
                     f"with aligned; list: tests/site/measure.py --overwide FILE):\n{_describe(eqs)}")


@pytest.mark.parametrize("page_path", LAYOUT_PAGES)
def test_overwide_equations_scroll_with_a_cue_on_a_phone(layout, page_path):
    eqs = [e for e in layout(page_path, 390)["detail"]["equations_all"] if e["overwide"]]
    bad = [e for e in eqs if not (e["scrolls"] and e["cue"])]
    assert not bad, f"{page_path}: at 390 px these over-wide equations are clipped or have no scroll cue:\n" \
                    f"{_describe(bad)}"


@pytest.mark.parametrize("page_path", LAYOUT_PAGES)
def test_no_code_line_cut_off_at_1280(layout, page_path):
    code = layout(page_path, 1280)["detail"]["code"]
    assert code["cut"] == 0, f"{page_path}: {code['cut']} visible code lines cut off on the right, e.g. " \
                             f"{code['cutExamples']}"


@pytest.mark.parametrize("width", MEASURE_WIDTHS)
@pytest.mark.parametrize("page_path", LAYOUT_PAGES)
def test_checked_text_in_folds_wraps(layout, page_path, width):
    """A long checked form is shown as sympy's text in its claim's details: opened, it wraps to the column
    (the output styles of myst-nb give output text white-space: pre-wrap) instead of running off to the
    right. Fails when that wrapping is lost (shown with `white-space: pre` injected into the built site:
    55 of chapter 2's 61 blocks cut at 1280 px)."""
    folded = layout(page_path, width)["detail"]["folded_code"]
    assert not folded["cut"], (f"{page_path}: at {width} px {len(folded['cut'])} of {folded['blocks']} text blocks "
                               f"in opened folds need a sideways scroll, e.g. {folded['cut'][:3]}")


@pytest.mark.parametrize("page_path", LAYOUT_PAGES)
def test_tables_fit_the_column_at_1280(layout, page_path):
    tables = layout(page_path, 1280)["detail"]["tables"]
    wide = [t for t in tables if t["overflows"]]
    assert not wide, f"{page_path}: tables wider than the {tables[0]['column']} px column: {wide}"


@pytest.mark.parametrize("page_path", CHAPTER_PAGES or ["<site not built>"])
def test_static_widgets_are_disabled_with_a_note(layout, page_path, browser, origin):
    widgets = layout(page_path, 1280)["detail"]["widgets"]
    if not widgets:
        pytest.skip(f"{page_path} has no widget")
    for i, w in enumerate(widgets):
        assert w["controls"] > 0, f"{page_path}: widget {i} rendered no control"
        assert w["disabled"] == w["controls"], f"{page_path}: widget {i}: {w['disabled']} of {w['controls']} " \
                                               "controls disabled on the static site"
        assert w["note"] and "run the notebook" in w["noteText"].lower(), f"{page_path}: widget {i}: no note"
    # and a reader really cannot move a slider: drag the first handle, the readout stays
    if ("slider", page_path) in _LOADED:
        dragged = _LOADED[("slider", page_path)]
    else:
        context, page = new_page(browser, 1280)
        try:
            load(page, f"{origin}/{page_path}")
            dragged = drag_first_slider(page)
        finally:
            context.close()
    if dragged is not None:
        before, after = dragged
        assert after == before, f"{page_path}: a static slider moved ({before} -> {after})"


@pytest.mark.parametrize("width", MEASURE_WIDTHS)
@pytest.mark.parametrize("page_path", CHAPTER_PAGES or ["<site not built>"])
def test_figures_are_not_scaled_below_a_legible_size(layout, page_path, width):
    from mlnotes.plotting._style import STYLE

    figures = layout(page_path, width)["detail"]["figures"]
    if not figures:
        pytest.skip(f"{page_path} has no figure")
    font_pt = STYLE["font.size"]
    small = [f"figure {i + 1} (section {f['section']!r}, {f['natural'] / f['dpi']:.1f} in wide): shown "
             f"{f['rendered']} px wide -> {font_pt / 72 * f['css_px_per_inch']:.1f} px text"
             for i, f in enumerate(figures)
             if f["css_px_per_inch"] and font_pt / 72 * f["css_px_per_inch"] < MIN_FIGURE_TEXT_PX[width]]
    assert not small, (f"{page_path}: at {width} px these figures show {font_pt} pt text below "
                       f"{MIN_FIGURE_TEXT_PX[width]} CSS px (make them narrower or split the panels):\n  "
                       + "\n  ".join(small))
    # a figure kept legible by scrolling sideways says so; on the desktop none may need it
    assert all(f["hint"] for f in figures if f["scrolls"]), f"{page_path}: a sideways-scrolling figure has no hint"
    if width >= 1280:
        wide = [f"figure {i + 1} (section {f['section']!r}, {f['natural'] / f['dpi']:.1f} in wide)"
                for i, f in enumerate(figures) if f["scrolls"] and f["dpi"]]
        assert not wide, (f"{page_path}: at {width} px these figures are too wide to show legibly in the column "
                          "(keep figsize width <= 10 in; grids rather than long rows):\n  " + "\n  ".join(wide))


@pytest.mark.parametrize("page_path", [NAV_PAGES[1]])
def test_resized_layout_equals_a_fresh_load(browser, site, origin, page_path):
    """The layout tests measure 390 px by resizing the page test_page loaded at 1280 px (after its checks,
    the menu button and the slider): on a chapter with figures, a widget and over-wide equations, that gives
    the numbers a fresh load at 390 px gives."""
    if not (site / page_path).is_file():
        pytest.skip(f"{page_path} not built")
    if (page_path, 390) in _LOADED:
        resized = _LOADED[(page_path, 390)]["summary"]
    else:  # test_page did not run on this page (e.g. -k): its sequence of measurements on a fresh 1280 load
        context, page = new_page(browser, 1280)
        try:
            load(page, f"{origin}/{page_path}")
            resized = measure_widths(page, site, origin)[390]["summary"]
        finally:
            context.close()
    fresh = fresh_load(browser, site, origin, page_path, 390)["layout"]["summary"]
    differ = {k: (resized.get(k), fresh[k]) for k in fresh if resized.get(k) != fresh[k]}
    assert not differ, f"{page_path}: resized to 390 px vs loaded at 390 px (resized, fresh): {differ}"


MENU_PAGE = "book/front/notation.html"   # a short page with math


@pytest.mark.parametrize("renderer", ["CHTML", "SVG"])
def test_the_math_renderer_a_reader_picks_in_mathjaxs_menu_works_offline(browser, site, origin, renderer):
    """MathJax's context menu (Math Settings > Math Renderer) switches the output for every page (kept in
    localStorage); the other output is loaded from the site then. Each renderer typesets every formula of
    the page, and nothing it asks for is missing (the site's own output is SVG: _config.yml)."""
    if not (site / MENU_PAGE).is_file():
        pytest.skip(f"{MENU_PAGE} not built")
    context, page = new_page(browser, 1280, timeout_ms=NAV_TIMEOUT_MS)
    failed = []
    page.on("response", lambda r: failed.append(f"HTTP {r.status} {r.url}") if r.status >= 400 else None)
    page.on("requestfailed", lambda r: failed.append(f"{r.failure} {r.url}"))
    # the reader's choice, as the menu stores it, in place before the page's first script runs
    context.add_init_script(f"localStorage.setItem('MathJax-Menu-Settings', '{{\"renderer\": \"{renderer}\"}}')")
    try:
        page.goto(f"{origin}/{MENU_PAGE}", wait_until="load")
        try:  # a missing output file leaves the formulas untypeset: reported below, with the failed request
            page.wait_for_function("n => document.querySelectorAll('mjx-container').length >= n",
                                   arg=page.locator(".math").count(), timeout=15_000)
            page.evaluate(_SETTLE_JS)
        except Exception:  # playwright's TimeoutError
            pass
        typeset = page.evaluate("r => [document.querySelectorAll('.math').length, "
                                "document.querySelectorAll(`mjx-container[jax=\"${r}\"]`).length]", renderer)
        math = page.evaluate(_MATH_JS)
    finally:
        context.close()
    assert typeset[0] > 0 and typeset[1] >= typeset[0], \
        f"{renderer}: {typeset[1]} of {typeset[0]} formulas typeset; failed requests: {failed}"
    assert not math["errors"], math["errors"]
    assert not failed, failed
