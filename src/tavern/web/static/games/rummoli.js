/* Rummoli: the whole board (the Rummoli pot, the poker pot and every pay
 * section with its chips and who took it) in French card letters, the
 * runs to play, and the result's sections: who took each, and the
 * Rummoli pot's winner (issue 11 §4, §11). */
import { h, fmt, card, cards, isCard, cardText, btn } from "../cards.js";
import * as G from "./generic.js";

export var hand = G.hand, picking = G.picking, playable = G.playable, multiSelect = G.multiSelect;
export function controls(ctx, acts) {
  return G.controls(ctx, acts, { special: function (name, a, row) {
    // The poker pot's betting (method 2): the legal "call" names the total
    // the player reaches, which the engine does not take back ("'call'
    // takes no arguments"): the button sends none.
    if (name !== "call") return false;
    row.appendChild(btn(G.word("call") + " à " + fmt(a.amount), "call", function () { ctx.act("call", {}); }));
    return true;
  } });
}

/** French letters on a section's label: valet, dame, roi. */
function frenchLabel(text) { return String(text).replace(/J/g, "V").replace(/Q/g, "D").replace(/K/g, "R"); }
function cell(label, chips, extra, kids) {
  return h("div", { cls: "tl-section" + (extra || ""), "data-chips": chips },
    h("small", { text: label }), kids || null, h("b", { cls: "money", text: fmt(chips) + " jetons" }));
}
function board(d, box, skip) {
  if (!Array.isArray(d.pay_sections)) return;
  skip.pay_sections = 1;
  if (!d.board) {  // no board in the view: the sections as piles
    d.pay_sections.forEach(function (v) {
      if (isCard(v.id)) box.appendChild(h("div", { cls: "tl-pile" }, h("small", { text: frenchLabel(v.label) +
        (v.chips ? " · " + fmt(v.chips) : "") + (v.won_by ? " · " + v.won_by : "") }), card(v.id)));
    });
    return;
  }
  skip.board = 1;
  var grid = h("div", { cls: "tl-board-rummoli", "aria-label": "le tableau du Rummoli" },
    cell("Pot Rummoli", d.board.rummoli || 0, " tl-pot-rummoli"),
    cell("Pot du poker", d.board.poker || 0, " tl-pot-poker"));
  d.pay_sections.forEach(function (s) {
    var faces = isCard(s.id) ? card(s.id) : s.id === "KdAd" ? cards(["Kd", "Ad"]) : null;
    grid.appendChild(cell(frenchLabel(s.label) + (s.won_by ? " — pour " + s.won_by : ""), s.chips || 0,
      " tl-pay" + (s.won_by ? " won" : ""), faces));
  });
  box.appendChild(grid);
}
export function felt(ctx) { return G.felt(ctx, board); }

/** Each section paid and to whom: the Rummoli pot's winner is named. */
export function story(r) {
  var box = G.story(r);
  // Every chip of the deal, the board's included (issue 42 §10); the list of
  // sections won is for a result archived before the account was kept.
  var acc = G.account(r.account, r.delta, "Le tableau, jeton par jeton", "tableau");
  if (acc) { box.appendChild(acc); return G.done(box); }
  if (Array.isArray(r.pots) && r.pots.some(function (x) { return x.section; })) {
    box.appendChild(h("ul", { cls: "tl-sections" }, r.pots.map(function (x) {
      var label = x.section === "poker" ? "pot du poker" : x.section === "rummoli" ? "pot du Rummoli" :
        isCard(x.section) ? cardText(x.section) : String(x.section).split("+").map(function (c) { return isCard(c) ? cardText(c) : c; }).join("+");
      return h("li", { "data-section": x.section }, label + " : " + fmt(x.amount) + " jetons à " + (x.winners || []).join(", "));
    })));
  }
  return G.done(box);
}
