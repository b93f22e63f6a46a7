/* The table's feel: light animations (a card dealt, chips to the pot) and
 * an optional chime when it is the player's turn — both switchable off by
 * the player (remembered in this browser's localStorage) and animations off
 * whenever the system asks for reduced motion (prefers-reduced-motion).
 *
 * The shell (table.js) draws every frame from scratch; this module compares
 * what is drawn with what was drawn before and marks only what is new: a
 * card that was not on a seat (or in the trick, or on a pile), a bet that
 * grew, a pot that grew. The CSS animates the marks (table.css, "feel").
 *
 * Hooks for people and tests, never timing: `#table-live[data-motion]`
 * ("on"/"off"), `[data-chimes]` (chimes played so far) and a "tavern:chime"
 * event on `document` with the frame's `seq` and `to_act`, sent when the
 * chime sounds.
 */
import { h } from "./cards.js";

var MOTION_KEY = "tavern.motion", SOUND_KEY = "tavern.sound";

function kept(key, fallback) {
  try { var v = localStorage.getItem(key); return v === null ? fallback : v; } catch (e) { return fallback; }
}
function keep(key, value) {
  try { localStorage.setItem(key, value); } catch (e) { /* private mode: this page only */ }
}

/** Whether the system asks for less motion (read each time: it can change). */
function reducedMotion() {
  return !!(window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches);
}

export function Feel(root) {
  this.root = root;
  this.motionWanted = kept(MOTION_KEY, "on") !== "off";   // animations: on unless turned off
  this.soundWanted = kept(SOUND_KEY, "off") === "on";     // the chime: off unless turned on
  this.audio = null;
  this.chimes = 0;
  this.wasMyTurn = false;
  this.seen = null;     // what was drawn last: {deal, seats: {name: n}, bets: {}, pot, table: {codes}}
  root.setAttribute("data-chimes", "0");
  this.sync();
}

/** Animations run when the player wants them and the system does not object. */
Feel.prototype.motion = function () { return this.motionWanted && !reducedMotion(); };

Feel.prototype.sync = function () {
  this.root.setAttribute("data-motion", this.motion() ? "on" : "off");
};

/** The two switches, for the side panel. */
Feel.prototype.controls = function () {
  var self = this;
  var reduced = reducedMotion();
  var anim = h("input", { type: "checkbox", name: "motion", checked: this.motion(), disabled: reduced });
  anim.addEventListener("change", function () {
    self.motionWanted = anim.checked;
    keep(MOTION_KEY, anim.checked ? "on" : "off");
    self.sync();
  });
  var sound = h("input", { type: "checkbox", name: "sound", checked: this.soundWanted });
  sound.addEventListener("change", function () {
    self.soundWanted = sound.checked;
    keep(SOUND_KEY, sound.checked ? "on" : "off");
    // The box ticked is the user's gesture a browser wants before it plays sound.
    if (sound.checked) self.context();
  });
  return h("fieldset", { cls: "tl-feel" }, h("legend", { text: "Confort" }),
    h("label", { cls: "tl-check" }, anim, "Animations" +
      (reduced ? " (coupées : votre système demande moins de mouvement)" : "")),
    h("label", { cls: "tl-check" }, sound, "Son quand c'est à vous de jouer"));
};

Feel.prototype.context = function () {
  if (this.audio) { if (this.audio.state === "suspended") this.audio.resume(); return this.audio; }
  var Ctx = window.AudioContext || window.webkitAudioContext;
  if (!Ctx) return null;
  try { this.audio = new Ctx(); } catch (e) { this.audio = null; }
  return this.audio;
};

/** A soft two-note chime (Web Audio: two sine tones under a short envelope). */
Feel.prototype.chime = function (detail) {
  var ctx = this.context();
  if (!ctx) return;
  var now = ctx.currentTime;
  [[659.25, 0], [880, 0.12]].forEach(function (note) {
    var osc = ctx.createOscillator(), gain = ctx.createGain();
    osc.type = "sine";
    osc.frequency.value = note[0];
    gain.gain.setValueAtTime(0.0001, now + note[1]);
    gain.gain.exponentialRampToValueAtTime(0.15, now + note[1] + 0.02);
    gain.gain.exponentialRampToValueAtTime(0.0001, now + note[1] + 0.35);
    osc.connect(gain).connect(ctx.destination);
    osc.start(now + note[1]);
    osc.stop(now + note[1] + 0.4);
  });
  this.chimes += 1;
  this.root.setAttribute("data-chimes", String(this.chimes));
  document.dispatchEvent(new CustomEvent("tavern:chime", { detail: detail }));
};

/** Called with each frame: the chime sounds when the player's turn begins
 *  (he had nothing to do and now has), never on somebody else's turn.
 *  `detail` ({seq, to_act} of the frame) goes with the "tavern:chime" event. */
Feel.prototype.turn = function (myTurn, detail) {
  if (myTurn && !this.wasMyTurn && this.soundWanted) this.chime(detail);
  this.wasMyTurn = myTurn;
};

function amount(el) { return Number(el.getAttribute("data-amount") || el.getAttribute("data-pot") || 0); }

/** Called after each drawing of the felt: mark what is new since the last one. */
Feel.prototype.drawn = function (dealNo, felt) {
  var before = this.seen && this.seen.deal === dealNo ? this.seen : null;
  var now = { deal: dealNo, seats: {}, bets: {}, pot: 0, table: {} };
  var motion = this.motion();
  this.sync();
  // Cards on each seat: faces the seat did not hold (a sorted hand puts a
  // card drawn anywhere), else backs beyond the count it held, are dealt now.
  felt.querySelectorAll(".tl-seat[data-player]").forEach(function (seat) {
    var name = seat.getAttribute("data-player");
    var held = seat.querySelectorAll(".tl-cards .pc");
    var codes = {};
    held.forEach(function (c) { if (c.hasAttribute("data-card")) codes[c.getAttribute("data-card")] = 1; });
    now.seats[name] = { count: held.length, codes: codes };
    var had = before && before.seats[name] ? before.seats[name] : { count: 0, codes: {} };
    if (!motion) return;
    var k = 0;
    held.forEach(function (c, i) {
      var code = c.getAttribute("data-card");
      if (code ? had.codes[code] : i < had.count) return;
      c.classList.add("tl-dealt");
      c.style.animationDelay = Math.min(k++, 12) * 40 + "ms";
    });
  });
  // Cards on the table (the board, piles, the trick): new codes fly in.
  felt.querySelectorAll(".tl-center .pc.face[data-card], .tl-public .pc.face[data-card]").forEach(function (c) {
    var code = c.getAttribute("data-card");
    now.table[code] = 1;
    if (motion && before && !before.table[code]) c.classList.add("tl-dealt");
  });
  // Chips: a bet that grew slides to the middle; a pot that grew pulses.
  felt.querySelectorAll(".tl-bet[data-player]").forEach(function (b) {
    var name = b.getAttribute("data-player"), v = amount(b);
    now.bets[name] = v;
    if (motion && v > (before ? before.bets[name] || 0 : 0)) b.classList.add("tl-chips-in");
  });
  var pot = felt.querySelector(".tl-pot");
  if (pot) {
    now.pot = amount(pot);
    if (motion && before && now.pot > before.pot) pot.classList.add("tl-pot-grew");
  }
  this.seen = now;
};
