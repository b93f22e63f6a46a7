/* The village page: the seat counts of every open table, kept live from the
 * JSON API (GET /api/village) every few seconds. Each count is a cell marked
 * data-table-seats="<table id>" in templates/village.html. */
(function () {
  "use strict";
  var EVERY_MS = 5000;

  function refresh() {
    if (document.hidden) return;  // nobody is looking: spare the server
    fetch("/api/village", { credentials: "same-origin", headers: { Accept: "application/json" } })
      .then(function (r) { return r.ok ? r.json() : null; })
      .then(function (villages) {
        if (!villages) return;
        villages.forEach(function (v) {
          v.taverns.forEach(function (t) {
            t.tables.forEach(function (table) {
              var cell = document.querySelector('[data-table-seats="' + table.id + '"]');
              if (!cell) return;  // a table opened since the page was drawn: shown at the next reload
              var text = table.seats_taken + "/" + table.seats;
              if (cell.textContent !== text) cell.textContent = text;
              cell.setAttribute("data-seats-taken", table.seats_taken);
            });
          });
        });
      })
      .catch(function () { /* offline for a moment: the next round will tell */ });
  }

  if (document.querySelector("[data-table-seats]")) setInterval(refresh, EVERY_MS);
})();
