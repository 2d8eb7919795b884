/* mlnotes: never shrink a figure below legible text.
 *
 * A figure wider than the text column is scaled down (max-width: 100%), and its text with it: on a 390 px
 * phone a 10-inch, two-panel figure would show 11 pt labels at 5 px. Each notebook figure gets a minimum
 * width at which its text is still MIN_TEXT_PX CSS px high; below that its output area scrolls
 * horizontally, with the scroll cue of mlnotes.css (.mlnotes-figure-scroll).
 *
 * Sizes: a figure drawn with the book's style (mlnotes/plotting/_style.py: FONT_PT text, high-density PNG
 * whose width attribute is its CSS size at 96 px per inch); an older PNG without a width attribute was
 * drawn at 80 dpi and is shown at its natural size. tests/site/test_browser.py checks the result
 * (MIN_FIGURE_TEXT_PX).
 */
(function () {
  "use strict";
  var FONT_PT = 11;        // STYLE["font.size"] in mlnotes/plotting/_style.py
  var MIN_TEXT_PX = 7.5;   // MIN_FIGURE_TEXT_PX[390] in tests/site/test_browser.py
  var SELECTOR = ".cell_output img, .widget-output img";
  var FITTED = "mlnotes-figure-fitted", WAITING = "mlnotes-figure-waiting";

  function inches(img) {
    // the CSS width MyST-NB writes from the output's metadata: an attribute, or an inline style
    var width = parseFloat(img.getAttribute("width")) || parseFloat(img.style.width);
    if (width > 0) return width / 96;
    return img.naturalWidth ? img.naturalWidth / 80 : 0;
  }

  // the cue: a figure is opaque, so no shadow shows through it; say it in a line above the figure.
  // All boxes are measured first and changed afterwards: a change between two measurements makes the
  // browser lay out the whole page again, once per figure (a second of a long chapter page, measured).
  function cue(boxes) {
    var overflowing = boxes.map(function (box) { return box.scrollWidth > box.clientWidth + 1; });
    boxes.forEach(function (box, i) {
      var hint = box.previousElementSibling;
      var has = hint && hint.classList.contains("mlnotes-scroll-hint");
      if (overflowing[i] && !has) {
        hint = document.createElement("div");
        hint.className = "mlnotes-scroll-hint";
        hint.textContent = "\u2194 wider than the screen: scroll the figure sideways";
        box.parentNode.insertBefore(hint, box);
      } else if (!overflowing[i] && has) {
        hint.remove();
      }
    });
  }

  // the minimum width of each loaded figure (changes only), then the cues of their boxes (measurements)
  function fit(imgs) {
    var boxes = [];
    imgs.forEach(function (img) {
      var inch = inches(img);
      var box = img.parentElement;
      img.classList.add(FITTED);
      if (!inch || !box) return;
      var min = Math.ceil(inch * MIN_TEXT_PX * 72 / FONT_PT);
      img.style.minWidth = min + "px";   // min-width wins over the max-width: 100% of mlnotes.css
      box.classList.add("mlnotes-figure-scroll");
      boxes.push(box);
    });
    if (boxes.length) cue(boxes);
  }

  // every figure not handled yet: the loaded ones now, the others when they load
  function process() {
    var loaded = [];
    document.querySelectorAll(SELECTOR).forEach(function (img) {
      if (img.classList.contains(FITTED)) return;
      if (img.complete) loaded.push(img);
      else if (!img.classList.contains(WAITING)) {
        img.classList.add(WAITING);
        img.addEventListener("load", function () { img.classList.remove(WAITING); fit([img]); }, { once: true });
      }
    });
    fit(loaded);
  }

  function init() {
    process();
    // a resized window (a turned tablet, a narrowed browser) may need the cue where it did not, or not
    var resizing = false;
    window.addEventListener("resize", function () {
      if (resizing) return;
      resizing = true;
      window.requestAnimationFrame(function () {
        resizing = false;
        cue(Array.from(document.querySelectorAll(".mlnotes-figure-scroll")));
      });
    });
    if (!document.querySelector('script[type="application/vnd.jupyter.widget-view+json"]')) return;
    var pending = false;   // widget outputs render later: handle their images when they appear
    new MutationObserver(function () {
      if (pending) return;
      pending = true;
      window.requestAnimationFrame(function () { pending = false; process(); });
    }).observe(document.body, { childList: true, subtree: true });
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init);
  else init();
})();
