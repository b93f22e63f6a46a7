/* A player's own notices on every page of the site (issue 30 §3): the base
 * template's #notices box and this module, for a logged-in player only.
 * One socket, /ws/notices (web/notices.py), carries his notices: a seat a
 * full table's waiting list holds for him (« Prendre la place » /
 * « Laisser passer », the API's POST /api/tables/{id}/offer/accept|pass
 * with the page's CSRF token), and its end; a contest he registered for
 * starting within 5 minutes (contests/soon.py); a friend's private table
 * inviting him by name (web/routers/invitations.py). Every sentence comes from the
 * server (its `text`) or the template (the buttons' words, data-*): written
 * with textContent only (strict CSP). */
const box = document.getElementById("notices");
const csrf = (document.querySelector('meta[name="csrf-token"]') || {}).content || "";
const offers = new Map();  // table id -> { el, timer }

function el(tag, cls, text) {
  const node = document.createElement(tag);
  if (cls) node.className = cls;
  if (text !== undefined) node.textContent = text;
  return node;
}

function forget(tableId) {
  const held = offers.get(tableId);
  if (!held) return;
  clearInterval(held.timer);
  held.el.remove();
  offers.delete(tableId);
}

function say(text, kind) {
  const line = el("p", "notice " + kind, text);
  line.setAttribute("role", "status");
  box.append(line);
  setTimeout(function () { line.remove(); }, 8000);
}

function answer(tableId, what) {
  return fetch("/api/tables/" + tableId + "/offer/" + what, {
    method: "POST", credentials: "same-origin",
    headers: { "X-CSRF-Token": csrf, "Content-Type": "application/json", Accept: "application/json" },
    body: "{}",
  }).then(function (r) {
    if (r.ok) return true;
    return r.json().then(function (e) { say(e.message || e.detail, "error"); return false; });
  });
}

function offer(m) {
  forget(m.table_id);
  const card = el("div", "notice offer");
  card.setAttribute("role", "alert");
  card.dataset.table = m.table_id;
  const line = el("p", "offer-text", m.text);
  let left = Math.round(m.seconds);
  const count = el("span", "offer-left", left + " s");
  const take = el("button", "offer-take", box.dataset.take);
  const pass = el("button", "offer-pass secondary", box.dataset.pass);
  take.type = pass.type = "button";
  take.addEventListener("click", function () {
    answer(m.table_id, "accept").then(function (ok) {
      if (ok && location.pathname !== "/tables/" + m.table_id) location.assign("/tables/" + m.table_id);
    });
  });
  pass.addEventListener("click", function () { answer(m.table_id, "pass"); });
  card.append(line, count, take, pass);
  box.append(card);
  const timer = setInterval(function () {
    left = Math.max(0, left - 1);
    count.textContent = left + " s";
  }, 1000);
  offers.set(m.table_id, { el: card, timer: timer });
}

function told(m, href, words) {
  // A contest he registered for starting within 5 minutes, a friend's
  // private table inviting him: kept until closed, with the way there.
  const card = el("div", "notice told " + m.type);
  card.setAttribute("role", "status");
  const link = el("a", "", words);
  link.href = href;
  const close = el("button", "secondary", box.dataset.close);
  close.type = "button";
  close.addEventListener("click", function () { card.remove(); });
  card.append(el("p", "", m.text), link, close);
  box.append(card);
}

function open() {
  const scheme = location.protocol === "https:" ? "wss://" : "ws://";
  const ws = new WebSocket(scheme + location.host + "/ws/notices");
  ws.onmessage = function (ev) {
    const m = JSON.parse(ev.data);
    if (m.type === "seat_offer") offer(m);
    else if (m.type === "contest_soon") told(m, "/concours/" + m.contest_id, box.dataset.contest);
    else if (m.type === "table_invitation") told(m, "/tables/" + m.table_id, box.dataset.join);
    else if (m.type === "seat_offer_over") {
      forget(m.table_id);
      say(m.text, m.why === "seated" ? "ok" : "info");
    }
  };
  ws.onclose = function (ev) {
    if (ev.code !== 1008) setTimeout(open, 3000);  // refused: stay closed; dropped: come back
  };
}

if (box) open();
