// A report made to reflow on a phone (the public report of a game page, a player's own view):
// judgeReflow(text) gives an element of its blocks (between blank lines) as lines that wrap, a
// line underlined (=== or ---) as a heading, a block of columns (cells two spaces apart) that
// fit a phone's width as a table, and a wider one (a market, the final standings) as its text,
// its type sized so that its longest line fits the width. The text itself stays in the page,
// exact (site.js, private.js).
(function () {
  function el(tag, attrs, content) {
    var e = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) { e.setAttribute(k, attrs[k]); });
    if (content !== undefined) e.textContent = content;
    return e;
  }
  window.judgeReflow = function (report) {
    var out = el("div", { "class": "reflow" });
    report.split(/\n\s*\n/).forEach(function (chunk) {
      var lines = chunk.split("\n").filter(function (l) { return l.trim(); });
      var cells = lines.map(function (l) { return l.trim().split(/\s{2,}/); });
      var ruled = lines.length > 1 && /^[=-]{3,}$/.test(lines[1].trim());
      var columns = cells.filter(function (c) { return c.length >= 2; }).length;
      var widest = Math.max.apply(null, lines.map(function (l) { return l.trim().length; }));
      if (!ruled && lines.length >= 2 && columns >= 2 && widest <= 44) {  // (44 letters fit a phone's width)
        var table = out.appendChild(el("table", { "class": "columns" }));
        cells.forEach(function (row) {
          var tr = table.appendChild(el("tr"));
          row.forEach(function (c) { tr.appendChild(el("td", {}, c)); });
        });
      } else if (!ruled && lines.length >= 2 && columns >= 2) {
        widest = Math.max.apply(null, lines.map(function (l) { return l.length; }));
        var grid = out.appendChild(el("div", { "class": "grid" }, lines.join("\n")));  // (not a pre: the page's own is the text)
        grid.style.fontSize = "min(13px, calc((100vw - 3.5rem) / " + (0.61 * widest).toFixed(1) + "))";
      } else {
        var block = out.appendChild(el("div", { "class": "block" }));
        lines.forEach(function (l, i) {
          if (/^[=-]{3,}$/.test(l.trim())) return;
          var heading = i + 1 < lines.length && /^[=-]{3,}$/.test(lines[i + 1].trim());
          var line = block.appendChild(el(heading ? "h4" : "div", { "class": "line" }, l.trim()));
          line.style.paddingLeft = Math.min(l.length - l.replace(/^\s+/, "").length, 8) / 2 + "em";
        });
      }
    });
    return out;
  };
  window.judgeReflow.el = el;  // (private.js builds its view with it too)
})();
