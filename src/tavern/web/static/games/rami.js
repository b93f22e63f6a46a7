/* The rami family (rami, double rami, remigio, gin): melds and the discard
 * on the felt, draw/lay/add/discard buttons, Double rami's joker moves,
 * Gin's knock with the melds the knocker chooses, and the result's story:
 * how the deal ended, each count, Gin's match sheet. */
import { h, fmt, cardText, btn } from "../cards.js";
import * as G from "./generic.js";

export var felt = function (ctx) { return G.felt(ctx); };
export var hand = G.hand, picking = G.picking, playable = G.playable;

/** The knock's state (Gin), kept by the shell for the current phase only. */
function knock(ctx) { return ctx.local.knock || (ctx.local.knock = { on: false, melds: [] }); }
/** A Gin knocker gathering the cards of one of his melds picks several. */
export function multiSelect(ctx) { return knock(ctx).on; }

export function controls(ctx, acts) {
  return G.controls(ctx, acts, { special: function (name, a, row, sel) {
    if (Array.isArray(a.options) && name === "move_joker") {
      // Double rami: the legal entry lists the run's free `ends`; the
      // engine takes one `end` (low or high) with the meld and the card.
      a.options.forEach(function (o) {
        (o.ends || []).forEach(function (end) {
          row.appendChild(btn("Remplacer le joker par " + cardText(o.card) + " (joker " +
            (end === "low" ? "en bas" : "en haut") + " de la suite)", name,
            function () { ctx.act(name, { meld: o.meld, card: o.card, end: end }); }));
        });
      });
      return true;
    }
    if (name === "knock" && Array.isArray(a.cards) && a.cards.length) {
      if (a.grand) row.appendChild(btn("Grand gin", name, function () { ctx.act(name, {}); }));
      knockChoice(ctx, row, a, sel);
      return true;
    }
    return false;
  } });
}

/** Gin: "il pose sur la table huit ou neuf cartes formant des
 * combinaisons" — which melds is the knocker's choice. Left alone the
 * table shows the arrangement best for him; « Choisir mes combinaisons »
 * lets him gather each meld's cards, then pick the card he throws. */
function knockChoice(ctx, row, a, sel) {
  var k = knock(ctx), used = [].concat.apply([], k.melds);
  if (k.on) {
    var picked = ctx.selected.slice();
    row.appendChild(h("span", { cls: "tl-knock", text: k.melds.length
      ? "Vos combinaisons : " + k.melds.map(function (m) { return m.map(cardText).join(" "); }).join(" · ")
      : "Choisissez les cartes d'une combinaison." }));
    var keep = btn("Garder cette combinaison" + (picked.length ? " (" + picked.map(cardText).join(" ") + ")" : ""), "knock-meld",
      function () { k.melds.push(picked); ctx.unselect(); });
    keep.disabled = picked.length < 3 || picked.some(function (c) { return used.indexOf(c) >= 0; });
    row.appendChild(keep);
    row.appendChild(btn("Fini : choisir la carte à jeter", "knock-done",
      function () { k.on = false; ctx.unselect(); }));
    return;
  }
  var ok = a.cards.indexOf(sel) >= 0 && used.indexOf(sel) < 0;
  var mine = k.melds.length > 0;
  if (mine) row.appendChild(h("span", { cls: "tl-knock", text: "Vos combinaisons : " +
    k.melds.map(function (m) { return m.map(cardText).join(" "); }).join(" · ") }));
  var b = btn(G.word("knock") + (ok ? " " + cardText(sel) : " (choisissez une carte)") +
    (mine ? " avec mes combinaisons" : ""), "knock",
    function () { ctx.act("knock", mine ? { card: sel, melds: k.melds } : { card: sel }); });
  b.disabled = !ok;
  row.appendChild(b);
  row.appendChild(btn(mine ? "Refaire mes combinaisons" : "Choisir mes combinaisons", "knock-choose",
    function () { ctx.local.knock = { on: true, melds: [] }; ctx.unselect(); }, "small"));
}

/** Who went out and how, each count, what was paid; at Gin the sheet. */
export function story(r) {
  var box = G.story(r), sc = r.scoring || {};
  var gin = ginAccount(sc, Object.keys(r.delta || r.chips || {}));
  if (gin) box.appendChild(gin);
  if (sc.sheet && sc.sheet.points) box.appendChild(ginSheet(sc.sheet));
  return G.done(box);
}

/** Gin (issue 42 §10): how the deal's points are made, what a cocotte is,
 *  and how points and cocottes become the chips paid — « Payé 113 jetons »
 *  is 63 points + 2 cocottes × 25, at 1 jeton the point. RULES.md, Gin. */
