/* mlnotes: honest widgets on the static website.
 *
 * The site shows each Jupyter widget from its saved state: the controls would move, but no Python kernel
 * runs, so the figure never follows (chapter 6's slider went to 2.30 while the plot still said 1.00/L).
 * On the website only (this file is part of the built HTML pages, never of a notebook), every widget
 * control is disabled for real (form elements get `disabled`, noUiSlider tracks the `disabled` attribute
 * that stops dragging and keys, readouts stop being editable), is greyed out, and a note above the widget
 * says how to get the live version. The saved figure stays as it is: it is the snapshot of the defaults.
 *
 * Widgets render asynchronously (RequireJS + the vendored widget manager), so a MutationObserver
 * processes each widget area when its controls appear.
 */
(function () {
  "use strict";
  var VIEW = 'script[type="application/vnd.jupyter.widget-view+json"]';
  var CONTROLS = "input, select, textarea, button, .noUi-target, .widget-readout, [contenteditable]";

  function notebookPath() {
    // <html data-content_root="../../"> (Sphinx 7): the page's path relative to the site root
    var root = new URL(document.documentElement.dataset.content_root || "./", window.location.href);
    var page = window.location.href.split(/[?#]/)[0];
    if (page.indexOf(root.href) !== 0) return null;
    var rel = decodeURIComponent(page.slice(root.href.length)).replace(/\.html$/, "");
    return { path: rel + ".ipynb", source: new URL("_sources/" + rel + ".ipynb", root).href };
  }

  function makeNote() {
    var nb = notebookPath();
    var note = document.createElement("div");
    note.className = "mlnotes-widget-note admonition note";
    note.setAttribute("role", "note");
    var title = document.createElement("p");
    title.className = "admonition-title";
    title.textContent = "Snapshot: the controls are disabled on the website";
    var body = document.createElement("p");
    body.appendChild(document.createTextNode(
      "This widget needs a running Python kernel; the website shows the figure for its default values. " +
      "Run the notebook to use this widget: "));
    var code = document.createElement("code");
    code.textContent = nb ? ".venv/bin/jupyter lab " + nb.path : ".venv/bin/jupyter lab book/";
    body.appendChild(code);
    body.appendChild(document.createTextNode(" from a clone of the repository (see its README)"));
    if (nb) {
      body.appendChild(document.createTextNode(", or "));
      var link = document.createElement("a");
      link.href = nb.source;
      link.setAttribute("download", "");
      link.textContent = "download the notebook";
      body.appendChild(link);
    }
    body.appendChild(document.createTextNode("."));
    note.appendChild(title);
    note.appendChild(body);
    return note;
  }

  function disable(el) {
    if (el.closest(".widget-output")) return; // the widget's own output (e.g. a figure) is not a control
    if (el.matches(".noUi-target")) {
      el.setAttribute("disabled", "true");
      el.querySelectorAll(".noUi-handle").forEach(function (h) { h.setAttribute("tabindex", "-1"); });
    } else if (el.hasAttribute("contenteditable")) {
      el.setAttribute("contenteditable", "false");
    } else if ("disabled" in el) {
      el.disabled = true;
    }
    el.setAttribute("aria-disabled", "true");
    var box = el.closest(".widget-inline-hbox, .widget-inline-vbox, .widget-button, .widget-toggle-buttons") || el;
    box.classList.add("mlnotes-static-control");
    box.title = "Disabled on the website: run the notebook to use this control";
  }

  function process() {
    document.querySelectorAll(VIEW).forEach(function (script) {
      var area = script.previousElementSibling;
      if (!area || !area.classList.contains("widget-subarea")) return;
      var before = area.previousElementSibling;
      if (!before || !before.classList.contains("mlnotes-widget-note")) area.parentNode.insertBefore(makeNote(), area);
      area.querySelectorAll(CONTROLS).forEach(disable);
    });
  }

  function init() {
    if (!document.querySelector(VIEW)) return;
    process();
    var pending = false;
    new MutationObserver(function () {
      if (pending) return;
      pending = true;
      window.requestAnimationFrame(function () { pending = false; process(); });
    }).observe(document.body, { childList: true, subtree: true });
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init);
  else init();
})();
