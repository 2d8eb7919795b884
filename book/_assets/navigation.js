/* mlnotes: make the sidebar buttons work at every width.
 *
 * pydata-sphinx-theme 0.17 and sphinx-book-theme 1.3 bind their sidebar buttons with
 * document.querySelector(".primary-toggle") / (".secondary-toggle"): the FIRST copy in the page. A
 * Jupyter Book 1 page has two copies of each, and the first (in the theme's own header, #pst-header) is
 * hidden at every width; the reader clicks the second (in the article header), to which nothing is bound.
 * So on a phone the navigation and contents buttons did nothing, and on the desktop the menu button did
 * not collapse the sidebar.
 *
 * Fix: a click on any other copy is forwarded to the first one, whose handlers then do what the theme
 * means at the current width (>= 992 px: collapse/expand the primary sidebar; narrower: open the sidebar
 * as a dialog). Nothing is forwarded when the first copy is itself visible, so a future theme that binds
 * every copy, or shows the first one, is left alone.
 */
(function () {
  "use strict";
  var SELECTORS = [".primary-toggle", ".secondary-toggle"];

  function visible(el) {
    return el.getClientRects().length > 0;
  }

  function forwardClicks(selector) {
    var bound = document.querySelector(selector);
    if (!bound) return;
    document.querySelectorAll(selector).forEach(function (button) {
      if (button === bound || button.dataset.mlnotesForwarded) return;
      button.dataset.mlnotesForwarded = "1";
      button.addEventListener("click", function (event) {
        if (visible(bound)) return; // the theme's bound copy is the one readers see: nothing to fix
        event.preventDefault();
        event.stopPropagation();
        bound.click();
        button.blur();
      });
    });
  }

  function init() {
    SELECTORS.forEach(forwardClicks);
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init);
  else init();
})();
