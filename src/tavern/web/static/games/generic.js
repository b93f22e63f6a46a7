/* What the non-poker games share: the view's public piles drawn from any
 * card-valued key, one button per legal action, the common lines of a
 * deal's story. The family modules (rami.js, rams.js, rummoli.js) build on
 * it with their own felt, controls and result lines. */
import { h, fmt, card, cards, isCard, isCardList, cardText, btn } from "../cards.js";

/** The actions and piles in the players' words: the catalogue's (ACTIONS,
 *  PILES in src/tavern/catalogue.py), which the page carries in
 *  #table-words; an action is a button, so it starts with a capital. */
var WORDS = null;
function words() {
  if (WORDS) return WORDS;
  var el = typeof document !== "undefined" && document.getElementById("table-words");
  try { WORDS = el ? JSON.parse(el.textContent) : {}; } catch (e) { WORDS = {}; }
  return WORDS;
}
var PILES = { stock: 1, discard_pile: 1 };  // said in the middle of a button, not capitalised
export function word(w) {
  var said = words()[w];
  if (!said) return String(w);
  return PILES[w] ? said : said.charAt(0).toUpperCase() + said.slice(1);
}
/** Names of the generic views' keys and phases, in the players' words. */
export var LABELS = { discard: "défausse", top: "dessus", table: "sur la table", tricks: "plis", played: "joué",
  widow: "la fille", turned: "retournée", trump: "atout", play: "jeu", draw: "pioche", speak: "annonces",
  exchange: "échange", auction: "enchères", betting: "mises", rummoli: "rummoli", over: "donne terminée",
  sequence: "séquence", called: "demandée", cards: "cartes", poker: "poker", shown: "montrées",
  done: "donne terminée", drawn_from_discard: "prise dans la défausse" };
/** Actions whose `cards` lists the cards allowed, one of which is sent as
 * `card` (rami/francais.py, remigio.py, gin.py ACTIONS). */
export var PICK_ONE = { discard: 1, close: 1, knock: 1, gin: 1 };
export function argsOf(a) { var o = {}; if (!a) return o; for (var k in a) if (k !== "action") o[k] = a[k]; return o; }

/** A deal is over once its result is out ("over", or "done" at Rams). */
export function finished(d) { return !d || d.phase === "over" || d.phase === "done"; }

/** The middle of the felt: the phase and, while the deal is on, its pot
 *  (once the pot is shared out the felt no longer shows it). `extra(d,
 *  box, skip)` lets a family draw its own part of the strip first. */
export function felt(ctx, extra) {
  var d = ctx.deal, center = [h("div", { cls: "tl-phase", text: LABELS[d.phase] || d.phase || "" })];
  if (typeof d.pot === "number" && !finished(d)) center.push(h("div", { cls: "tl-pot money", text: "Pot : " + fmt(d.pot) }));
  return { center: center, strip: piles(d, extra) };
}

/** Public card piles of any view: every value made of card codes, labelled by its key. */
export function piles(d, extra) {
  var box = h("div", { cls: "tl-piles" });
  var skip = { hand: 1, legal: 1, legal_actions: 1, players: 1, result: 1, game: 1, phase: 1, to_act: 1 };
  function walk(v, label, depth) {
    if (isCard(v)) { box.appendChild(h("div", { cls: "tl-pile" }, h("small", { text: label }), card(v))); return; }
    if (isCardList(v)) { box.appendChild(h("div", { cls: "tl-pile" }, h("small", { text: label }), cards(v))); return; }
    if (v && typeof v === "object" && !Array.isArray(v) && isCardList(v.cards)) {  // a meld: its cards, its owner
      box.appendChild(h("div", { cls: "tl-pile" }, h("small", { text: label + (v.owner ? " · " + v.owner : "") }), cards(v.cards)));
      return;
    }
    if (depth > 2 || v === null || typeof v !== "object") return;
    if (Array.isArray(v)) { v.forEach(function (x, i) { walk(x, label + " " + (i + 1), depth + 1); }); return; }
    for (var k in v) walk(v[k], label ? label + " · " + (LABELS[k] || k) : (LABELS[k] || k), depth + 1);
  }
  if (extra) extra(d, box, skip);
  for (var k in d) if (!skip[k]) walk(d[k], LABELS[k] || k, 0);
  if (Array.isArray(d.players)) d.players.forEach(function (p) { if (p.played) walk(p.played, p.player, 1); });
  if (typeof d.stock === "number") box.appendChild(h("div", { cls: "tl-pile" }, h("small", { text: "pioche" }), h("span", { cls: "pc back" }), " " + d.stock));
  return box;
}

