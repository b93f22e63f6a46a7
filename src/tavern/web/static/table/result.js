/* The last deal's result panel: each player's gain or loss, the cards he
 * showed and their category (poker), the rake, then the game module's own
 * story of the result; and the result told in one line for the live region. */
import { h, add, clear, fmt, cards, CATEGORY } from "../cards.js";

export function renderResult(T) {
  var S = T.S, lr = S.msg.last_result, el = T.el.result;
  clear(el);
  if (!lr || !lr.result) return;
  var r = lr.result, names = S.hands[lr.deal] || {};
  var rows = Object.keys(r.delta || r.chips || {}).map(function (p) {
    var dl = r.delta ? r.delta[p] : null;
    var shown = r.shown && r.shown[p];
    return h("tr", { "data-player": p },
      h("th", { text: p }),
      h("td", { cls: "money " + (dl > 0 ? "won" : dl < 0 ? "lost" : ""), text: dl === null ? "" : (dl > 0 ? "+" : "") + fmt(dl) }),
      h("td", null, shown ? h("span", { cls: "tl-cards small" }, cards(shown)) : null,
        names[p] ? h("span", { cls: "tl-cat", text: " " + (CATEGORY[names[p]] || names[p]) }) : null));
  });
  add(el, [h("h3", { text: "Donne n° " + lr.deal }),
    h("table", { cls: "tl-results" }, rows),
    r.rake ? h("p", { cls: "muted", text: "Rake : " + fmt(r.rake) }) : null,
    T.game.story(r)]);
}

/** The last result told in a line: « Donne n° 3 : bob +40, ana −40. ». */
export function resultWords(lr) {
  if (!lr || !lr.result) return null;
  var r = lr.result, by = r.delta || {};
  var who = Object.keys(by).map(function (p) { return p + " " + (by[p] > 0 ? "+" : "") + fmt(by[p]); });
  return { deal: lr.deal, line: "Résultat de la donne n° " + lr.deal + (who.length ? " : " + who.join(", ") : "") + "." };
}
