// The public report at every move of a game page, rebuilt from the changes the page carries
// (judge/site/replay.py): the buttons, the move list's links and #move=N show that move's
// report; the arrow keys (and Home, End) step. Without script the page shows the last report,
// and the buttons and #move=N links lead to the move in the move list. A step of the buttons or
// the keys replaces the page's place in the browser's history (Back leaves the game, not the
// last step); a link of the move list adds one.
(function () {
  var data = document.getElementById("reports");
  if (!data) return;
  var block = JSON.parse(data.textContent), moves = block.moves, texts = [], before = [];
  block.ops.forEach(function (step) {
    var lines = [];
    step.forEach(function (op) {
      if (typeof op === "string") lines.push(op);
      else if (op.length === 2) Array.prototype.push.apply(lines, before.slice(op[0], op[0] + op[1]));
      else lines.push(before[op[0]].slice(0, op[1]) + op[3] + before[op[0]].slice(before[op[0]].length - op[2]));
    });
    texts.push(lines.join("\n"));
    before = lines;
  });
  var replay = document.getElementById("replay"), pre = replay.querySelector("pre");
  function shown() {
    var m = /^#move=(\d+)$/.exec(location.hash), i = m ? moves.indexOf(+m[1]) : -1;
    return i < 0 ? moves.length - 1 : i;
  }
  function link(name, i) {
    replay.querySelector("a." + name).href = "#move=" + moves[Math.max(0, Math.min(moves.length - 1, i))];
  }
  function show(scroll) {
    var i = shown();
    pre.textContent = texts[i];
    pre.dataset.move = moves[i];
    if (window.judgeReflow) {  // (on a phone the report reflows: reflow.js; the text stays, exact)
      replay.querySelector(".reflowed").replaceChildren(judgeReflow(texts[i]));
      replay.classList.add("reflows");
    }
    replay.querySelector(".at .n").textContent = moves[i];
    link("first", 0); link("prev", i - 1); link("next", i + 1); link("last", moves.length - 1);
    if (scroll) replay.scrollIntoView();
  }
  window.addEventListener("hashchange", function () { show(true); });
  show(/^#move=\d+$/.test(location.hash));
  document.addEventListener("keydown", function (e) {
    if (e.altKey || e.ctrlKey || e.metaKey || /^(INPUT|TEXTAREA|SELECT)$/.test(e.target.tagName)) return;
    var i = shown(), to = { ArrowLeft: i - 1, ArrowRight: i + 1, Home: 0, End: moves.length - 1 }[e.key];
    if (to === undefined) return;
    e.preventDefault();
    step("#move=" + moves[Math.max(0, Math.min(moves.length - 1, to))]);
  });
  function step(hash) { // (boards.js follows the hashchange too)
    if (hash === location.hash) return;
    history.replaceState(history.state, "", hash);
    window.dispatchEvent(new HashChangeEvent("hashchange"));
  }
  replay.querySelector(".steps").addEventListener("click", function (e) {
    var a = e.target.closest("a");
    if (!a || e.altKey || e.ctrlKey || e.metaKey || e.shiftKey || e.button) return;
    e.preventDefault();
    step(a.getAttribute("href"));
  });
})();
