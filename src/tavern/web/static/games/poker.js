/* The poker games (views "holdem" and "draw_poker"): the felt's phase, board and pot, the
 * betting controls (fold, check, call, a sized bet or raise, the draw), the
 * hands' categories in the result panel. The interface every game module
 * exports is described in docs/table-ui.md. */
import { h, fmt, cards, cardList, btn } from "../cards.js";
import { word as said } from "./generic.js";  // the catalogue's words for the actions

/** The shell's poker-only parts (blinds to post, auto-actions) apply. */
export var blinds = true;

var PHASES = { bet: "Enchères", draw: "Tirage", showdown: "Abattage", over: "Donne terminée" };
var STREETS = ["Avant le flop", "Flop", "Turn", "River"];

/** The middle of the felt: phase, the board (ramponneau), the pot, who drew. */
export function felt(ctx) {
  var d = ctx.deal, t = ctx.table, out = [];
  var phase = PHASES[d.phase] || d.phase;
  if (d.phase === "bet" && t.view === "holdem") phase = STREETS[d.round] || phase;
  if (d.phase === "bet" && t.view === "draw_poker") phase = d.round ? "Second tour d'enchères" : "Premier tour d'enchères";
  out.push(h("div", { cls: "tl-phase", text: phase }));
  if (t.view === "holdem") {
    var board = cards(d.board || []);
    for (var i = (d.board || []).length; i < 5; i++) board.push(h("span", { cls: "pc slot", "aria-hidden": "true" }));
    out.push(cardList("tl-board", "cartes communes", board));
  }
  out.push(h("div", { cls: "tl-pot money", "data-pot": d.pot, text: "Pot : " + fmt(d.pot) }));
  if (d.drawn) {
    var said = Object.keys(d.drawn).map(function (p) { return p + " : " + (d.drawn[p] ? d.drawn[p] + " carte" + (d.drawn[p] > 1 ? "s" : "") : "servi"); });
    out.push(h("div", { cls: "tl-drawn", text: said.join(" · ") }));
  }
  return { center: out, strip: null };
}

/** Beside a tabled hand after an all-in before the river (deal.equity,
 *  docs/protocol.md): its share of the pot then, « 62 % », and after each
 *  street dealt since, before the river. */
export function seatNote(ctx, name) {
  var said = equityText(ctx.deal && ctx.deal.equity, name);
  if (!said) return null;
  return h("div", { cls: "tl-equity", "data-player": name, "data-equity": said.first, title: said.title },
    h("b", { text: said.head }), said.rest ? h("small", { text: said.rest }) : null);
}

var EQUITY_AT = { 0: "avant le flop", 3: "au flop", 4: "au turn" };

/** The words of a player's equity (null when the view carries none for him). */
export function equityText(equity, name) {
  if (!Array.isArray(equity) || !equity.length || !equity[0].permille || typeof equity[0].permille[name] !== "number") return null;
  var pct = function (e) { return Math.round(e.permille[name] / 10) + "\u00a0%"; };
  return {
    first: equity[0].permille[name], head: pct(equity[0]),
    rest: equity.slice(1).map(function (e) { return " → " + pct(e); }).join(""),
    title: "Chances de gagner le pot : " + equity.map(function (e) {
      return (EQUITY_AT[e.board.length] || "") + " " + pct(e);
    }).join(", "),
  };
}

/** The player's own cards: his seat's entry in the view. */
export function hand(ctx) {
  var dp = ctx.dealPlayers()[ctx.name];
  return dp && Array.isArray(dp.cards) ? dp.cards : null;
}

/** Draw poker: the cards picked during the first betting round stay picked
 * for the draw that follows it (the shell forgets picks when this changes). */
export function selectionPhase(table, phase) {
  return table.view === "draw_poker" && (phase === "bet" || phase === "draw") ? "play" : phase;
}
/** The cards picked are the ones to change (draw poker). */
export function discarding(ctx) { return ctx.table.view === "draw_poker"; }
/** Can the player pick cards of his hand now (draw poker's discards)? */
export function picking(ctx) {
  var d = ctx.deal;
  if (ctx.table.view !== "draw_poker" || !d) return false;
  if (ctx.findLegal("draw")) return true;
  // The source lets one pick before his turn to speed the game up.
  return d.phase === "bet" && !d.round && !(d.drawn && d.drawn[ctx.name] !== undefined);
}
/** Any card may be picked (the discards are several). */
export function playable() { return null; }
export function multiSelect() { return true; }

