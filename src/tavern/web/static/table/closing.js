/* The table's ends and a contest's words: the « closed » frame (the owner
 * closed the table: what each player was paid; a practice table left), a
 * table served already closed, the contest's line over the felt (level,
 * blinds, its clock) and the « contest » frames (moved to another table,
 * knocked out, won). */
import { h, add, clear, fmt, ecus } from "../cards.js";

var METHODS = { cut: "à la plus haute carte coupée", poker: "à la meilleure main de poker", equal: "à parts égales" };

/** The owner closed the table: say so, show what each player was paid,
 *  and stop (the shell no longer reconnects). A practice table closes when
 *  its player leaves it: that is what it says. */
export function showClosed(T, m) {
  var el = T.el;
  T.root.setAttribute("data-closed", "1");
  clear(el.controls); clear(el.actions); clear(el.seats);  // nobody sits at a closed table
  clear(el.center);
  if (m.practice) {
    T.setStatus("Entraînement terminé", "ko");
    add(el.center, h("p", { cls: "tl-wait", text: "Vous avez quitté votre table d'entraînement." }));
    add(el.controls, [h("div", { cls: "tl-closed" },
      h("p", { cls: "tl-note", text: "Les jetons d'entraînement ne valent aucun écu : rien n'est rendu, rien n'est perdu." }),
      h("p", {}, h("a", { href: "/entrainement", text: "S'entraîner encore" }), " · ",
        h("a", { href: "/", text: "Retour au village" })))]);
    return;
  }
  T.setStatus("Table fermée", "ko");
  add(el.center, h("p", { cls: "tl-wait", text: "Table fermée par le patron." }));
  var lines = Object.keys(m.ecus || {}).sort().map(function (name) {
    var won = (m.awards || {})[name];
    return h("li", { "data-player": name }, name + " : " + ecus(m.ecus[name]) +
      (won ? " (dont " + fmt(won) + " jetons du pot partagé" + (m.method ? ", " + (METHODS[m.method] || m.method) : "") + ")" : ""));
  });
  add(el.controls, [h("div", { cls: "tl-closed" },
    h("p", { cls: "tl-note", text: "Le patron a fermé cette table : chacun a ramassé ses gains." }),
    lines.length ? h("p", { text: "Rendu à chacun :" }) : null,
    lines.length ? h("ul", {}, lines) : null,
    h("p", {}, h("a", { href: "/", text: "Retour au village" })))]);
}

/** A table the server served already closed: nothing to connect to. */
export function servedClosed(T) {
  T.setStatus("Table fermée", "ko");
  add(T.el.controls, h("p", { cls: "tl-note" }, "Cette table est fermée. ", h("a", { href: "/", text: "Retour au village" })));
}

/** A contest's word to this player: moved to another table (the page
 *  follows him there), knocked out with his place, or the winner. */
export function onContest(T, m) {
  var link = "/concours/" + m.contest_id;
  if (m.event === "moved") {
    T.showNotice("Changement de table : vous êtes attendu à la table " + m.to_table + ".");
    setTimeout(function () { location.href = "/tables/" + m.to_table; }, 1500);
  } else if (m.event === "out") {
    T.showNotice("Vous n'avez plus de jetons : vous terminez " + m.place + "e. Le classement est sur la page du concours.");
    T.el.contest.appendChild(h("a", { href: link, id: "contest-link", text: " Voir le classement" }));
  } else if (m.event === "won") {
    T.showNotice("Vous remportez le concours !");
    T.el.contest.appendChild(h("a", { href: link, id: "contest-link", text: " Voir le classement et les prix" }));
  }
}

/** A contest table: the level, its blinds and the contest's clock. */
export function renderContest(T) {
  var S = T.S, c = S.msg.table.contest, el = T.el.contest;
  el.hidden = !c;
  if (!c) return;
  var left = c.seconds_left === null ? null : Math.max(0, c.seconds_left - (performance.now() - S.at) / 1000);
  var text = "Concours — niveau " + c.level + " : blindes " + fmt(c.small_blind) + "/" + fmt(c.big_blind) +
    (c.ante ? ", ante " + fmt(c.ante) : "") + " · " +
    (left === null ? "dernier niveau" : "niveau suivant dans " + Math.floor(left / 60) + " min " +
      Math.floor(left % 60) + " s") + " · " + c.players_left + " joueurs restants";
  var span = el.querySelector(".tl-contest-clock");
  if (!span) { span = h("span", { cls: "tl-contest-clock" }); el.insertBefore(span, el.firstChild); }
  span.textContent = text;
}
