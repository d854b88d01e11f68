// Optional: the arrow keys (and Home, End) step through the moves of a game page. Without
// script the buttons, the move list and #move=N links do the same (CSS :target).
(function () {
  var reports = document.querySelectorAll(".report");
  if (!reports.length) return;
  var moves = Array.prototype.map.call(reports, function (r) { return +r.dataset.move; });
  function shown() {
    var m = /^#move=(\d+)$/.exec(location.hash);
    var i = m ? moves.indexOf(+m[1]) : -1;
    return i < 0 ? moves.length - 1 : i;
  }
  document.addEventListener("keydown", function (e) {
    if (e.altKey || e.ctrlKey || e.metaKey || /^(INPUT|TEXTAREA|SELECT)$/.test(e.target.tagName)) return;
    var i = shown(), to = { ArrowLeft: i - 1, ArrowRight: i + 1, Home: 0, End: moves.length - 1 }[e.key];
    if (to === undefined) return;
    e.preventDefault();
    location.hash = "move=" + moves[Math.max(0, Math.min(moves.length - 1, to))];
  });
})();
