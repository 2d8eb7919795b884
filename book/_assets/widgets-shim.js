/* mlnotes: glue between the vendored Jupyter widget manager and the site (no CDN).
 *
 * Loaded by myst-nb (sphinx.config.nb_ipywidgets_js) on pages with widgets, after vendor/require.js
 * and before vendor/widgets/embed-amd.js (@jupyter-widgets/html-manager 1.0.15).
 *
 * 1. Asset URLs. The bundle's AMD modules compute their webpack public path from their RequireJS
 *    module URL; without a mapping that is "<page dir>/@jupyter-widgets/", where the icon fonts
 *    do not exist. Map the "@jupyter-widgets" prefix to _static/vendor/widgets (next to the fonts).
 * 2. MathJax. The manager typesets widget labels with the MathJax 2 API MathJax.Hub.Queue,
 *    which MathJax 3 lacks (TypeError). Provide MathJax.Hub.Queue on top of MathJax 3, and turn the
 *    labels' $...$ into \(...\), the only inline delimiters the site's MathJax is configured for.
 */
(function () {
  "use strict";
  var me = document.currentScript;
  var base = me && me.src ? me.src : document.baseURI;
  var widgets = new URL("vendor/widgets/", base).href; // absolute, so it works at any page depth

  // 1. module URLs -> vendor/widgets/
  window.__jupyter_widgets_assets_path__ = widgets;
  if (window.requirejs && typeof window.requirejs.config === "function") {
    var dir = widgets.replace(/\/$/, "");
    // the longest matching prefix wins: "@jupyter-widgets/html-manager/dist/libembed-amd" (the module
    // that loads the icon fonts) -> vendor/widgets/libembed-amd.js, "@jupyter-widgets/controls" ->
    // vendor/widgets/controls.js; all of them are defined inside embed-amd.js, never fetched.
    window.requirejs.config({ paths: { "@jupyter-widgets": dir, "@jupyter-widgets/html-manager/dist": dir } });
  } else {
    console.warn("mlnotes widgets-shim: RequireJS is not loaded before the shim; widget icons may not load.");
  }

  // 2. MathJax.Hub.Queue for MathJax 3
  function queue() {
    var mj = window.MathJax;
    var elements = [];
    for (var i = 0; i < arguments.length; i++) {
      var job = arguments[i];
      if (Array.isArray(job) && job[0] === "Typeset" && job[2] && job[2].nodeType === 1) elements.push(job[2]);
    }
    // Widget labels use $...$ / $$...$$ (Jupyter's MathJax setting); the site's MathJax only knows
    // \(...\) / \[...\] (myst converts the book's own dollars at build time), so convert them here,
    // in the widget's text only.
    elements.forEach(dollarsToDelimiters);
    // Before MathJax 3 has loaded, window.MathJax is only the configuration: the startup typeset
    // of the whole page will process these elements later.
    if (!mj || !mj.startup || !mj.startup.promise || typeof mj.typesetPromise !== "function") return;
    mj.startup.promise = mj.startup.promise
      .then(function () { return mj.typesetPromise(elements); })
      .catch(function (err) { console.warn("mlnotes widgets-shim: MathJax typeset failed:", err); });
  }
  function dollarsToDelimiters(root) {
    if (!root || !root.ownerDocument) return;
    var walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT, {
      acceptNode: function (node) {
        var parent = node.parentElement;
        return parent && parent.closest("script, style, pre, code, textarea, mjx-container")
          ? NodeFilter.FILTER_REJECT : NodeFilter.FILTER_ACCEPT;
      }
    });
    var nodes = [];
    while (walker.nextNode()) nodes.push(walker.currentNode);
    nodes.forEach(function (node) {
      var text = node.nodeValue;
      if (text.indexOf("$") < 0) return;
      node.nodeValue = text
        .replace(/\$\$([^$]+)\$\$/g, "\\[$1\\]")
        .replace(/(^|[^\\])\$([^$\n]+?)\$/g, "$1\\($2\\)");
    });
  }
  function addHub(mj) {
    if (mj && typeof mj === "object" && !mj.Hub) {
      // not enumerable: MathJax 3 keeps the configuration object as MathJax.config
      Object.defineProperty(mj, "Hub", { value: { Queue: queue }, configurable: true, writable: true });
    }
    return mj;
  }
  var current = addHub(window.MathJax);
  try {
    // MathJax 3 replaces window.MathJax when it loads (the config object becomes MathJax.config)
    Object.defineProperty(window, "MathJax", {
      configurable: true,
      enumerable: true,
      get: function () { return current; },
      set: function (value) { current = addHub(value); }
    });
  } catch (err) {
    window.addEventListener("load", function () { addHub(window.MathJax); });
  }
})();
