/* The seats around the oval, common to every game: each player's name,
 * stack, cards (backs, a count, or his own hand, large and clickable),
 * badges, the bet in front of him and the dealer's button; the free seats
 * (« s'asseoir », held for the waiting list); and the countdown ticking on
 * each seat's clock. The player's own seat is at the bottom. */
import { h, clear, fmt, cards } from "../cards.js";
import { finished } from "../games/generic.js";
import { seatWords, handWords } from "../speech.js";
import { me, myName, dealPlayers, myHand, ctx } from "./view.js";
import { renderMyHand } from "./hand.js";

/** A house player: a practice table's (`practice.house`) or a real table's (`house`). */
function isHouse(T, name) {
  var t = T.S.msg.table, p = t.practice;
  return !!((p && p.house && p.house.indexOf(name) >= 0) || (t.house && t.house.indexOf(name) >= 0));
}

/** A free seat: a button to sit (with no seat yet), or its state. */
function freeSeat(T, s, pos) {
  var t = T.S.msg.table, y = me(T);
  var free = h("div", { cls: "tl-seat free" + (T.S.seatChoice === s ? " chosen" : ""), "data-seat": s, style: pos, role: "listitem" });
  // Held a while for the first of the waiting list (issue 30 §3): taken from his notice, not here.
  var held = t.waiting && t.waiting.held.indexOf(s) >= 0;
  if (held) {
    free.appendChild(h("span", { cls: "muted tl-held", text: "Place " + (s + 1) + " réservée (liste d'attente)" }));
  } else if (!y) {
    free.appendChild(h("button", { type: "button", cls: "tl-sit", "data-seat": s,
      text: "Place " + (s + 1) + " — s'asseoir",
      on: { click: function () { T.chooseSeat(s); } } }));
  } else {
    free.appendChild(h("span", { cls: "muted", text: "Place " + (s + 1) + " libre" }));
  }
  return free;
}

/** What a seat shows of a player's cards: faces, backs or a count. */
function heldCards(d, dp, name) {
  if (dp) {
    if (Array.isArray(dp.cards)) return { hand: cards(dp.cards), words: handWords(dp.cards) };
    if (dp.cards === null || dp.cards === undefined) return { hand: dp.folded ? [] : cards(null, dp.card_count), words: handWords(null, dp.folded ? 0 : dp.card_count) };
    if (typeof dp.cards === "number") return { hand: cards(null, dp.cards), words: handWords(null, dp.cards) };  // rami family: a count
  } else if (d && d.hand_sizes && typeof d.hand_sizes[name] === "number") {
    return { hand: cards(null, d.hand_sizes[name]), words: handWords(null, d.hand_sizes[name]) };  // Rams: sizes by name
  }
  return { hand: null, words: "" };
}

/** Seats around the oval, the player's own at the bottom. */
export function renderSeats(T) {
  var m = T.S.msg, t = m.table, d = m.deal, y = me(T), el = T.el.seats;
  var bySeat = {};
  t.players.forEach(function (p) { bySeat[p.seat] = p; });
  var inDeal = dealPlayers(T);
  var mine = myName(T);
  var n = t.seats, pivot = y ? y.seat : 0;
  var live = d && !finished(d);
  // A deal just over whose settlement is not yet committed (table.settling):
  // the engine's stacks still, until the settled ones arrive with the result.
  var stacks = live || (d && t.settling);
  clear(el);
  for (var s = 0; s < n; s++) {
    var angle = Math.PI / 2 + (s - pivot) * 2 * Math.PI / n;  // y grows downwards: pi/2 is the bottom
    var pos = { left: (50 + 43 * Math.cos(angle)) + "%", top: (50 + 37 * Math.sin(angle)) + "%" };
    var p = bySeat[s];
    if (!p) { el.appendChild(freeSeat(T, s, pos)); continue; }
    var dp = inDeal[p.name];
    var cls = "tl-seat";
    if (p.name === mine) cls += " me";
    if (d && d.to_act && (d.to_act === p.name || (Array.isArray(d.to_act) && d.to_act.indexOf(p.name) >= 0)) && live) cls += " to-act";
    if (dp && dp.folded) cls += " folded";
    if (p.sitting_out) cls += " out";
    if (!p.connected) cls += " gone";
    // During a deal the engine's stack (chips behind the bets); once it is
    // over, the table's settled stack: a rami view keeps the deal's starting
    // chips, so the felt said 1 000 while the result said 1 018.
    var chips = stacks && dp && typeof dp.chips === "number" ? dp.chips : p.chips;
    var badges = [];
    if (dp && dp.folded) badges.push("Couché");
    if (dp && dp.all_in) badges.push("Tapis");
    if (p.sitting_out) badges.push("Levé");
    if (p.waiting) badges.push("Attend la grosse blinde");
    if (!p.connected) badges.push("Déconnecté");
    var held = heldCards(d, dp, p.name), hand = held.hand;
    if (p.name === mine) { var mh = myHand(T); if (mh) hand = [renderMyHand(T, mh)]; }  // large, clickable
    var named = seatWords(p, { mine: p.name === mine, chips: chips, cards: p.name === mine ? "" : held.words, bet: dp && dp.bet,
      badges: badges, toAct: cls.indexOf("to-act") >= 0, last: T.speech.last[p.name] });
    var seat = h("div", { cls: cls, "data-seat": s, "data-player": p.name, style: pos, role: "listitem", "aria-label": named },
      t.button_seat === s ? h("span", { cls: "tl-button", title: "Donneur (bouton)", text: "D" }) : null,
      h("div", { cls: "tl-name" }, h("b", { text: p.name }), p.name === mine ? h("small", { text: " (vous)" })
        : isHouse(T, p.name) ? h("small", { cls: "tl-house", text: " (maison)" }) : null),
      h("div", { cls: "tl-stack money", "data-chips": chips, text: fmt(chips) + " jetons" }),
      hand && hand.length ? h("div", { cls: "tl-cards" }, hand) : null,
      T.game.seatNote ? T.game.seatNote(ctx(T), p.name) : null,  // a game's word beside a hand (hold'em: its equity)
      badges.length ? h("div", { cls: "tl-badges" }, badges.map(function (b) { return h("span", { cls: "badge", text: b }); })) : null,
      h("div", { cls: "tl-clock", "data-name": p.name }));
    el.appendChild(seat);
    // The bet in front of the seat, and the dealer's button.
    var inner = { left: (50 + 27 * Math.cos(angle)) + "%", top: (50 + 21 * Math.sin(angle)) + "%" };
    if (dp && dp.bet) el.appendChild(h("div", { cls: "tl-bet money", "aria-hidden": "true", "data-player": p.name, "data-amount": dp.bet, style: inner, text: fmt(dp.bet) }));
  }
}

/** The countdown on each seat's clock, from the frame's `table.clock`. */
export function tickClocks(T) {
  var S = T.S;
  var clock = S.msg.table.clock || {}, timer = S.msg.table.timer || 30;
  var gone = (performance.now() - S.at) / 1000;
  var els = T.el.seats.querySelectorAll(".tl-clock");
  for (var i = 0; i < els.length; i++) {
    var el = els[i], name = el.getAttribute("data-name");
    if (clock[name] === undefined) { el.textContent = ""; el.removeAttribute("style"); continue; }
    var left = Math.max(0, clock[name] - gone);
    el.textContent = Math.ceil(left) + " s";
    el.style.setProperty("--left", Math.min(1, left / timer));
    el.classList.toggle("hurry", left < 5);
  }
}
