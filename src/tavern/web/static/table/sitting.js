/* The side panel's seat and chips controls: sit on a free seat with a cave
 * (« Cave »), add chips between deals, « Ramasser ses gains », « Se lever »,
 * « Se rasseoir », « Poser la grosse blinde » (poker), « Quitter
 * l'entraînement »; the notes on his seat; a contest's rule instead (no cave,
 * no leaving); and the day's hands count (« Mains du jour »). */
import { h, add, clear, fmt, ecus, btn } from "../cards.js";
import { finished } from "../games/generic.js";
import { me, myName, dealPlayers, isPoker } from "./view.js";

var caveInput = null, controlsKey = "";

/** The cave box, made once; Entrée in it presses « Cave », as in a form. */
function caveBox(T) {
  if (caveInput) return caveInput;
  caveInput = h("input", { type: "number", step: 1, cls: "tl-cave-input", "aria-label": "montant de la cave" });
  caveInput.addEventListener("keydown", function (ev) {
    var go = ev.key === "Enter" && T.el.controls.querySelector("button[data-action=cave]:not([disabled])");
    if (go) { ev.preventDefault(); go.click(); }
  });
  return caveInput;
}

/** A free seat clicked: the prompt and the « Cave » button name it. */
export function chooseSeat(T, s) {
  T.S.seatChoice = s;
  T.redrawSeats();
  renderControls(T);  // the prompt and the "Cave" button name the seat clicked
  caveBox(T).focus();
}

/** Whether the cave box holds a whole amount between lo and hi. */
function caveValid(lo, hi) {
  var v = Number(caveInput.value);
  return caveInput.value !== "" && Math.round(v) === v && v >= lo && v <= hi;
}

function clampCave(T, lo, hi) {
  var v = Math.round(Number(caveInput.value));
  if (!isFinite(v) || v < lo || v > hi) {
    T.showError("La cave doit être entre " + fmt(lo) + " et " + fmt(hi) + ".");
    return null;
  }
  return v;
}

function firstFree(t) {
  var taken = {};
  t.players.forEach(function (p) { taken[p.seat] = 1; });
  for (var s = 0; s < t.seats; s++) if (!taken[s]) return s;
  return null;
}

/** No seat yet: sit on a free seat with a cave between the table's bounds. */
function sitForm(T, lo, hi) {
  var S = T.S, t = S.msg.table, el = T.el.controls;
  caveInput.min = lo; caveInput.max = hi;
  // Pre-filled with a cave the table accepts (after "Ramasser ses gains"
  // the box held the 0 left to add while seated).
  if (!caveValid(lo, hi)) caveInput.value = hi;
  var free = firstFree(t);
  var seat = S.seatChoice !== null ? S.seatChoice : free;
  add(el, [
    h("p", { text: seat === null ? "Toutes les places sont prises." :
      "Place " + (seat + 1) + " : choisissez votre cave (entre " + fmt(lo) + " et " + ecus(hi) + ")." }),
    h("div", { cls: "tl-buttons" }, caveInput,
      seat === null ? null : btn("Cave", "cave", function () {
        var v = clampCave(T, lo, hi);
        if (v !== null) T.send({ type: "sit", seat: seat, cave: v }, "sit");
      }))]);
}