var COCOTTE = 25, BONUS = { "petit gin": 25, "grand gin": 50 };
function n(x, one, many) { return fmt(x) + " " + (Math.abs(x) < 2 ? one : many); }
function ginAccount(sc, players) {
  if (sc.turned === undefined || !sc.ending || sc.ending === "void" || !sc.winner) return null;
  var w = sc.winner, other = players.filter(function (p) { return p !== w; })[0] || "l'adversaire";
  var f = sc.factor > 1 ? sc.factor : 1, base = sc.points / f, lines = [];
  if (sc.ending === "knock") {
    var k = sc.knocker, o = k === w ? other : w;
    var said = "Frappe de " + k + " : " + k + " garde " + n(sc.knocker_points, "point", "points") + " hors combinaisons, " +
      o + " " + n(sc.opponent_points, "point", "points") + " après ses ajouts";
    lines.push(said + (k === w ? " : " + w + " marque la différence, " + n(base, "point", "points") + "."
      : sc.tie ? " : égalité, " + w + " marque 20 points de pénalité."
        : " : " + w + " a moins, il marque la différence + 20, " + n(base, "point", "points") + "."));
  } else if (BONUS[sc.ending] !== undefined) {
    lines.push((sc.ending === "petit gin" ? "Petit gin" : "Grand gin") + " de " + w + " : les " +
      n(sc.opponent_points, "point", "points") + " restés à " + other + " + " + BONUS[sc.ending] + " = " +
      n(base, "point", "points") + ".");
  }
  var coc = sc.cocottes / f;
  lines.push(w + " gagne " + n(coc, "cocotte", "cocottes") + (sc.ending === "knock" ? " (une donne gagnée)" :
    " (" + sc.ending + ")") + ". Une cocotte marque une donne gagnée — 1 par donne, 2 au petit gin, 4 au grand gin — " +
    "et vaut " + COCOTTE + " points au compte du match.");
  if (f > 1) lines.push("La retournée est un pique : points et cocottes doublés (×" + f + "), soit " +
    n(sc.points, "point", "points") + " et " + n(sc.cocottes, "cocotte", "cocottes") + ".");
  var unit = sc.unit === undefined ? 1 : sc.unit, paid = sc.paid || {}, payer = Object.keys(paid)[0];
  var chips = payer === undefined ? 0 : paid[payer], perPoint = " × " + n(unit, "jeton", "jetons") + " le point";
  if (sc.match_change) {
    var change = Math.abs(sc.match_change[w] || 0), made = sc.points + COCOTTE * sc.cocottes, bonus = change - made;
    lines.push("Au compte du match (les colonnes, " + COCOTTE + " points par cocotte, les primes), l'écart entre " +
      players.join(" et ") + " change de " + n(change, "point", "points") + " (" + n(sc.points, "point", "points") + " + " +
      n(sc.cocottes, "cocotte", "cocottes") + " × " + COCOTTE + (bonus ? (bonus > 0 ? " + " : " − ") + fmt(Math.abs(bonus)) + " de primes" : "") + ")" +
      (payer === undefined ? " : rien n'est payé." :
        " : " + payer + " paie " + fmt(change) + perPoint + " = " + n(chips, "jeton", "jetons") + "."));
  } else if (payer !== undefined) {
    var owed = (sc.points + COCOTTE * sc.cocottes) * unit;
    lines.push(payer + " paie (" + n(sc.points, "point", "points") + " + " + n(sc.cocottes, "cocotte", "cocottes") +
      " × " + COCOTTE + ")" + perPoint + " = " + n(owed, "jeton", "jetons") +
      (chips < owed ? " ; il n'en avait que " + fmt(chips) + "." : "."));
  }
  return h("div", { cls: "tl-account tl-gin-account" }, h("h4", { text: "Les points de la donne, jeton par jeton" }),
    h("ol", {}, lines.map(function (t) { return h("li", { text: t }); })));
}

/** Gin's match sheet: three columns of points per player, cocottes. */
function ginSheet(sheet) {
  var cols = [];
  for (var c = 0; c < (sheet.ncols || 3); c++) cols.push(c);
  return h("table", { cls: "tl-sheet" },
    h("tr", {}, h("th", { text: "Feuille" }), cols.map(function (c) { return h("th", { text: "Colonne " + (c + 1) }); }),
      h("th", { text: "Cocottes", title: "Une cocotte par donne gagnée (2 au petit gin, 4 au grand gin) ; 25 points chacune au compte final" })),
    (sheet.players || []).map(function (p) {
      return h("tr", { "data-player": p }, h("th", { text: p }),
        cols.map(function (c) { return h("td", { cls: "money", text: fmt((sheet.points[p] || [])[c] || 0) }); }),
        h("td", { text: String((sheet.cocottes || {})[p] || 0) }));
    }));
}
