// « Salle des machines »: the figures read again every five seconds
// (GET /api/admin/engine-room, the same as /metrics), the page redrawn.
"use strict";
(() => {
  const $ = (id) => document.getElementById(id);
  const text = (v) => (v === null || v === undefined ? "—" : String(v));
  const row = (cells) => {
    const tr = document.createElement("tr");
    for (const c of cells) {
      const td = document.createElement("td");
      td.textContent = text(c);
      tr.appendChild(td);
    }
    return tr;
  };
  const fill = (id, rows, empty) => {
    const body = $(id);
    body.replaceChildren(...(rows.length ? rows : [row([empty])]));
  };
  async function refresh() {
    let room;
    try {
      const r = await fetch("/api/admin/engine-room", { headers: { Accept: "application/json" } });
      if (!r.ok) return;
      room = await r.json();
    } catch (e) {
      return; // the server restarting: the next turn tries again
    }
    $("room-players").textContent = text(room.players);
    $("room-sockets").textContent = text(room.sockets);
    $("room-queue").textContent = text(room.send_queue);
    $("room-tables-total").textContent = text(room.tables_total);
    $("room-dpm").textContent = text(room.deals_per_minute);
    $("room-pool").textContent = `${room.pool_in_use} / ${room.pool_size}`;
    $("room-pool-timeouts").textContent = text(room.pool_timeouts);
    const lat = room.latency_ms;
    $("room-latency").replaceChildren(...row([
      ...["p50", "p90", "p99"].map((k) => (lat[k] === null ? null : `${lat[k]} ms`)), room.actions_published,
    ]).children);
    fill("room-games", room.tables.map((g) => row([g.label, g.tables, g.per_minute])), "Aucune table en cours.");
    fill("room-workers", room.workers.map((w) => row([w.worker, w.pid, w.tables])),
      "Aucun worker n'a encore donné ses chiffres.");
    const errors = $("room-errors");
    errors.replaceChildren(...(room.errors.length ? room.errors.map((e) => {
      const li = document.createElement("li");
      const where = [e.table && `table ${e.table}`, e.deal && `donne ${e.deal}`, e.request_id && `requête ${e.request_id}`]
        .filter(Boolean).join(" · ");
      li.textContent = `${e.time} ${e.logger}${where ? " · " + where : ""} — ${e.message}`;
      return li;
    }) : [Object.assign(document.createElement("li"), { textContent: "Aucune erreur depuis le démarrage." })]));
  }
  setInterval(refresh, 5000);
})();