export function controls(ctx, acts) {
  var dp = ctx.dealPlayers()[ctx.name] || {}, d = ctx.deal;
  var mine = dp.bet || 0, stack = dp.chips || 0, allIn = mine + stack;
  var row = h("div", { cls: "tl-buttons" });
  var sizing = null;
  acts.forEach(function (a) {
    if (a.action === "fold") row.appendChild(btn(said("fold"), "fold", function () { ctx.act("fold"); }, "danger"));
    else if (a.action === "check") row.appendChild(btn(said("check"), "check", function () { ctx.act("check"); }));
    else if (a.action === "call") {
      var pay = a.amount - mine;
      row.appendChild(btn((a.amount >= allIn ? "Tapis — suivre " : said("call") + " ") + fmt(pay), "call", function () { ctx.act("call"); }));
    } else if (a.action === "bet" || a.action === "raise") sizing = a;
    else if (a.action === "draw") drawButtons(ctx, row, a);
    else if (a.action === "show") row.appendChild(btn(said("show"), "show", function () { ctx.act("show"); }));
    else if (a.action === "muck") row.appendChild(btn(said("muck"), "muck", function () { ctx.act("muck"); }, "quiet"));
  });
  var out = [row];
  if (sizing) out.push(betSizer(ctx, sizing, mine, allIn, d));
  return out;
}

/** Draw poker: "Changer N cartes" with the picked cards, or stand pat (the catalogue's « servi »). */
function drawButtons(ctx, row, a) {
  var k = ctx.selected.filter(function (c) { return a.cards.indexOf(c) >= 0; });
  var change = btn(k.length ? "Changer " + k.length + " carte" + (k.length > 1 ? "s" : "") : "Changer (choisissez les cartes)",
    "draw", function () { ctx.act("draw", { discard: k }); });
  change.disabled = !k.length;
  change.setAttribute("data-uses-picks", "1");  // Entrée on a picked card sends it (keys.js)
  row.appendChild(h("p", { cls: "tl-hint", text: "Cliquez sur les cartes à changer (au plus " + a.max + ")." }));
  row.appendChild(change);
  row.appendChild(btn(said("stand"), "stand-pat", function () { ctx.act("draw", { discard: [] }); }, "quiet"));
}

var amount = null;  // the bet's size, kept while the player moves the slider
/** The bet or the raise (the catalogue's words) with a slider and a number bounded by the legal min and max. */
function betSizer(ctx, a, mine, allIn, d) {
  var lo = a.min, hi = a.max;
  var word = said(a.action) + (a.action === "raise" ? " à " : " ");
  if (amount === null || amount < lo || amount > hi) amount = lo;
  var range = h("input", { type: "range", min: lo, max: hi, step: 1, value: amount, "aria-label": "montant" });
  var num = h("input", { type: "number", min: lo, max: hi, step: 1, value: amount, cls: "tl-amount", "aria-label": "montant" });
  var go = btn("", a.action, function () { ctx.act(a.action, { amount: amount }); });
  function set(v) {
    v = Math.round(Number(v));
    if (!isFinite(v)) v = lo;
    amount = Math.max(lo, Math.min(hi, v));  // clamped to the legal bounds
    range.value = amount; num.value = amount;
    go.textContent = amount === hi && hi === allIn ? "Tapis (" + fmt(hi) + ")" : word + fmt(amount);
  }
  range.addEventListener("input", function () { set(range.value); });
  num.addEventListener("change", function () { set(num.value); });
  set(amount);
  // Pot fractions: a pot-sized raise is the call plus the pot after the call.
  var high = 0;
  (d.players || []).forEach(function (p) { high = Math.max(high, p.bet || 0); });
  var potAfterCall = d.pot + (high - mine);
  function frac(f) { return function () { set(high + f * potAfterCall); }; }
  if (lo === hi) return h("div", { cls: "tl-sizer" }, go);  // a fixed limit: one amount only
  var shortcuts = h("div", { cls: "tl-fracs" },
    btn("½ pot", "half-pot", frac(0.5), "small"), btn("¾ pot", "three-quarter-pot", frac(0.75), "small"),
    btn("Pot", "pot", frac(1), "small"));
  if (hi === allIn) shortcuts.appendChild(btn("Tapis", "all-in", function () { set(hi); ctx.act(a.action, { amount: hi }); }, "small danger"));
  return h("div", { cls: "tl-sizer" }, range, num, go, shortcuts);
}

/** Poker's story is the result table itself: each hand shown and its category. */
export function story() { return null; }
