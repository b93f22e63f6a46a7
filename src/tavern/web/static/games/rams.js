/* Rams: the trick on the table (each card under its player's name), the
 * declarations named by what they do, only the playable cards clickable,
 * and the result's tricks with who is "rams". */
import { h, card, back, cardText, isCard, SUITS } from "../cards.js";
import * as G from "./generic.js";

export var hand = G.hand, picking = G.picking, playable = G.playable, multiSelect = G.multiSelect;

/** The trick being played; no box before its first card (issue 11 §11). */
function trick(d, box, skip) {
  var t = Array.isArray(d.tricks) && d.tricks.length ? d.tricks[d.tricks.length - 1] : null;
  skip.tricks = 1;
  if (!t || !(t.cards || []).length) return;
  box.appendChild(h("div", { cls: "tl-pile tl-trick" }, h("small", { text: "pli n° " + d.tricks.length }),
    (t.cards || []).map(function (c) {
      return h("span", { cls: "tl-played" }, isCard(c.card) ? card(c.card) : back(), h("small", { text: c.player }));
    })));
}
/** The trump named on the felt for the whole deal once it is known (the
 *  turned card's suit; with "trump set by the first card played", from the
 *  first card on): « Atout : ♥ » (issue 33 §8). */
export function trumpSign(suit) {
  if (!SUITS[suit]) return null;
  return h("div", { cls: "tl-trump" + (suit === "h" || suit === "d" ? " red" : ""), "data-trump": suit },
    "Atout : ", h("b", { text: SUITS[suit] }));
}
export function felt(ctx) {
  var f = G.felt(ctx, trick), sign = trumpSign(ctx.deal.trump);
  if (sign) f.center.push(sign);
  return f;
}

/** Buttons named by what they do (issue 11 §8): the declarations, the exchange kept. */
var CHOICES = { "speak:play": "Je joue", "speak:pass": "Je passe", "speak:widow": "Prendre la fille",
  "speak:thrown": "Prendre le jeu jeté", "speak:general": "Rams général",
  "exchange:": "Garder mon jeu (ne pas échanger)" };
export function controls(ctx, acts) {
  return G.controls(ctx, acts, { choices: CHOICES, perCard: function (name, sel, hit) {
    if (name !== "exchange") return null;  // the dealer's swap with the turned card
    return G.word("exchange") + (hit ? " " + cardText(sel) + " contre la retournée" : " une carte (choisissez-la)");
  } });
}

/** Tricks won by each player; none taken is "rams". */
export function story(r) {
  var box = G.story(r);
  if (r.tricks && typeof r.tricks === "object" && Object.keys(r.tricks).length) {
    box.appendChild(h("p", { cls: "tl-tricks", text: "Plis : " + Object.keys(r.tricks).map(function (p) {
      return p + " " + r.tricks[p] + (r.tricks[p] === 0 ? " (rams)" : ""); }).join(", ") + "." }));
  }
  // Every chip of the deal: the dealer's stake, the shares, the rams, what stays (issue 42 §10).
  var acc = G.account(r.account, r.delta, "Le pot, jeton par jeton", "pot");
  if (acc) box.appendChild(acc);
  return G.done(box);
}
