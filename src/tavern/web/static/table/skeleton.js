/* The table page's skeleton, built once into #table-live: the status line,
 * the felt (centre and seats), the actions panel (error and notice lines,
 * the action bar, poker's auto-actions), the public cards' strip, the side
 * panel (seat controls, daily hands, « Confort »), the result, the journal
 * and the « Raccourcis » help; and the panel's lines (status, error, notice).
 * Sets `T.el`, `T.feel`, `T.speech`, `T.keys`. */
import { h, add, clear } from "../cards.js";
import { Speech } from "../speech.js";
import { Keys } from "../keys.js";
import { Feel } from "../feel.js";
import { isPoker } from "./view.js";

export function build(T) {
  var root = T.root;
  clear(root);
  root.classList.add("tl");
  var el = T.el = {};
  el.status = h("p", { cls: "tl-status", role: "status" });
  el.contest = h("p", { cls: "tl-contest", hidden: true });
  el.felt = h("div", { cls: "tl-felt" });
  el.table = h("div", { cls: "tl-oval" }, el.felt);
  el.public = h("div", { cls: "tl-public", role: "group", "aria-label": "cartes sur la table", hidden: true });
  el.center = h("div", { cls: "tl-center" });
  el.felt.appendChild(el.center);
  el.seats = h("div", { cls: "tl-seats", role: "list", "aria-label": "Les places" });
  el.felt.appendChild(el.seats);
  el.error = h("p", { cls: "tl-error", role: "alert", hidden: true });
  el.notice = h("p", { cls: "tl-notice", role: "status", hidden: true });
  el.actions = h("div", { cls: "tl-actions", role: "group", "aria-label": "Vos actions" });
  el.auto = h("div", { cls: "tl-auto" });
  el.play = h("div", { cls: "tl-panel tl-play" }, el.error, el.notice, el.actions, el.auto);
  el.controls = h("div", { cls: "tl-controls" });
  el.hands = h("p", { cls: "tl-hands" });
  // Animations and the turn's chime, both the player's to switch off (feel.js).
  var feel = T.feel = new Feel(root);
  var speech = T.speech = new Speech(root);  // the live region a screen reader follows (speech.js)
  el.result = h("div", { cls: "tl-result" });  // told by the live region (speech.js), not a second one
  el.story = h("ol", { cls: "tl-story-log", "aria-label": "Journal de la donne", tabindex: 0 });  // it scrolls: reachable by keyboard (axe)
  el.storyBox = h("details", { cls: "tl-panel tl-story-box", open: true },
    h("summary", { text: "Journal de la donne" }), el.story);
  var keys = T.keys = new Keys({ root: root, actions: el.actions, story: el.story, poker: function () { return isPoker(T); },
    where: function () { return speech.where(); }, say: function (t) { speech.say(t); } });
  // His moves right under the felt, where his hand is (issue 40 §1), then the public cards.
  add(root, [el.status, speech.el, el.contest, el.table, el.play, el.public,
    h("div", { cls: "tl-panel tl-side" }, el.controls, el.hands, feel.controls()), el.result, el.storyBox, keys.help]);
}

export function setStatus(T, text, kind) { T.el.status.textContent = text; T.el.status.className = "tl-status " + kind; }

// The store failing under the table (issue 38: the state's `table.store_fault`):
// the deal waits on the server, not on a player, and the status line says so
// until the store works again.
var STORE_FAULTS = {
  disk_full: "Le serveur manque d'espace disque : la donne sera enregistrée dès que possible, rien n'est perdu.",
  store_away: "La base de données ne répond pas un instant : la donne sera enregistrée dès son retour, rien n'est perdu."
};
export function showStoreFault(T, fault) {
  if (fault) {
    T.storeFault = true;
    setStatus(T, STORE_FAULTS[fault] || STORE_FAULTS.store_away, "ko");
  } else if (T.storeFault) {
    T.storeFault = false;
    setStatus(T, "Connecté", "ok");
  }
}

var errTimer = null;
/** A refusal's line near the buttons (null clears it); gone after 10 s. */
export function showError(T, text) {
  var el = T.el;
  clearTimeout(errTimer);
  el.error.hidden = !text;
  el.error.textContent = text || "";
  if (text) errTimer = setTimeout(function () { el.error.hidden = true; syncPanel(T); }, 10000);
  syncPanel(T);
}

export function showNotice(T, text) {
  T.el.notice.hidden = !text;
  T.el.notice.textContent = text || "";
  syncPanel(T);
}

/** The actions panel shows only when it has something: buttons, a message. */
export function syncPanel(T) {
  var el = T.el;
  el.play.hidden = !el.actions.firstChild && !el.auto.firstChild && el.error.hidden && el.notice.hidden;
}