export function renderControls(T) {
  var S = T.S, m = S.msg, t = m.table, y = me(T), d = m.deal, name = myName(T), el = T.el.controls, send = T.send;
  caveBox(T);
  if (t.contest) {  // no cave, no leaving, no sitting out at a contest
    clear(el);
    add(el, h("p", { cls: "muted", text: "Concours : vous gardez votre place tant qu'il vous reste des jetons ; absent, vous recevez vos cartes et vos coups sont joués (parole ou passe)." }));
    return;
  }
  // Dealt in: his seat in the poker view, his hand's size (Rams), his own hand (the rami family).
  var inDeal = !!(y && !finished(d) && (dealPlayers(T)[name] || (d.hand_sizes && d.hand_sizes[name] !== undefined) ||
    Array.isArray(d.hand)));
  var lo = t.buy_in[0], hi = t.buy_in[1];
  // A seat picked then taken by somebody else is forgotten.
  if (y || t.players.some(function (p) { return p.seat === S.seatChoice; })) S.seatChoice = null;
  var dp = dealPlayers(T)[name], stack = inDeal && dp && typeof dp.chips === "number" ? dp.chips : y && y.chips;
  var key = JSON.stringify([!!y, stack, y && y.sitting_out, y && y.owes_big_blind, y && y.post_now,
    y && y.leaving, y && y.notice, inDeal, t.players.length, S.seatChoice]);
  if (key === controlsKey) return;
  controlsKey = key;
  clear(el);
  if (!y) { sitForm(T, lo, hi); return; }
  var room = Math.max(0, hi - y.chips);
  caveInput.min = 1; caveInput.max = room;
  if (!caveValid(1, room)) caveInput.value = room;
  var cave = btn("Cave", "cave", function () {
    var v = clampCave(T, 1, room);
    // Emptied once sent: pressing "Cave" again must not add the same amount
    // again; the next drawing fills in what room is left.
    if (v !== null) { send({ type: "cave", amount: v }, "cave"); caveInput.value = ""; }
  });
  cave.disabled = inDeal || room <= 0;
  cave.title = inDeal ? "Entre deux donnes seulement" : room <= 0 ? "Cave maximale atteinte" : "";
  // A practice table: no cave (practice chips, refilled); leaving closes it.
  var row = t.practice ? h("div", { cls: "tl-buttons" },
    btn("Quitter l'entraînement", "leave", function () { send({ type: "leave" }, "leave"); }, "quiet"))
    : h("div", { cls: "tl-buttons" }, caveInput, cave,
      btn("Ramasser ses gains", "leave", function () { send({ type: "leave" }, "leave"); }, "quiet"));
  if (!y.sitting_out) {
    row.appendChild(btn("Se lever", "sit_out", function () { send({ type: "sit_out" }, "sit_out"); }, "quiet"));
  } else {
    var post = h("input", { type: "checkbox", name: "post" });
    row.appendChild(btn("Se rasseoir", "sit_in", function () { send({ type: "sit_in", post: post.checked }, "sit_in"); }));
    if (isPoker(T)) row.appendChild(h("label", { cls: "tl-check" }, post, "poser la grosse blinde maintenant"));
  }
  if (isPoker(T) && y.owes_big_blind && !y.sitting_out && !y.post_now) {
    row.appendChild(btn("Poser la grosse blinde", "post", function () { send({ type: "post" }, "post"); }));
  }
  add(el, [h("p", { cls: "tl-you" }, "Vous êtes à la place " + (y.seat + 1) + " avec ",
    h("b", { cls: "money", text: fmt(stack) + (t.practice ? " jetons d'entraînement" : " jetons") }),
    inDeal ? " devant vous." : "."), row]);
  seatNotes(y).forEach(function (n) { el.appendChild(h("p", { cls: "tl-note", text: n })); });
}

/** The notes under his seat's controls: the big blind owed, leaving, the table's word. */
function seatNotes(y) {
  var notes = [];
  if (y.owes_big_blind && !y.sitting_out) notes.push(y.post_now ? "Vous poserez la grosse blinde à la prochaine donne."
    : "Vous attendez la grosse blinde (ou posez-la pour entrer tout de suite).");
  if (y.leaving) notes.push("Vous partirez avec vos jetons à la fin de cette donne.");
  if (y.notice) notes.push(y.notice);
  return notes;
}

/** The day's hands (« Mains du jour ») and his time bank, under the controls. */
export function renderHands(T) {
  var y = me(T), hd = y && y.hands, el = T.el.hands;
  clear(el);
  if (!hd) return;
  var bank = y.time_bank ? " Réserve de temps : " + Math.round(y.time_bank) + " s." : "";
  // Practice and contest tables count no daily hand: their own sentence
  // (catalogue « hands_practice », « hands_contest »), never "undefined gratuite".
  var text = hd.practice || hd.contest ? hd.why : hd.unlimited ? "Mains du jour : illimitées (votre taverne)."
    : "Mains du jour : " + hd.free + " gratuite" + (hd.free > 1 ? "s" : "") + (hd.paid ? ", " + hd.paid + " payée" + (hd.paid > 1 ? "s" : "") : "") + ".";
  add(el, [h("span", { "data-free": hd.free, "data-paid": hd.paid, text: text + bank }),
    !hd.can_deal && hd.why ? h("span", { cls: "tl-note", text: " " + hd.why }) : null]);
}
