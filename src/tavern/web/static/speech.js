/* What a screen reader hears at the table (issue 40 §3): one polite live
 * region (role="log") where each event of the deal is told in French as it
 * happens — the engine's public events (story.js, cards said by name), the
 * cards the player receives, the board dealt, his turn with the moves he
 * has, the result — and, on request (the « o » key, keys.js), where the
 * deal stands.
 *
 * The shell (table.js) calls `follow` after drawing each frame; this module
 * remembers what it has told (per deal) and tells only what is new. A page
 * opened in the middle of a deal is not told the past: it is told where the
 * deal stands instead. Hooks for tests: `#table-live[data-said]` (lines
 * told so far), each line a <p> of `.tl-live`.
 */
import { h, fmt, cardName, isCard } from "./cards.js";
import { storyLine } from "./story.js";

var STREETS = { 3: "Flop", 4: "Turn", 5: "River" };
var KEEP = 30;  // lines kept in the region (a reader reads what is added; the rest is history)

export function Speech(root) {
  this.root = root;
  this.el = h("div", { cls: "tl-live sr-only", role: "log", "aria-live": "polite", "aria-label": "Annonces de la table" });
  this.said = 0;
  this.deal = null;      // the deal_no whose events are being told
  this.heard = 0;        // events of that deal told
  this.board = 0;        // board cards told (hold'em)
  this.hand = null;      // the player's cards as last told
  this.turn = "";        // the moves last offered (his turn told once per set of moves)
  this.result = null;    // the deal whose result was told
  this.last = {};        // player -> his last line (for a seat's name)
}

/** Add one line to the live region (the oldest beyond KEEP dropped). */
Speech.prototype.say = function (text) {
  if (!text) return;
  this.el.appendChild(h("p", { text: text }));
  while (this.el.childNodes.length > KEEP) this.el.removeChild(this.el.firstChild);
  this.root.setAttribute("data-said", String(++this.said));
};

function named(list) { return list.map(cardName).join(", "); }

/** The cards of `now` not in `before` (each card once: a deck's two copies count apart). */
function added(before, now) {
  var left = (before || []).slice();
  return now.filter(function (c) { var i = left.indexOf(c); if (i >= 0) { left.splice(i, 1); return false; } return true; });
}

/** Tell what changed with this frame. `o`: {name, events (the deal's story so
 *  far), hand (his cards or null), moves (the names of his buttons, [] when
 *  it is not his turn), result ({deal, line}) }. */
Speech.prototype.follow = function (m, o) {
  var first = this.deal === null;
  var dealNo = m.table.deal_no;
  if (dealNo !== this.deal) {
    this.deal = dealNo; this.heard = 0; this.board = 0; this.hand = null; this.last = {};
    if (first) { this.heard = o.events.length; this.result = o.result && o.result.deal; this.board = o.board || 0; }
  }
  var self = this;
  o.events.slice(this.heard).forEach(function (ev) {
    var line = self.line(ev);
    if (line) { self.say(line); if (ev.player) self.last[ev.player] = line; }
  });
  this.heard = Math.max(this.heard, o.events.length);
  if (o.hand) {
    var got = added(this.hand, o.hand);
    if (got.length) this.say("Vous recevez : " + named(got) + ".");
    this.hand = o.hand.slice();
  }
  if (o.result && o.result.deal !== this.result) {
    this.result = o.result.deal;
    this.say(o.result.line);
  }
  var turn = o.moves.join(" | ");
  if (turn && turn !== this.turn) this.say("À vous : " + o.moves.join(", ") + ".");
  this.turn = turn;
  if (first) this.say(this.where());
};

/** What a reader says for an element: its label, or a card button's hidden name, or its text. */
export function label(el) {
  var name = el.getAttribute("aria-label") || (el.querySelector(".sr-only") || el).textContent;
  return name.trim();
}
function labels(root, sel) { return Array.prototype.map.call(root.querySelectorAll(sel), label).filter(Boolean); }

/** Where the deal stands, read from the table as drawn (the same names a
 *  reader finds by moving through the page): the felt's middle, the public
 *  cards, his cards, whose turn, each seat. */
Speech.prototype.where = function () {
  var r = this.root, out = [];
  var center = r.querySelector(".tl-center");
  if (center) Array.prototype.forEach.call(center.children, function (el) {
    if (!el.classList.contains("tl-board") && !el.classList.contains("tl-last")) out.push(el.textContent.trim().replace(/[.…]+$/, ""));
  });
  var board = labels(r, ".tl-board .pc:not(.slot)");
  if (board.length) out.push("Tableau : " + board.join(", "));
  Array.prototype.forEach.call(r.querySelectorAll(".tl-public .tl-pile"), function (p) {
    var what = p.querySelector("small");
    out.push((what ? what.textContent + " : " : "") + labels(p, ".pc").join(", "));
  });
  var mine = labels(r, ".tl-myhand .pc");
  if (mine.length) out.push("Vos cartes : " + mine.join(", "));
  var turn = r.querySelector(".tl-actions p");
  if (turn) out.push(turn.textContent.replace(/\.$/, ""));
  var seats = labels(r, ".tl-seat[aria-label]");
  if (seats.length) out.push("Joueurs : " + seats.join(" ; "));
  return out.filter(Boolean).join(". ") + ".";
};

/** A hand in words: its cards by name when seen, else how many. */
export function handWords(list, count) {
  var known = Array.isArray(list) ? list.filter(isCard) : [];
  var n = Array.isArray(list) ? list.length - known.length : count || 0;
  var out = known.length ? [named(known)] : [];
  if (n) out.push(n + (n > 1 ? " cartes cachées" : " carte cachée"));
  return out.join(", ");
}

/** One event in words; the board dealt is told by its street. */
Speech.prototype.line = function (ev) {
  if (ev.event === "phase" && Array.isArray(ev.board) && ev.board.length > this.board) {
    var fresh = ev.board.slice(this.board);
    this.board = ev.board.length;
    return (STREETS[ev.board.length] || "Tableau") + " : " + named(fresh) + ".";
  }
  return storyLine(ev, cardName);
};

/** A seat in words: « bob, 980 jetons, 2 cartes, mise 40, relance à 40 ». */
export function seatWords(p, o) {
  var parts = [p.name + (o.mine ? " (vous)" : ""), fmt(o.chips) + " jetons"];
  if (o.cards) parts.push(o.cards);
  if (o.bet) parts.push("mise " + fmt(o.bet));
  if (o.badges.length) parts.push(o.badges.join(", ").toLowerCase());
  if (o.toAct) parts.push("à lui de parler");
  if (o.last) parts.push("dernière action : " + o.last.replace(/\.$/, ""));
  return parts.join(", ");
}
