// A player's own view on the game's public page (docs/site.md, "Your own page"). Their link is
// the page with their key in the fragment (#k=...), which no browser sends to a server. At once
// the key leaves the address bar (history.replaceState) and is kept for this tab alone
// (sessionStorage); the page derives the view's key from it with WebCrypto (HKDF-SHA256, AES-GCM,
// as judge/publish/private.py seals it) and opens the view the page carries in #sealed. A key
// that opens nothing is refused in one line, and the public page is shown as before. From
// file:// no request is made; over http(s) the page reads its own GAME.json beside it (same
// origin, no key in it) to say whether a newer move exists.
(function () {
  var STORE = "judge-key:" + location.pathname, INFO = "judge private view v1", el = window.judgeReflow.el;
  var note = document.getElementById("private-note"), box = document.getElementById("private");
  var block = document.getElementById("sealed"), text = new TextEncoder();
  function taken() {  // the key of the link, taken out of the address bar at once; or the tab's
    var m = /^#k=([^&]*)$/.exec(location.hash);
    if (m) history.replaceState(null, "", location.pathname + location.search);
    return m ? m[1] : null;
  }
  function refuse(why) {
    note.textContent = why;
    note.hidden = false;
    box.hidden = true;
    box.textContent = "";
    try { sessionStorage.removeItem(STORE); } catch (e) { /* nothing kept */ }
  }
  function bytes(b64) {
    var s = atob(b64.replace(/-/g, "+").replace(/_/g, "/") + "===".slice((b64.length + 3) % 4)), out = new Uint8Array(s.length);
    for (var i = 0; i < s.length; i++) out[i] = s.charCodeAt(i);
    return out;
  }
  function start(given) {
    note.hidden = true;
    if (!/^[A-Za-z0-9_-]{43}$/.test(given)) return refuse("This link's key is not whole (43 letters after #k=): the public page is shown.");
    if (!block) return refuse("This page holds no private views (the game has none yet): the public page is shown.");
    if (!window.crypto || !crypto.subtle) return refuse("This browser cannot open your view here (open the page over https or from a file): the public page is shown.");
    try { sessionStorage.setItem(STORE, given); } catch (e) { /* kept in this page alone */ }
    var sealed = JSON.parse(block.textContent);
    function open(base, view) {
      var info = text.encode([INFO, sealed.game, view.player, sealed.move].join("\0"));
      return crypto.subtle.deriveKey({ name: "HKDF", hash: "SHA-256", salt: new Uint8Array(0), info: info }, base,
                                     { name: "AES-GCM", length: 256 }, false, ["decrypt"]).then(function (key) {
        var aad = text.encode([INFO, sealed.game, view.player, sealed.move, sealed.head].join("\n"));
        return crypto.subtle.decrypt({ name: "AES-GCM", iv: bytes(view.nonce), additionalData: aad }, key, bytes(view.ct));
      }).then(function (plain) { return JSON.parse(new TextDecoder().decode(plain)); }, function () { return null; });
    }
    crypto.subtle.importKey("raw", bytes(given), "HKDF", false, ["deriveKey"]).then(function (base) {
      return Promise.all(sealed.views.map(function (view) { return open(base, view); }));
    }).then(function (opened) {
      var mine = opened.filter(function (v) { return v; })[0];
      if (!mine) return refuse("This link's key opens no player's view of this game: the public page is shown.");
      show(mine);
    }, function () { refuse("This link's key could not be read: the public page is shown."); });
  }
  window.addEventListener("hashchange", function () {  // another link pasted into this tab
    var given = taken();
    if (given !== null) start(given);
  });
  var given = taken();
  try {
    if (given === null) given = sessionStorage.getItem(STORE);
  } catch (e) { /* storage refused: the key lives in this page alone */ }
  if (given !== null) start(given);

  function show(v) {
    box.textContent = "";
    box.appendChild(el("h2", {}, "Your view: " + v.player));
    var head = v.head_line ? v.head_line.replace(/^Log head: /, "log head ") : "no log head yet";
    box.appendChild(el("p", { "class": "asof" }, "As of move " + v.move + ", " + head + "."));
    var newer = box.appendChild(el("p", { "class": "newer", hidden: "" }));
    if (v.awaited) box.appendChild(orders(v));
    else box.appendChild(el("p", { "class": "waiting" }, v.over ? "The game is over." : "You have no order to give now."));
    if (v.standing.length) {
      box.appendChild(el("h3", {}, "Your standing orders"));
      var ul = box.appendChild(el("ul", { "class": "standing" }));
      v.standing.forEach(function (s) { ul.appendChild(el("li", {}, typeof s === "string" ? s : s.text || JSON.stringify(s))); });
    }
    box.appendChild(el("h3", {}, "Your report"));
    box.appendChild(judgeReflow(v.report));
    var mailed = box.appendChild(el("details", { "class": "mailed" }));
    mailed.appendChild(el("summary", {}, "Your report as mailed"));
    mailed.appendChild(el("pre", { "class": "report private-report" }, v.report + (v.head_line ? "\n" + v.head_line : "")));
    box.hidden = false;
    box.scrollIntoView();  // (the player came for it: on a phone the page's header fills the screen)
    if (/^https?:$/.test(location.protocol)) later(v, newer);
  }
  function later(v, newer) {  // over http(s) only: the page's own public data beside it
    var name = location.pathname.replace(/^.*\//, "").replace(/\.html$/, "");
    fetch(name + ".json", { cache: "no-store", credentials: "omit" }).then(function (r) { return r.json(); }).then(function (data) {
      var last = data.moves && data.moves.length ? data.moves[data.moves.length - 1].move : v.move;
      if (last > v.move) {
        newer.textContent = "Move " + last + " has been played since this view: reload the page for the newer one.";
        newer.hidden = false;
      }
    }, function () { /* offline: nothing to say */ });
  }
  function orders(v) {
    var part = el("div", { "class": "orders" });
    part.appendChild(el("h3", {}, "Your orders now"));
    var label = part.appendChild(el("label", { "class": "password" }, "Your password (optional; typed here, never stored; else type it in your mail): "));
    var password = label.appendChild(el("input", { type: "password", id: "private-password", autocomplete: "off" }));
    var links = [];
    function mailto(order) {
      var body = ["game " + v.game, "player " + v.name + " " + (password.value.trim() || "YOUR-PASSWORD"),
                  "#" + v.move + " " + order, "end", ""].join("\r\n");
      return "mailto:" + encodeURIComponent(v.to) + "?subject=" + encodeURIComponent("game " + v.game + ": orders") +
             "&body=" + encodeURIComponent(body);
    }
    function refresh() { links.forEach(function (a) { a.href = mailto(a.dataset.order); }); }
    if (v.orders.length) {
      part.appendChild(el("p", {}, "Tap an order: your mail program opens with it written out, to send as it is."));
      var ul = part.appendChild(el("ul", { "class": "order-list" }));
      v.orders.forEach(function (o) {
        var a = ul.appendChild(el("li")).appendChild(el("a", { "class": "order", "data-order": o }, o));
        links.push(a);
      });
    }
    if (v.forms) {
      part.appendChild(el("p", {}, v.all_orders ? "Or write one from these forms:" : "Write an order from these forms:"));
      part.appendChild(el("pre", { "class": "forms" }, v.forms));
      var other = part.appendChild(el("div", { "class": "other" }));
      var input = other.appendChild(el("input", { type: "text", id: "private-other", "aria-label": "an order", placeholder: "an order" }));
      var write = other.appendChild(el("a", { "class": "order compose", "data-order": "" }, "Write it in a mail"));
      links.push(write);
      input.addEventListener("input", function () { write.dataset.order = input.value.trim(); refresh(); });
    }
    password.addEventListener("input", refresh);
    refresh();
    return part;
  }
})();
