// A contest's page: the level clock counts down, and the page reloads when
// the level changes (or every 15 s) so the standings stay fresh.
(function () {
  "use strict";
  const el = document.querySelector(".contest-seconds");
  let left = el && el.dataset.seconds !== "" ? parseFloat(el.dataset.seconds) : null;
  const started = Date.now();
  function fmt(s) {
    s = Math.max(0, Math.round(s));
    const m = Math.floor(s / 60);
    return (m ? m + " min " : "") + (s % 60) + " s";
  }
  setInterval(function () {
    if (left !== null && el) {
      const now = left - (Date.now() - started) / 1000;
      el.textContent = fmt(now);
      if (now <= 0) { location.reload(); }
    }
  }, 500);
  setTimeout(function () { location.reload(); }, 15000);
})();
