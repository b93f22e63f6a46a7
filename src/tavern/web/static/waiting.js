/* A full table's waiting list on the table page (issue 30 §3): the
 * « Liste d'attente » button when no seat is free for a player not seated,
 * his place once in line and « Quitter la liste d'attente ». It follows the
 * table's states (table.js's "tavern:state" events: `table.waiting`, the
 * list's length and the seats held; `waiting`, his own place) and acts over
 * the API (POST / DELETE /api/tables/{id}/waiting, CSRF header). The seat
 * offered itself comes on every page as a notice (static/notices.js).
 * Words from the template's data-*; textContent only (strict CSP). */
const box = document.getElementById("waitlist");
const csrf = (document.querySelector('meta[name="csrf-token"]') || {}).content || "";

function render(m) {
  const t = m.table || {};
  const w = t.waiting || { length: 0, held: [] };
  const free = t.seats - (t.players || []).length - w.held.length;
  const text = document.getElementById("waitlist-text");
  const button = document.getElementById("waitlist-button");
  if (m.you || t.closed || (!m.waiting && free > 0)) {
    box.hidden = true;
    return;
  }
  box.hidden = false;
  if (m.waiting) {
    text.textContent = box.dataset.place + " " + m.waiting.place + " (" + w.length + " " + box.dataset.length + ")";
    button.textContent = box.dataset.leave;
    button.dataset.method = "DELETE";
  } else {
    text.textContent = w.length + " " + box.dataset.length;
    button.textContent = box.dataset.join;
    button.dataset.method = "POST";
  }
}

function act() {
  const error = document.getElementById("waitlist-error");
  const button = document.getElementById("waitlist-button");
  fetch("/api/tables/" + box.dataset.tableId + "/waiting", {
    method: button.dataset.method, credentials: "same-origin",
    headers: { "X-CSRF-Token": csrf, Accept: "application/json" },
  }).then(function (r) {
    if (r.ok) { error.hidden = true; return; }  // the next state shows it
    return r.json().then(function (e) { error.textContent = e.message || e.detail; error.hidden = false; });
  });
}

if (box) {
  document.getElementById("waitlist-button").addEventListener("click", act);
  document.addEventListener("tavern:state", function (ev) { render(ev.detail); });
}
