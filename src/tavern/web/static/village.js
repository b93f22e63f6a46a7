/* The village page: the seat counts and the last deal's size of every open
 * table, and the contests opening soon, kept live by the village's one
 * socket (/ws/village, web/village_feed.py): the server pushes a summary of
 * the public tables as the socket opens, then only what changed
 * ("village_changes"), the same for every visitor; each count
 * is a cell marked data-table-seats="<table id>", each size one marked
 * data-table-pot, the contests the list of #village-contests
 * (templates/village.html). Everything is written as text (textContent),
 * never as markup. Without the socket (refused, or closed), the JSON API
 * (GET /api/village, /api/village/contests) is read every few seconds instead. */
(function () {
  "use strict";
  var EVERY_MS = 5000;
  var polling = null;

  /* What changed, told to a screen reader (issue 40 §3) in #village-told, a
   * polite log: « Table 3 : une place prise, 5 sur 6. ». Only the tables the
   * visitor looks at (rows the filters leave shown), never the first summary
   * (he has just read the page), and without flooding: the changes of every
   * frame are gathered, and told at most once every GAP_MS, each table once
   * with where it stands then (a seat taken and freed meanwhile says
   * nothing), at most SAY_TABLES tables named, then how many more. The last
   * deal's size is not told: it changes at every deal of every table. */
  var GAP_MS = 4000, SAY_TABLES = 3;
  var now = {}, heard = {}, lastSaid = -Infinity, sayLater = null;

  function note(id, key, value) {
    if (!now[id]) now[id] = {};
    now[id][key] = value;
    if (!heard[id]) heard[id] = {};
    if (!(key in heard[id])) heard[id][key] = value;  // first seen: the baseline, not a change
  }

  function places(n, word) {
    return (n === 1 ? "une place " : n + " places ") + word + (n === 1 ? "" : "s");
  }

  function sentence(id) {
    var was = heard[id], is = now[id], parts = [];
    if (was.taken !== is.taken) {
      var d = is.taken - was.taken;
      parts.push((d > 0 ? places(d, "prise") : places(-d, "libérée")) + ", " + is.taken + " sur " + is.seats);
    }
    if (was.waiting !== is.waiting) parts.push(is.waiting ? is.waiting + " en attente" : "plus personne en attente");
    if (is.closed && !was.closed) parts = ["fermée"];
    if (!parts.length) return null;
    var link = document.querySelector('[data-table-name="' + id + '"]');
    return (link ? link.textContent : "Table " + id) + " : " + parts.join(", ") + ".";
  }

  function tell() {
    sayLater = null;
    var lines = [], log = document.getElementById("village-told");
    if (log) log.setAttribute("data-heard", String(Number(log.getAttribute("data-heard") || 0) + 1));  // for the tests
    Object.keys(now).forEach(function (id) {
      var cell = document.querySelector('[data-table-seats="' + id + '"]'), row = cell && cell.closest("tr");
      var line = row && !row.hidden ? sentence(id) : null;  // a row filtered out: learnt silently
      if (line) lines.push(line);
      heard[id] = Object.assign({}, now[id]);
    });
    if (!lines.length) return;
    var more = lines.length - SAY_TABLES;
    var text = lines.slice(0, SAY_TABLES).join(" ") +
      (more > 0 ? " Et " + (more === 1 ? "une autre table a" : more + " autres tables ont") + " changé." : "");
    if (!log) return;
    var p = document.createElement("p");
    p.textContent = text;
    log.appendChild(p);
    while (log.childNodes.length > 5) log.removeChild(log.firstChild);  // a log, not a growing page
    lastSaid = Date.now();
  }

  function soon() {  // after each frame: now, or when GAP_MS has passed since the last line
    if (sayLater !== null) return;
    sayLater = setTimeout(tell, Math.max(0, lastSaid + GAP_MS - Date.now()));
  }

  function show(id, taken, seats) {
    var cell = document.querySelector('[data-table-seats="' + id + '"]');
    if (!cell) return;  // a table opened since the page was drawn: shown at the next reload
    var text = taken + "/" + seats;
    if (cell.textContent !== text) cell.textContent = text;
    cell.setAttribute("data-seats-taken", taken);
    var said = document.querySelector('[data-table-seats-said="' + id + '"]');
    if (said) said.textContent = taken + " sur " + seats;
    note(id, "taken", taken);
    note(id, "seats", seats);
  }

  function showPot(id, pot) {
    var cell = document.querySelector('[data-table-pot="' + id + '"]');
    if (!cell) return;
    var text = pot === null || pot === undefined ? "\u2014" : String(pot);
    if (cell.textContent !== text) cell.textContent = text;
  }

  var shownContests = null;
  function showContests(contests) {
    var key = JSON.stringify(contests);
    if (key === shownContests) return;  // unchanged: the list is left as it is
    shownContests = key;
    var section = document.getElementById("village-contests");
    if (!section) return;
    var list = section.querySelector("ul");
    while (list.firstChild) list.removeChild(list.firstChild);
    contests.forEach(function (c) {
      var item = document.createElement("li");
      item.setAttribute("data-contest", String(c.id));
      var link = document.createElement("a");
      link.href = "/concours/" + encodeURIComponent(String(c.id));
      link.textContent = c.name;
      var line = document.createElement("span");
      line.className = "muted";
      line.textContent = c.text;
      item.appendChild(link);
      item.appendChild(document.createTextNode(" "));
      item.appendChild(line);
      list.appendChild(item);
    });
    section.hidden = contests.length === 0;
  }

  // A full table's waiting list's length (issue 30 §3): the live summary's 4th column.
  function waiting(id, count) {
    var cell = document.querySelector('[data-table-waiting="' + id + '"]');
    if (!cell) return;
    var text = count ? count + " " + cell.getAttribute("data-word") : "";
    if (cell.textContent !== text) cell.textContent = text;
    note(id, "waiting", count || 0);
  }

  function refresh() {
    if (document.hidden) return;  // nobody is looking: spare the server
    fetch("/api/village", { credentials: "same-origin", headers: { Accept: "application/json" } })
      .then(function (r) { return r.ok ? r.json() : null; })
      .then(function (villages) {
        if (!villages) return;
        villages.forEach(function (v) {
          v.taverns.forEach(function (t) {
            t.tables.forEach(function (table) {
              show(table.id, table.seats_taken, table.seats);
              showPot(table.id, table.last_pot);
              waiting(table.id, table.waiting);
            });
          });
        });
        soon();
      })
      .catch(function () { /* offline for a moment: the next round will tell */ });
    fetch("/api/village/contests", { credentials: "same-origin", headers: { Accept: "application/json" } })
      .then(function (r) { return r.ok ? r.json() : null; })
      .then(function (contests) { if (contests) showContests(contests); })
      .catch(function () { /* as above */ });
  }

  function poll() {
    if (polling === null) polling = setInterval(refresh, EVERY_MS);
  }

  function live() {
    var scheme = location.protocol === "https:" ? "wss://" : "ws://";
    var socket;
    try {
      socket = new WebSocket(scheme + location.host + "/ws/village");
    } catch (e) {
      poll();
      return;
    }
    socket.onmessage = function (event) {
      var msg = JSON.parse(event.data);
      if (msg.type === "village") {  // the whole summary: a table with no pot listed shows none
        msg.tables.forEach(function (row) { show(row[0], row[1], row[2]); waiting(row[0], row[3]); });
        var pots = {};
        (msg.pots || []).forEach(function (row) { pots[row[0]] = row[1]; });
        msg.tables.forEach(function (row) { showPot(row[0], pots[row[0]]); });
        // Sent again to a visitor who fell behind: a table it no longer lists has closed.
        var listed = {};
        msg.tables.forEach(function (row) { listed[row[0]] = true; });
        Object.keys(now).forEach(function (id) { if (!listed[id]) now[id].closed = true; });
      } else if (msg.type === "village_changes") {  // only what changed since the last frame
        msg.tables.forEach(function (row) { show(row[0], row[1], row[2]); waiting(row[0], row[3]); });
        msg.pots.forEach(function (row) { showPot(row[0], row[1]); });
        (msg.closed || []).forEach(function (id) { if (now[id]) now[id].closed = true; });
      } else {
        return;
      }
      soon();
      if (msg.contests) showContests(msg.contests);
    };
    socket.onclose = poll;
  }

  /* The filters by game and stakes: rows hidden on this side, the feed
   * being the same for every visitor (issue 30 §4). */
  function filter(form) {
    var game = form.elements.game.value, stakes = form.elements.stakes.value;
    document.querySelectorAll("tr[data-game]").forEach(function (row) {
      row.hidden = (game !== "" && row.getAttribute("data-game") !== game) ||
                   (stakes !== "" && row.getAttribute("data-stakes") !== stakes);
    });
  }

  var filters = document.getElementById("village-filters");
  if (filters) filters.addEventListener("change", function () { filter(filters); });
  if (document.querySelector("[data-table-seats]") || document.getElementById("village-contests")) live();
})();
