/* The table by keyboard (issue 40 §2): a few keys a player can learn, shown
 * in the « Raccourcis » box beside the table, and the focus kept where his
 * hands are — on his controls after each move, moved to them when his turn
 * comes (never taken from a box he is typing in: the chat, the cave).
 *
 *   1 … 9       the n-th of his moves (every game, whatever its buttons)
 *   f / c / r   poker: se coucher / parole or suivre / miser or relancer
 *   ← →         from card to card in his hand; space picks a card;
 *   Entrée      on a picked card: the move that plays it (jeter, jouer…)
 *   m / a / j   to his hand / his moves / the deal's journal
 *   o           « où en est la donne ? », told by the live region
 *   ?           opens or closes this help
 * The keys act on the buttons the page shows (a click on them), so a key
 * can do nothing the mouse cannot.
 */
import { h } from "./cards.js";
import { label } from "./speech.js";

var POKER = { f: ["fold"], c: ["check", "call"], r: ["raise", "bet"] };
var HELP = [["1 … 9", "jouer le coup n° 1 à 9 de vos actions"], ["f, c, r", "poker : se coucher, parole ou suivre, miser ou relancer"],
  ["← →", "passer d'une carte à l'autre de votre main"], ["Espace", "choisir la carte (ou la reposer)"],
  ["Entrée", "sur une carte choisie : la jouer (jeter, jouer, échanger…)"],
  ["m, a, j", "aller à votre main, à vos actions, au journal"], ["o", "où en est la donne ? (annoncé au lecteur d'écran)"],
  ["?", "ouvrir ou fermer cette aide"]];

/** A seat's control that gives way to its contrary once pressed. */
var TOGGLED = { sit_out: "sit_in", sit_in: "sit_out" };

function typing(el) {
  return !!el && (el.tagName === "INPUT" || el.tagName === "TEXTAREA" || el.tagName === "SELECT" || el.isContentEditable);
}
function enabled(list) { return Array.prototype.filter.call(list, function (b) { return !b.disabled; }); }

/** `o`: {root, actions (the box of his moves), story (the journal), poker()
 *  (whether the table's game is poker), where() (the deal in words), say(text)}. */
export function Keys(o) {
  this.o = o;
  this.help = h("details", { cls: "tl-panel tl-keys" }, h("summary", { text: "Raccourcis" }),
    h("dl", {}, HELP.map(function (k) { return [h("dt", {}, h("kbd", { text: k[0] })), h("dd", { text: k[1] })]; })));
  this.was = null;  // what had the focus before a drawing: {card} or {action}
  var self = this;
  document.addEventListener("keydown", function (ev) { self.key(ev); });
}

Keys.prototype.moves = function () { return enabled(this.o.actions.querySelectorAll("button.tl-act")); };
Keys.prototype.hand = function () { return Array.prototype.slice.call(this.o.root.querySelectorAll(".tl-myhand button.pc")); };

Keys.prototype.key = function (ev) {
  if (ev.ctrlKey || ev.metaKey || ev.altKey || typing(ev.target) || ev.defaultPrevented) return;
  var k = ev.key, o = this.o, done = true;
  if (k === "?") { this.help.open = !this.help.open; if (this.help.open) this.help.querySelector("summary").focus(); }
  else if (k === "o") o.say(o.where());
  else if (k === "m") done = focus(this.hand()[0]);
  else if (k === "a") done = focus(this.moves()[0]);
  else if (k === "j") done = focus(o.story);
  else if (/^[1-9]$/.test(k)) done = click(this.moves()[Number(k) - 1]);
  else if (o.poker() && POKER[k]) done = click(this.moves().filter(function (b) { return POKER[k].indexOf(b.getAttribute("data-action")) >= 0; })[0]);
  else if ((k === "ArrowLeft" || k === "ArrowRight") && ev.target.matches && ev.target.matches(".tl-myhand button.pc")) {
    var all = this.hand(), i = all.indexOf(ev.target) + (k === "ArrowLeft" ? -1 : 1);
    done = focus(all[(i + all.length) % all.length]);
  } else if (k === "Enter" && ev.target.matches && ev.target.matches(".tl-myhand button.pc[aria-pressed=true]")) {
    var play = this.playing(ev.target);
    if (play) play.click();
    else o.say(label(ev.target) + " : aucun de vos coups ne la joue maintenant.");  // heard, not a silent key
  } else done = false;
  if (done) ev.preventDefault();
};

