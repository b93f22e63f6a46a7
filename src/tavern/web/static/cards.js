/* What every part of the live table draws with: DOM helpers (textContent
 * only: names come from players), card faces in French letters (V, D, R),
 * buttons. Shared by the shell (table.js) and the games' modules (games/). */

export function h(tag, attrs) {
  var el = document.createElement(tag);
  if (attrs) {
    for (var k in attrs) {
      if (!Object.prototype.hasOwnProperty.call(attrs, k)) continue;
      var v = attrs[k];
      if (v === null || v === undefined || v === false) continue;
      if (k === "text") el.textContent = v;
      else if (k === "cls") el.className = v;
      else if (k === "on") { for (var ev in v) el.addEventListener(ev, v[ev]); }
      else if (k === "style") { for (var s in v) el.style.setProperty(s, v[s]); }
      else el.setAttribute(k, v === true ? "" : v);
    }
  }
  for (var i = 2; i < arguments.length; i++) add(el, arguments[i]);
  return el;
}
export function add(el, child) {
  if (child === null || child === undefined || child === false) return;
  if (Array.isArray(child)) { child.forEach(function (c) { add(el, c); }); return; }
  el.appendChild(typeof child === "string" || typeof child === "number"
    ? document.createTextNode(String(child)) : child);
}
export function clear(el) { while (el.firstChild) el.removeChild(el.firstChild); }
export function fmt(n) { return Number(n).toLocaleString("fr-FR"); }
/** An amount of écus as French says it: « 0 écu », « 1 écu », « 2 écus »
 *  (the singular below two) — the page's one helper, twin of the server's
 *  catalogue.ecus (issue 42 §7). */
export function ecus(n) { return fmt(n) + (Math.abs(Number(n)) < 2 ? " écu" : " écus"); }

export var SUITS = { c: "♣", d: "♦", h: "♥", s: "♠" };
export var RANKS = { T: "10", J: "V", Q: "D", K: "R", A: "A" };  // French faces: Valet, Dame, Roi
var CARD_RE = /^([2-9TJQKA][cdhs]|X[0-9]+)$/;
export function isCard(x) { return typeof x === "string" && CARD_RE.test(x); }
export function isCardList(x) { return Array.isArray(x) && x.length > 0 && x.every(isCard); }
export function cardText(c) { return c[0] === "X" ? "joker" : (RANKS[c[0]] || c[0]) + SUITS[c[1]]; }

/** A card face: rank and suit symbol, red or black; `X1` is a joker. */
export function card(code, opts) {
  opts = opts || {};
  var cls = "pc face";
  var label, rank, suit;
  if (code[0] === "X") {
    cls += " joker"; rank = "★"; suit = "Joker"; label = "joker";
  } else {
    rank = RANKS[code[0]] || code[0];
    suit = SUITS[code[1]];
    cls += (code[1] === "h" || code[1] === "d") ? " red" : " black";
    label = rank + suit;
  }
  if (opts.cls) cls += " " + opts.cls;
  var el = h(opts.button ? "button" : "span",
    { cls: cls, "data-card": code, title: label, "aria-label": label, type: opts.button ? "button" : null,
      "aria-pressed": opts.button ? String(!!opts.pressed) : null },
    h("span", { cls: "corner" }, h("b", { text: rank }), code[0] === "X" ? null : h("i", { text: suit })),
    h("span", { cls: "pip", text: suit }));
  if (opts.onclick) el.addEventListener("click", opts.onclick);
  return el;
}
export function back() { return h("span", { cls: "pc back", "aria-label": "carte cachée" }); }
export function cards(list, count) {
  if (Array.isArray(list)) return list.map(function (c) { return isCard(c) ? card(c) : back(); });
  var out = [];
  for (var i = 0; i < (count || 0); i++) out.push(back());
  return out;
}

/** A table button; `data-action` names the action (the tests click by it). */
export function btn(label, action, onclick, extra) {
  return h("button", { type: "button", cls: "tl-act" + (extra ? " " + extra : ""), "data-action": action, text: label,
    on: { click: onclick } });
}

/** Poker hand categories (the poker games and Rummoli's poker pot). */
export var CATEGORY = { high_card: "Carte haute", pair: "Paire", two_pair: "Deux paires", three_of_a_kind: "Brelan",
  straight: "Suite", flush: "Couleur", full_house: "Full", four_of_a_kind: "Carré", straight_flush: "Quinte flush" };

/** What a player does, in the journal and the replayer: « bob relance à 8 ». */
export var SAID = { fold: "se couche", check: "parle", call: "suit", bet: "mise", raise: "relance à", show: "montre",
  muck: "jette sa main", post: "paie la grosse blinde", discard: "jette", lay: "pose", add: "ajoute",
  knock: "frappe et jette", close: "ferme et jette", lead: "entame", play: "joue", card: "joue", pass: "passe",
  bid: "enchérit", protect: "est protégé (déconnecté)", move_joker: "déplace un joker",
  draw: "pioche", gin: "fait gin", speak: "annonce", exchange: "échange", keep: "garde son jeu" };
