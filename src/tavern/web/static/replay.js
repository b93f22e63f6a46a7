// « Mes donnes »: one archived deal replayed step by step, as the player saw
// it. The server sends each step as he saw it (GET /api/me/deals/{id}: the
// move, another's hidden cards only counted, and his own view): the page
// never holds a card he could not see at that moment.

import { SAID, SUITS, card, cardText, cardName, isCard } from "./cards.js";
import { equityText } from "./games/poker.js";  // the table's own words for a hand's equity

const root = document.getElementById("replayer");
/** The deal's players of the house: « (maison) » beside their names. */
const HOUSE = JSON.parse(root.dataset.house || "[]");

function el(tag, attrs = {}, ...kids) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  for (const k of kids.flat()) if (k !== null && k !== undefined) e.append(k);
  return e;
}

function faces(cards) {
  return el("span", { class: "tl-cards" }, cards.map((c) => card(c)));  // the table's own card faces
}

/** A move in words; `face` writes a card (its face « D♥ », or its name for a reader). */
function moveText(a, face = cardText) {
  if (!a) return "Les cartes sont distribuées.";
  if (typeof a.hidden === "number") {  // another's move: the server counts the cards the table hid, never names them
    const n = a.hidden === 1 ? "une carte" : `${a.hidden} cartes`;
    if (a.action === "draw") return a.hidden ? `${a.player} change ${n}.` : `${a.player} garde ses cartes.`;
    if (a.action === "exchange") return `${a.player} échange ${n} contre la retournée.`;
    return `${a.player} ${SAID[a.action] || a.action} ${n} face cachée.`;
  }
  if (a.action === "draw" && Array.isArray(a.discard)) {  // his own draw at draw poker: the cards he threw
    return a.discard.length ? `${a.player} change ${a.discard.map(face).join(" ")}.` : `${a.player} garde ses cartes.`;
  }
  const args = Object.entries(a).filter(([k]) => k !== "player" && k !== "action")
    .map(([, v]) => (isCard(v) ? face(v) : Array.isArray(v) && v.every(isCard) ? v.map(face).join(face === cardText ? " " : ", ")
      : typeof v === "object" ? "" : String(v))).filter(Boolean).join(" ");
  return `${a.player} ${SAID[a.action] || a.action}${args ? " " + args : ""}.`;
}

/** The view: each player's stack and cards (his own face up, the others'
 *  only once shown), then every public pile of card codes. */
function viewOf(v) {
  const box = el("div", { class: "rp-view" });
  for (const p of v.players || []) {
    const cards = Array.isArray(p.cards) ? p.cards : Array.isArray(p.hand) ? p.hand : null;
    const count = p.card_count ?? p.cards ?? null;
    box.append(el("p", { class: "rp-player", "data-player": p.player },
      el("b", {}, p.player), HOUSE.includes(p.player) ? el("small", { class: "tl-house" }, " (maison)") : null,
      ` · ${p.chips ?? ""} jetons `,
      cards && cards.every(isCard) ? faces(cards) : typeof count === "number" ? `(${count} cartes cachées)` : "",
      p.folded ? " — couché" : "", equityOf(v.equity, p.player)));
  }
  if (Array.isArray(v.hand) && v.hand.every(isCard)) box.append(el("p", { class: "rp-hand" }, "Votre main : ", faces(v.hand)));
  for (const [k, val] of Object.entries(v)) {
    if (k === "hand" || k === "players" || k === "legal") continue;
    if (Array.isArray(val) && val.length && val.every(isCard)) box.append(el("p", { class: "rp-pile" }, `${k} : `, faces(val)));
  }
  if (v.pot !== undefined) box.append(el("p", { class: "rp-pot" }, `Pot : ${v.pot}`));
  // A trick game's trump, once known (Rams: the turned card's suit).
  if (SUITS[v.trump]) box.append(el("p", { class: "rp-trump", "data-trump": v.trump }, `Atout : ${SUITS[v.trump]}`));
  return box;
}

/** A tabled hand's equity at the all-in step (hold'em), as the table shows it. */
function equityOf(equity, name) {
  const said = equityText(equity, name);
  if (!said) return null;
  return el("span", { class: "rp-equity", "data-player": name, "data-equity": String(said.first), title: said.title },
    ` — ${said.head}${said.rest}`);
}

async function start() {
  const id = root.dataset.dealId;
  const r = await fetch(`/api/me/deals/${id}`, { credentials: "same-origin" });
  if (!r.ok) { root.textContent = "Cette donne n'est pas à vous."; return; }
  const steps = await r.json();
  let at = 0, timer = null;
  const counter = el("span", { id: "rp-step" });
  // Each step told to a screen reader as it is shown, the cards by name (issue 40 §3).
  const said = el("p", { id: "rp-move", class: "tl-note", "aria-live": "polite" });
  const stage = el("div", { id: "rp-stage" });
  const prev = el("button", { type: "button", id: "rp-prev" }, "◀ Précédent");
  const next = el("button", { type: "button", id: "rp-next" }, "Suivant ▶");
  const play = el("button", { type: "button", id: "rp-play" }, "Lecture");
  const show = () => {
    counter.textContent = `Étape ${at + 1} / ${steps.length}`;
    said.replaceChildren(el("span", { "aria-hidden": "true" }, moveText(steps[at].action)),
      el("span", { class: "sr-only" }, moveText(steps[at].action, cardName)));
    stage.replaceChildren(viewOf(steps[at].view));
    prev.disabled = at === 0;
    next.disabled = at === steps.length - 1;
    root.dataset.step = String(at);
  };
  prev.addEventListener("click", () => { if (at > 0) { at -= 1; show(); } });
  next.addEventListener("click", () => { if (at < steps.length - 1) { at += 1; show(); } });
  play.addEventListener("click", () => {
    if (timer) { clearInterval(timer); timer = null; play.textContent = "Lecture"; return; }
    play.textContent = "Pause";
    timer = setInterval(() => {
      if (at >= steps.length - 1) { clearInterval(timer); timer = null; play.textContent = "Lecture"; return; }
      at += 1; show();
    }, 900);
  });
  root.replaceChildren(el("p", {}, prev, " ", play, " ", next, " ", counter), said, stage);
  show();
}

if (root) start();
