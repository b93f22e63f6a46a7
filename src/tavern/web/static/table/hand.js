/* The player's own hand on his seat: his cards large and, when the game lets
 * him pick, clickable (the picks kept in `T.S.selected`, a card the rules
 * refuse greyed); a hand of seven cards or more sorted by suit or by rank,
 * the player's choice kept in this browser. */
import { h, card, cardList, btn } from "../cards.js";
import { ctx, findLegal } from "./view.js";

export function renderMyHand(T, hand) {
  var S = T.S, game = T.game;
  var can = game.picking(ctx(T));
  var drawing = can && !!(game.discarding && game.discarding(ctx(T)));  // picked cards are the ones to change
  var faces = [];
  var order = sortOrder(), bar = null;
  if (hand.length >= 7) {  // rami hands (7 to 13 cards): sorted, and the player picks how
    // The buttons on their own line above the cards, not in the cards' row
    // (issue 33 §12: in the row they stuck out of the seat box).
    bar = h("div", { cls: "tl-sort" },
      btn("Trier par couleur", "sort-suit", function () { setSort(T, "suit"); }, "small" + (order === "suit" ? " on" : "")),
      btn("par rang", "sort-rank", function () { setSort(T, "rank"); }, "small" + (order === "rank" ? " on" : "")));
    hand = sortHand(hand, order);
  }
  var only = can ? game.playable(ctx(T)) : null;
  hand.forEach(function (c) {
    var on = S.selected.indexOf(c) >= 0;
    var ok = can && (!only || only.indexOf(c) >= 0);  // a card the rules refuse is not clickable
    faces.push(card(c, {
      button: ok, pressed: on, cls: (on ? "selected" : "") + (can && !ok ? " unplayable" : ""),
      onclick: ok ? function () { toggle(T, c); } : null
    }));
  });
  var wrap = cardList("tl-myhand" + (can ? " picking" : "") + (drawing ? " discarding" : ""), "vos cartes", faces);
  return bar ? h("div", { cls: "tl-hand-sorted" }, bar, wrap) : wrap;
}

// A hand of 10 to 13 cards in dealing order is unreadable: sorted by suit
// (then rank) unless the player asked for rank order; the choice is kept.
var RANK_ORDER = "23456789TJQKA", SUIT_ORDER = "shdc";
function sortOrder() {
  var kept = null;
  try { kept = localStorage.getItem("tavern.sort"); } catch (e) { kept = null; }
  return kept === "rank" ? "rank" : "suit";
}
function setSort(T, order) {
  try { localStorage.setItem("tavern.sort", order); } catch (e) { /* private mode: this page only */ }
  T.render();
}
function sortHand(hand, order) {
  function key(c) {
    if (c[0] === "X") return [99, 99];  // jokers last, whatever the order
    var r = RANK_ORDER.indexOf(c[0]), su = SUIT_ORDER.indexOf(c[1]);
    return order === "rank" ? [r, su] : [su, r];
  }
  return hand.slice().sort(function (a, b) {
    var ka = key(a), kb = key(b);
    return ka[0] - kb[0] || ka[1] - kb[1];
  });
}

/** A card clicked: picked or put back (within the draw's maximum). */
function toggle(T, c) {
  var S = T.S;
  T.keys.before();  // the hand is drawn again: the focus stays on the card
  var i = S.selected.indexOf(c);
  if (i >= 0) S.selected.splice(i, 1);
  else {
    var dr = findLegal(T, "draw");
    if (dr && dr.max !== undefined && S.selected.length >= dr.max) return;
    // The generic games act on one card at a time (or a whole legal set),
    // except while a Gin knocker gathers the cards of one of his melds.
    if (!T.game.multiSelect(ctx(T))) S.selected = [];
    S.selected.push(c);
  }
  S.legalKey = "";  // the buttons' labels follow the selection
  T.redrawPick(); T.tick();
  T.keys.after(false);
}
