/* The action bar: « À vous de jouer » and the game module's controls for
 * the player's legal moves (or whose turn it is), redrawn only when they
 * change (a bet slider stays where he left it); his moves in words for the
 * live region; and the poker games' automatic actions (« Parole/Se
 * coucher »…), offered while he is in a betting round. */
import { h, add, clear } from "../cards.js";
import { finished } from "../games/generic.js";
import { label } from "../speech.js";
import { me, myName, dealPlayers, isPoker, legal, ctx } from "./view.js";

export function renderActions(T) {
  var S = T.S, el = T.el.actions;
  var key = JSON.stringify(legal(T)) + "|" + S.selected.join(",") + "|" + S.msg.seq;
  if (key === S.legalKey) return;  // keep the slider where the player left it
  S.legalKey = key;
  clear(el);
  var acts = legal(T);
  if (!acts.length) {
    var d = S.msg.deal, who = d && d.to_act;
    if (Array.isArray(who)) who = who.join(", ");
    if (!finished(d) && who) el.appendChild(h("p", { cls: "muted", text: "À " + who + " de parler." }));
    return;
  }
  el.appendChild(h("p", { cls: "tl-yourturn", text: "À vous de jouer." }));
  add(el, T.game.controls(ctx(T), acts));
}

/** His moves now, as his buttons name them (the live region tells them). */
var SHORTCUTS = { "half-pot": 1, "three-quarter-pot": 1, pot: 1, "all-in": 1 };
export function moves(T) {
  return Array.prototype.filter.call(T.el.actions.querySelectorAll("button.tl-act"), function (b) {
    return !SHORTCUTS[b.getAttribute("data-action")];
  }).map(function (b) { var t = label(b); return t.charAt(0).toLowerCase() + t.slice(1); });
}

var AUTOS = [["check_fold", "Parole/Se coucher"], ["check", "Parole"], ["call_any", "Suivre tout"], ["fold_any", "Se coucher à toute mise"]];
var autoKey = "";
export function renderAuto(T) {
  var y = me(T), d = T.S.msg.deal, name = myName(T), el = T.el.auto;
  var show = y && isPoker(T) && !y.sitting_out && d && d.phase === "bet" && dealPlayers(T)[name] && !dealPlayers(T)[name].folded;
  var key = show ? String(y.auto) : "";
  if (key === autoKey && el.childNodes.length === (show ? 1 : 0)) return;
  autoKey = key;
  clear(el);
  if (!show) return;
  var box = h("fieldset", { cls: "tl-autos" }, h("legend", { text: "Actions automatiques" }));
  AUTOS.forEach(function (a) {
    var cb = h("input", { type: "checkbox", name: "auto", value: a[0], checked: y.auto === a[0] });
    cb.addEventListener("change", function () { T.send({ type: "auto", auto: cb.checked ? a[0] : null }, "auto"); });
    box.appendChild(h("label", { cls: "tl-check" }, cb, a[1]));
  });
  el.appendChild(box);
}
