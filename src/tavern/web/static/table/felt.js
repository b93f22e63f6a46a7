/* The felt's centre, common to every game: the table's name and stakes, the
 * waiting line between deals, the game module's felt (board, pot, piles…),
 * the journal's last two lines; and the strip under the felt where a game
 * lays its many public cards (Rummoli's board, melds). The journal itself
 * (« Journal de la donne ») is drawn here too, one line per public event. */
import { h, add, clear } from "../cards.js";
import { storyLine } from "../story.js";
import { ctx } from "./view.js";

function stakesText(t) {
  var s = t.stakes || {};
  if (s.small_blind !== undefined && s.big_blind !== undefined) return "blindes " + s.small_blind + "/" + s.big_blind;
  if (s.small_bet !== undefined) return "petite mise " + s.small_bet;
  if (s.unit !== undefined) return "unité " + s.unit;
  return "";
}

export function renderCenter(T) {
  var m = T.S.msg, d = m.deal, t = m.table, center = T.el.center, strip = T.el.public;
  clear(center);
  // The other games' public cards can be many (Rummoli's board, melds):
  // they go on a strip under the felt, not over the seats.
  clear(strip);
  strip.hidden = true;
  add(center, h("div", { cls: "tl-title" }, h("b", { text: t.name }), " · ", stakesText(t)));
  if (!d) {
    add(center, h("p", { cls: "tl-wait", text: t.players.length < 2 ? "En attente de joueurs…" : "La donne va commencer…" }));
    return;
  }
  var f = T.game.felt(ctx(T));
  add(center, f.center);
  // The last two lines of the journal on the felt, in view with the cards (the journal is below).
  var last = T.S.story.map(function (ev) { return storyLine(ev); }).filter(Boolean).slice(-2);
  if (last.length) add(center, h("ol", { cls: "tl-last", "aria-hidden": "true" }, last.map(function (l) { return h("li", { text: l }); })));
  if (f.strip) { strip.appendChild(f.strip); strip.hidden = false; }
}

/** The deal's story, from the engine's public events (the server keeps
 *  them with the deal's record): one line per event, in the games' words. */
var storyKey = "";
export function renderStory(T, events) {
  var el = T.el.story;
  var key = events.length + ":" + JSON.stringify(events[events.length - 1] || null);
  if (key === storyKey) return;
  storyKey = key;
  clear(el);
  events.forEach(function (ev) {
    var line = storyLine(ev);
    if (line) el.appendChild(h("li", { "data-event": ev.event, text: line }));
  });
  el.scrollTop = el.scrollHeight;
}