/** The move that plays a picked card: the first enabled move that names it,
 *  or the one that sends all the picked cards (`data-uses-picks`); null when
 *  none does (the rules refuse that card now). */
Keys.prototype.playing = function (cardEl) {
  var name = label(cardEl);
  var moves = this.moves();
  return moves.filter(function (b) { return label(b).indexOf(name) >= 0; })[0] ||
    moves.filter(function (b) { return b.hasAttribute("data-uses-picks"); })[0] || null;  // the picks at once (draw poker's change)
};

/** A move that cleared his picks without leaving the page's hands (Gin's
 *  knocker gathering his melds): the button pressed is gone, so the focus
 *  goes to his hand's first card, where he picks again — not the page's top. */
Keys.prototype.pickAgain = function (had) {
  var a = document.activeElement;
  if (had && had !== a && (!a || a === document.body)) focus(this.hand()[0]);
};

function focus(el) { if (!el) return false; el.focus(); return true; }
function click(el) { if (!el) return false; el.click(); return true; }

/** Before the shell redraws: remember what had the focus (a card, a move). */
Keys.prototype.before = function () {
  var a = document.activeElement, root = this.o.root;
  this.was = null;
  if (!a || !root.contains(a)) { this.was = a === document.body || !a ? { idle: true } : null; return; }
  if (a.getAttribute("data-card")) this.was = { card: a.getAttribute("data-card") };
  else if (a.getAttribute("data-action")) this.was = { action: a.getAttribute("data-action"), controls: !!a.closest(".tl-controls") };
  else if (typing(a)) this.was = { idle: true, box: a };  // the cave box, taken out and put back by a drawing
  else this.was = { idle: true };
};

/** After it: the focus back where it was, or on his moves when his turn
 *  has come (`turnStarts`) or the focused control is gone. A seat or chips
 *  control gone (« Cave » that seated him, « Se lever »): the same control
 *  if it is still there (« Se rasseoir » after « Se lever », and back), else
 *  the first one of the seat's controls — never the top of the page. */
Keys.prototype.after = function (turnStarts) {
  var w = this.was, a = document.activeElement;
  this.was = null;
  var lost = !a || a === document.body || !this.o.root.contains(a);
  if (w && w.box && lost && !turnStarts && document.contains(w.box)) { w.box.focus(); return; }
  if (!w || (w.idle && !turnStarts)) return;  // typing elsewhere, reading another part of the page
  if (lost && !turnStarts && w.controls) {
    var box = this.o.root.querySelector(".tl-controls");
    var next = TOGGLED[w.action] || w.action;  // « Se lever » gives way to « Se rasseoir », and back
    var same = enabled(box ? box.querySelectorAll('[data-action="' + next + '"]') : [])[0];
    if (focus(same || enabled(box ? box.querySelectorAll("button, input") : [])[0])) return;
  }
  if (!lost && !turnStarts) return;
  if (!lost && turnStarts && !w.idle && a.getAttribute("data-card")) return;  // picking cards: leave him there
  var back = null;
  if (!turnStarts && w.card) back = this.o.root.querySelector('.tl-myhand button.pc[data-card="' + w.card + '"]');
  if (!back && !turnStarts && w.action) back = this.moves().filter(function (b) { return b.getAttribute("data-action") === w.action; })[0];
  if (!back) back = this.moves()[0] || this.hand()[0];
  if (back) back.focus();
};
