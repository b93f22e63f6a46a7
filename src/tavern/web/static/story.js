/* A deal's story in words, one line per public event of the engine (the
 * server keeps them with the deal's record): the table's journal writes
 * them with the cards' faces (« D♥ »), the live region for a screen reader
 * says them with the cards' names (« dame de cœur », speech.js). */
import { fmt, cardText, SAID } from "./cards.js";

var SPEAK = { play: "joue", pass: "passe", widow: "prend la fille", thrown: "prend le jeu jeté", general: "annonce rams général" };

/** One event's line, or null for the events nobody needs told (a turn, a
 *  phase). `face` writes a card (cardText by default). */
export function storyLine(ev, face) {
  face = face || cardText;
  var who = ev.player || "", by = ev.by === "timeout" ? " (temps écoulé)" : ev.by === "auto" ? " (automatique)" : "";
  var cards = function (cs) { return (cs || []).map(face).join(face === cardText ? " " : ", "); };
  switch (ev.event) {
    case "deal": return "Donne n° " + ev.deal + " : " + (ev.players || []).join(", ") + " ; donneur " + ev.dealer + ".";
    case "draw":
      if (ev.source === "discard") return who + " prend la défausse (" + face(ev.card) + ")" + by + ".";
      if (ev.source === "stock") return who + " pioche" + by + ".";
      return who + " change " + (ev.count || 0) + " carte" + (ev.count > 1 ? "s" : "") + by + ".";
    case "gin": return who + (ev.grand ? " fait grand gin" : " fait gin et jette " + face(ev.card)) + ".";
    case "speak": return who + " " + (SPEAK[ev.choice] || ev.choice) + by + ".";
    case "exchange": return ev.took ? who + " échange avec la retournée (" + face(ev.took) + ")." : who + " garde son jeu.";
    case "trick": return "Pli n° " + ev.number + " pour " + ev.winner + ".";
    case "reshuffle": return "La défausse est rebattue : nouvelle pioche de " + ev.cards + " cartes.";
    case "turn": case "phase": case "lead_due": case "play_starts": return null;
    case "end": return "Fin de la donne" + (ev.winner ? " : " + ev.winner + " l'emporte" : "") + ".";
  }
  if (SAID[ev.event] && who) {
    var what = ev.card ? " " + face(ev.card) : ev.cards ? " " + cards(ev.cards) : "";
    var amount = ev.amount !== undefined ? " " + fmt(ev.amount) : "";
    return who + " " + SAID[ev.event] + what + amount + by + ".";
  }
  return null;
}
