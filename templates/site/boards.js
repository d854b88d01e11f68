// Optional: the board drawn on a game page (Mogul's map, the stock market) follows the move
// shown (#move=N): each move's board is in #board-steps (judge/site/boards.py); this only
// recolours the spaces' depots and moves the tokens. Without script it shows the last move.
(function () {
  var figure = document.getElementById("board"), script = document.getElementById("board-steps");
  if (!figure || !script) return;
  var data = JSON.parse(script.textContent), steps = data.steps, shown = figure.querySelector(".board-move");
  if (!steps.length) return;
  var last = +shown.textContent;
  function at() {
    var m = /^#move=(\d+)$/.exec(location.hash);
    return m ? +m[1] : last;
  }
  function board(move) { // the board as last recorded at or before the move
    var found = null;
    steps.forEach(function (s) { if (s[0] <= move) found = s[1]; });
    return found;
  }
  function one(selector, name) { return figure.querySelector(selector + '[data-company="' + CSS.escape(name) + '"]'); }
  function depots(list) {
    var held = {};
    list.forEach(function (d) { held[d[0]] = d[1]; });
    figure.querySelectorAll(".space").forEach(function (g) {
      var seat = data.seats[held[g.dataset.space]];
      g.querySelector(".depot").setAttribute("class", "depot" + (seat ? " seat " + seat[0] : ""));
      g.querySelector(".tag").textContent = seat ? seat[1] : "";
    });
  }
  function market(tokens, pool) {
    var cells = {}, counts = {}, r = +figure.querySelector(".market").dataset.token;
    tokens.forEach(function (t) { (cells[t[0] + "," + t[1]] = cells[t[0] + "," + t[1]] || []).push(t[2]); });
    pool.forEach(function (p) { counts[p[0]] = p[1]; });
    figure.querySelectorAll(".token").forEach(function (g) { g.classList.add("hidden"); });
    Object.keys(cells).forEach(function (key) {
      var cell = figure.querySelector('.cell[data-cell="' + key + '"]'), stack = cells[key];
      if (!cell) return;
      var x = +cell.getAttribute("x"), y = +cell.getAttribute("y"), w = +cell.getAttribute("width"),
        h = +cell.getAttribute("height"), n = stack.length, scale = Math.min(1, (w - 4) / (2 * r * n)),
        step = 2 * r * scale;
      stack.forEach(function (name, i) { // side by side, none over another, as judge/site/boards.py draws them
        var g = one(".token", name);
        if (!g) return;
        g.classList.remove("hidden");
        g.setAttribute("transform", "translate(" + (x + w / 2 - step * (n - 1) / 2 + step * i) + "," +
          (y + h - r * scale - 3) + ") scale(" + scale + ")");
      });
    });
    figure.querySelectorAll(".pooled").forEach(function (g) {
      var n = counts[g.dataset.company] || 0;
      g.classList.toggle("empty", !n);
      g.querySelector(".count").textContent = "\u00d7" + n;
    });
  }
  function draw() {
    var move = at(), b = board(move);
    shown.textContent = move + (b ? "" : " (not in this record, written before the judge kept each move's board)");
    figure.classList.toggle("unknown", !b);
    if (b && b.depots) depots(b.depots);
    if (b && b.market) market(b.market, b.pool || []);
  }
  window.addEventListener("hashchange", draw);
  draw();
})();