/** The player's own cards: the view's `hand`. */
export function hand(ctx) { return Array.isArray(ctx.deal.hand) ? ctx.deal.hand : null; }
/** The player may pick a card whenever he has something to do. */
export function picking(ctx) { return ctx.legal().length > 0; }
/** One card at a time (a Gin knocker gathering a meld excepted: rami.js). */
export function multiSelect() { return false; }

/** The trick and sequence games (Rams, Rummoli) list each card that may be
 *  played: only those are offered in the hand. Null when any card may be
 *  picked (a rami discard, a Gin knock's melds). */
export function playable(ctx) {
  var acts = ctx.legal();
  if (acts.some(function (a) { return Array.isArray(a.cards) && PICK_ONE[a.action]; })) return null;
  var per = acts.filter(function (a) { return isCard(a.card); }).map(function (a) { return a.card; });
  return per.length ? per : null;
}

/** A legal entry names what the action takes; the argument is built from it
 * and from the cards picked in the hand:
 *   {card: c}        one entry per card: send the picked one (play, lead, exchange);
 *   {cards: [..]}    for discard, close, knock, gin: the cards allowed, the picked one sent
 *                    as `card`; for any other action the list is the argument (Rummoli's runs);
 *   {sources: [..]}  one button per source (`source`);  {melds: [[..]]} one per meld (`cards`);
 *   {options: [{..}]} one per option (its own arguments);  {min, max} an amount;
 *   other plain values (choice, blind, grand) are sent as they are.
 * `opts.special(name, a, row, sel)` draws a family's own action (returns
 * true when it did); `opts.choices` names plain choices ("speak:play");
 * `opts.perCard(name, sel, hit)` names a per-card button. */
export function controls(ctx, acts, opts) {
  opts = opts || {};
  var row = h("div", { cls: "tl-buttons" });
  var sel = ctx.selected[0];
  var groups = {};
  acts.forEach(function (a) { (groups[a.action] = groups[a.action] || []).push(a); });
  Object.keys(groups).forEach(function (name) {
    var list = groups[name];
    var perCard = list.filter(function (a) { return isCard(a.card); });
    if (perCard.length) {
      var hit = perCard.filter(function (a) { return a.card === sel; })[0];
      var label = (opts.perCard && opts.perCard(name, sel, hit)) ||
        word(name) + (hit ? " " + cardText(sel) : " (choisissez une carte)");
      var b = btn(label, name, function () { ctx.act(name, argsOf(hit)); });
      b.disabled = !hit;
      row.appendChild(b);
    }
    list.forEach(function (a) {
      if (isCard(a.card)) return;
      if (opts.special && opts.special(name, a, row, sel)) return;
      if (Array.isArray(a.sources)) {
        a.sources.forEach(function (s) {
          row.appendChild(btn(word(name) + " (" + word(s === "discard" ? "discard_pile" : s) + ")", name, function () { ctx.act(name, { source: s }); }));
        });
      } else if (Array.isArray(a.melds)) {
        a.melds.forEach(function (m) {
          row.appendChild(btn(word(name) + " " + m.map(cardText).join(" "), name, function () { ctx.act(name, { cards: m }); }));
        });
      } else if (Array.isArray(a.options)) {
        a.options.forEach(function (o) {
          row.appendChild(btn(word(name) + " " + (o.cards || []).map(cardText).join(" "), name, function () { ctx.act(name, o); }));
        });
      } else if (Array.isArray(a.cards) && PICK_ONE[name]) {
        // The cards he may throw: the picked one goes as `card`.
        if (a.grand) row.appendChild(btn("Grand gin", name, function () { ctx.act(name, {}); }));  // gin.py: no card
        if (!a.cards.length) return;
        var ok = a.cards.indexOf(sel) >= 0;
        var b2 = btn(word(name) + (ok ? " " + cardText(sel) : " (choisissez une carte)"), name,
          function () { ctx.act(name, { card: sel }); });
        b2.disabled = !ok;
        row.appendChild(b2);
      } else if (isCardList(a.cards)) {
        // The cards are the argument itself (Rummoli's run to play).
        row.appendChild(btn(word(name) + " " + a.cards.map(cardText).join(" "), name, function () { ctx.act(name, { cards: a.cards }); }));
      } else if (a.min !== undefined && a.max !== undefined) {
        var n = h("input", { type: "number", min: a.min, max: a.max, value: a.min, cls: "tl-amount", "aria-label": "montant" });
        row.appendChild(h("span", { cls: "tl-sizer" }, n, btn(word(name), name, function () {
          var v = Math.max(a.min, Math.min(a.max, Math.round(Number(n.value) || a.min)));
          ctx.act(name, { amount: v });
        })));
      } else {
        var args = argsOf(a);
        var text = (opts.choices || {})[name + ":" + (args.choice || "")] ||
          word(name) + Object.keys(args).map(function (k) { return " " + word(args[k]); }).join("");
        row.appendChild(btn(text, name, function () { ctx.act(name, args); }));
      }
    });
  });
  return [row];
}

/** The lines of a deal's story every family may have: how it ended, the
 *  points left in hand, what was paid. */
var ENDINGS = { rami: "rami : tout posé d'un coup", out: "sortie", stock: "pioche épuisée",
  knock: "frappe", close: "fermeture", "petit gin": "petit gin", "grand gin": "grand gin",
  void: "donne annulée (pioche épuisée)" };
export function story(r) {
  var box = h("div", { cls: "tl-story" }), sc = r.scoring || {};
  if (sc.ending) {
    var who = sc.knocker || sc.closer || sc.winner || (sc.winners || []).join(", ");  // Remigio's closer
    box.appendChild(h("p", { cls: "tl-ending", text: "Fin de la donne : " + (ENDINGS[sc.ending] || sc.ending) +
      (who ? " — " + who : "") + (sc.factor > 1 ? " (×" + sc.factor + ")" : "") + "." }));
  }
  if (sc.points && typeof sc.points === "object") {
    box.appendChild(h("p", { cls: "tl-points", text: "Points restés en main : " + Object.keys(sc.points).map(function (p) {
      return p + " " + fmt(sc.points[p]); }).join(", ") + "." }));
  } else if (typeof sc.points === "number" && sc.ending && sc.ending !== "void") {
    box.appendChild(h("p", { cls: "tl-points", text: "Points de la donne : " + fmt(sc.points) +
      (sc.cocottes ? " et " + sc.cocottes + " cocotte" + (sc.cocottes > 1 ? "s" : "") : "") + "." }));
  }
  if (sc.paid) box.appendChild(h("p", { text: "Payé : " + Object.keys(sc.paid).map(function (p) {
    return p + " " + fmt(sc.paid[p]) + " jetons"; }).join(", ") + "." }));
  // How the deal ended in the catalogue's words (the server adds `text`):
  // a Rummoli deadlock and what each one paid into the Rummoli pot.
  (Array.isArray(r.said) ? r.said : []).forEach(function (x) {
    if (x && x.text) box.appendChild(h("p", { cls: "tl-said", "data-code": x.code, text: x.text }));
  });
  return box;
}
/** A deal's account (Rams, Rummoli; issue 42 §10): every chip that moved
 *  between the players and the pot, one sentence a line (the server's
 *  catalogue words them), then the sum a newcomer can check: what the
 *  players won and lost and what the pot kept add up to zero. `title` names
 *  the game's pot (« le pot », « le tableau »). */
export function account(acc, delta, title, potName) {
  if (!acc || !Array.isArray(acc.lines) || !acc.lines.length) return null;
  var players = Object.keys(delta || {}).reduce(function (t, p) { return t + (delta[p] || 0); }, 0);
  var kept = (acc.after || 0) - (acc.before || 0);
  var signed = function (n) { return (n > 0 ? "+" : n < 0 ? "−" : "") + fmt(Math.abs(n)); };
  return h("div", { cls: "tl-account", "data-before": acc.before, "data-after": acc.after },
    h("h4", { text: title }),
    h("ol", {}, acc.lines.map(function (l) {
      return h("li", { "data-code": l.code, "data-pot": l.pot || 0 }, l.text || l.code);
    })),
    h("p", { cls: "tl-account-sum muted", text: "Bilan : joueurs " + signed(players) + ", " + potName + " " + signed(kept) +
      " (de " + fmt(acc.before || 0) + " à " + fmt(acc.after || 0) + ") — " + (players + kept === 0 ? "le compte est juste." : "écart de " + fmt(players + kept) + ".") }));
}

/** A story box, or nothing when it says nothing. */
export function done(box) { return box.childNodes.length ? box : null; }
