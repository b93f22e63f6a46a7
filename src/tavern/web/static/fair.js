// « Donne vérifiable »: the player's own seed and the page's own check of a
// finished deal's deck (docs/fairness.md, scheme tavern-fair-1). Everything
// is computed here with Web Crypto, without asking the server anything: the
// scheme must stay byte for byte the one of src/tavern/fair.py. At a deal's
// end a player receives the openings of the cards he saw (fair_cards.js), the
// seed only in « Mes donnes », TAVERN_FAIR_REVEAL_DAYS later.

import { CARDS_SCHEME, checkOpenings } from "./fair_cards.js";

const SCHEME = "tavern-fair-1";
const SUITS = "cdhs";
const RANKS = "23456789TJQKA";
const LIMIT = 2 ** 32;
const SEED_OK = /^[A-Za-z0-9_-]{0,64}$/;
const enc = new TextEncoder();

export function canonicalKey(card) {
  if (card[0] === "X") return 1000 + parseInt(card.slice(1), 10);
  return SUITS.indexOf(card[1]) * 13 + RANKS.indexOf(card[0]);
}

export function canonical(cards) {
  return [...cards].sort((a, b) => canonicalKey(a) - canonicalKey(b));
}

/** Cards in canonical order: ``decks`` packs of 52 (32 with ``short``: A K Q
 * J T 9 8 7), then ``jokers`` distinct jokers — as cards.deck() in Python. */
function deck({ decks = 1, jokers = 0, short = false } = {}) {
  const ranks = short ? "789TJQKA" : RANKS;
  const one = [];
  for (const s of SUITS) for (const r of ranks) one.push(r + s);
  const out = [];
  for (let k = 0; k < decks; k++) out.push(...one);
  for (let i = 1; i <= jokers; i++) out.push(`X${i}`);
  return out;
}

/** Remigio's 54-card decks: "trois jeux pour six à huit joueurs, quatre pour neuf à douze". */
function remigioDecks(players, twoDecks) {
  if (!(players >= 2 && players <= 12)) throw new Error("le Remigio se joue de 2 à 12 joueurs");
  if (players <= 5) return twoDecks ? 2 : 1;
  return players <= 8 ? 3 : 4;
}

/** The packs a table of ``game`` shuffles when a deal starts, in order, for
 * its config and number of players: each shuffle starts from them, never
 * from the revealed cards. Mirrors fair.table_packs (the games' own
 * deck_composition / deck_packs); tests/browser/test_fair.py compares them. */
export function tablePacks(game, config, players) {
  const c = config || {};
  switch (game) {
    case "ramponneau": case "draw": case "rummoli": return [deck()];
    case "rams": return [deck({ short: true })];
    case "gin": return [deck(), deck()];  // the playing deck, then the deck lying aside
    case "rami": return [deck({ jokers: c.joker === true ? 1 : 0 })];
    case "double_rami": return [deck({ decks: 2, jokers: 2 })];
    case "remigio": {
      const n = remigioDecks(players, c.two_decks === true);
      return [deck({ decks: n, jokers: 2 * n })];  // each 54-card deck brings its two jokers
    }
    default: throw new Error(`jeu inconnu « ${game} » : impossible de savoir de quel paquet la donne part`);
  }
}

/** The cards of ``a`` that ``b`` lacks, each as often as it is missing. */
function beyond(a, b) {
  const left = new Map();
  for (const c of b) left.set(c, (left.get(c) || 0) + 1);
  const out = [];
  for (const c of a) {
    const k = left.get(c) || 0;
    if (k > 0) left.set(c, k - 1); else out.push(c);
  }
  return out;
}

const FACES = { T: "10", J: "V", Q: "D", K: "R" };
const SYMBOLS = { c: "♣", d: "♦", h: "♥", s: "♠" };
/** Cards said as the catalogue says them: 10♦, D♥, Joker; « aucune » for none. */
function said(cards) {
  if (!cards.length) return "aucune";
  return cards.map((c) => (typeof c === "string" && c[0] === "X" ? "Joker"
    : typeof c === "string" && c.length === 2 && SYMBOLS[c[1]] ? (FACES[c[0]] || c[0]) + SYMBOLS[c[1]]
    : String(c))).join(", ");
}

function hexToBytes(hex) {
  if (!/^([0-9a-f]{2})*$/i.test(hex)) throw new Error("graine illisible");
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(hex.substr(2 * i, 2), 16);
  return out;
}

function toHex(buf) {
  return Array.from(new Uint8Array(buf), (b) => b.toString(16).padStart(2, "0")).join("");
}

export async function commitment(seedHex) {
  return toHex(await crypto.subtle.digest("SHA-256", hexToBytes(seedHex)));
}

/** The deal's stream: HMAC-SHA256 blocks read as 32-bit big-endian words. */
export class Stream {
  constructor(key, table, deal, seeds) {
    this.key = key;
    this.suffix = `|${SCHEME}|${table}|${deal}|${seeds.length}|` + seeds.join("|");
    this.block = 0;
    this.words = [];
  }

  static async open(seedHex, table, deal, seeds) {
    const key = await crypto.subtle.importKey("raw", hexToBytes(seedHex), { name: "HMAC", hash: "SHA-256" },
                                              false, ["sign"]);
    return new Stream(key, table, deal, seeds);
  }

  async word() {
    if (!this.words.length) {
      const mac = await crypto.subtle.sign("HMAC", this.key, enc.encode(`${this.block}${this.suffix}`));
      this.block += 1;
      const view = new DataView(mac);
      for (let i = 0; i < 32; i += 4) this.words.push(view.getUint32(i, false));
    }
    return this.words.shift();
  }

  /** An integer below n, without modulo bias (rejection of the top values). */
  async below(n) {
    const keep = LIMIT - (LIMIT % n);
    for (;;) {
      const v = await this.word();
      if (v < keep) return v % n;
    }
  }

  async shuffle(cards) {
    const out = canonical(cards);
    for (let i = out.length - 1; i > 0; i--) {
      const j = await this.below(i + 1);
      [out[i], out[j]] = [out[j], out[i]];
    }
    return out;
  }
}

/** The deal's shuffles in order: the deck cut by the sizes, then each rebuilt stock. */
function outputs(fair) {
  const out = [];
  let at = 0;
  for (const size of fair.shuffles) {
    if (at < fair.deck.length) { out.push(fair.deck.slice(at, at + size)); at += size; }
  }
  if (at !== fair.deck.length) throw new Error("les mélanges annoncés ne couvrent pas le paquet");
  const rest = fair.shuffles.slice(out.length);
  if (rest.length !== (fair.reshuffles || []).length) throw new Error("remélanges manquants");
  return out.concat(fair.reshuffles || []);
}

/** A player's reveal at the deal's end: the openings of the cards he saw,
 * checked against the per-card digests this page was shown before the deal
 * (``digests``: commitment → digests); the reveal's own, said so, when the
 * page was not open then. */
async function verifyOpenings(fair, seen, digests) {
  if (fair.cards_scheme !== CARDS_SCHEME) return { ok: false, lines: [`Schéma inconnu : ${fair.cards_scheme}`] };
  const lines = [];
  const before = digests && digests.get(fair.commitment);
  if ((seen && seen.has(fair.commitment)) || before) lines.push("Cet engagement était affiché ici avant la donne.");
  if (!before) {
    lines.push("Cette page n'a pas vu les empreintes des cartes avant la donne : elle vérifie celles de la révélation, " +
               "à comparer avec celles que vous avez notées.");
  }
  const { ok, lines: more } = await checkOpenings(fair, before || fair.cards || [], fair.commitment,
                                                  (c) => said([c]));
  return { ok, lines: lines.concat(more) };
}

/** Check a revealed deal; ``seen``: the commitments this page saw before
 * deals; ``digests``: the per-card digests it saw, by commitment. Without
 * the server seed (a deal just ended), its openings; with it, the deck. */
export async function verify(fair, seen, digests) {
  if (!("server_seed" in fair) && "openings" in fair) return verifyOpenings(fair, seen, digests);
  const lines = [];
  if (fair.scheme !== SCHEME) return { ok: false, lines: [`Schéma inconnu : ${fair.scheme}`] };
  try {
    if (await commitment(fair.server_seed) !== fair.commitment) {
      return { ok: false, lines: ["La graine révélée ne correspond pas à l'engagement."] };
    }
    lines.push(`Graine du serveur conforme à l'engagement ${fair.commitment.slice(0, 16)}…`);
    if (seen && seen.has(fair.commitment)) lines.push("Cet engagement était affiché ici avant la donne.");
    const seeds = fair.client_seeds.map((c) => c.seed);
    // Each first shuffle starts from the game's own packs, a rebuilt stock
    // from cards those packs hold: a card twice, a joker the game has not,
    // a card too few are refused even when they are a shuffle of the seeds.
    const packs = tablePacks(fair.game, fair.config, seeds.length);
    const sizes = packs.map((p) => p.length);
    const total = sizes.reduce((a, b) => a + b, 0);
    if (fair.shuffles.slice(0, packs.length).join() !== sizes.join() || fair.deck.length !== total) {
      // a card too many or too few, or the packs cut another way: not how this table deals
      return { ok: false, lines: lines.concat(`Une donne de ce jeu à cette table mélange des paquets de ${sizes.join(", ")} ` +
                                              `cartes ; le relevé annonce des mélanges de ` +
                                              `${fair.shuffles.slice(0, packs.length).join(", ")} cartes pour un paquet de ` +
                                              `${fair.deck.length} cartes.`) };
    }
    const parts = outputs(fair);
    const every = packs.flat();
    const stream = await Stream.open(fair.server_seed, fair.table, fair.deal, seeds);
    let k = 0;
    for (const shuffled of parts) {
      k += 1;
      let start = shuffled;
      if (k <= packs.length) {
        start = packs[k - 1];
        const missing = beyond(start, shuffled), extra = beyond(shuffled, start);
        if (missing.length || extra.length) {
          return { ok: false, lines: lines.concat(`Le paquet du mélange n° ${k} n'est pas celui de cette table (manquent : ` +
                                                  `${said(missing)} ; en trop : ${said(extra)}) : aucune graine ne peut le donner.`) };
        }
      } else {
        const extra = beyond(shuffled, every);
        if (extra.length) {
          return { ok: false, lines: lines.concat(`Le remélange (mélange n° ${k}) contient des cartes que le paquet de ` +
                                                  `cette table n'a pas : ${said(extra)}.`) };
        }
      }
      const again = await stream.shuffle(start);
      if (again.join() !== shuffled.join()) {
        return { ok: false, lines: lines.concat(`Le mélange n° ${k} ne découle pas des graines.`) };
      }
      lines.push(`Mélange n° ${k} : ${shuffled.length} cartes, identiques à celles tirées des graines.`);
    }
  } catch (err) {
    return { ok: false, lines: lines.concat(`Vérification impossible : ${err.message}`) };
  }
  return { ok: true, lines };
}

/** The player's seed: 32 random hex digits by default, kept in this browser. */
function mySeed() {
  let seed = localStorage.getItem("tavern.clientSeed");
  if (seed === null || !SEED_OK.test(seed)) {
    seed = toHex(crypto.getRandomValues(new Uint8Array(16)));
    localStorage.setItem("tavern.clientSeed", seed);
  }
  return seed;
}

function panel(root) {
  const el = (tag, attrs = {}, text = "") => {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
    if (text) e.textContent = text;
    return e;
  };
  root.replaceChildren();
  const sum = el("summary", {}, "Donne vérifiable");
  const next = el("p", { id: "fair-next" }, "Engagement de la prochaine donne : …");
  const cards = el("p", { id: "fair-cards", class: "muted" }, "");
  const form = el("form", { id: "fair-seed-form" });
  const input = el("input", { id: "fair-seed", name: "seed", maxlength: "64", pattern: "[A-Za-z0-9_-]*",
                              size: "34", "aria-label": "Votre graine" });
  form.append(el("label", { for: "fair-seed" }, "Votre graine : "), input, el("button", { type: "submit" }, "Changer"));
  const check = el("button", { id: "fair-check", type: "button", disabled: "" }, "Vérifier la donne");
  const out = el("div", { id: "fair-result", "aria-live": "polite" });
  const help = el("p", { class: "muted" },
    "Le paquet de chaque donne découle de la graine du serveur, annoncée par son empreinte avant la donne, " +
    "et des graines des joueurs ; chaque carte est engagée à part avant la donne. Après la donne, cette page vérifie " +
    "les cartes que vous avez vues ; la graine, qui donne tout le paquet, vient plus tard dans « Mes donnes ».");
  const box = el("details", { class: "fair" });
  box.append(sum, next, cards, form, check, out, help);
  root.append(box);
  return { next, cards, form, input, check, out };
}

export function start(root) {
  const ui = panel(root);
  const seen = new Set();   // commitments shown before their deal
  const digests = new Map();  // a running deal's per-card digests, by its commitment
  let revealed = null;
  let mustSend = true;      // (again) after each (re)connection
  ui.input.value = mySeed();
  const sendSeed = () => document.dispatchEvent(new CustomEvent("tavern:send",
    { detail: { type: "client_seed", seed: localStorage.getItem("tavern.clientSeed") || "" } }));

  ui.form.addEventListener("submit", (ev) => {
    ev.preventDefault();
    const seed = ui.input.value.trim();
    if (!SEED_OK.test(seed)) {
      ui.out.textContent = "Une graine tient en 64 caractères au plus : lettres, chiffres, _ et -.";
      return;
    }
    localStorage.setItem("tavern.clientSeed", seed);
    sendSeed();
    ui.out.textContent = "Graine enregistrée : elle entrera dans vos prochaines donnes.";
  });
  ui.check.addEventListener("click", async () => {
    if (!revealed) return;
    ui.out.textContent = "Vérification…";
    const { ok, lines } = await verify(revealed, seen, digests);
    ui.out.replaceChildren();
    const head = document.createElement("p");
    head.className = ok ? "fair-ok" : "fair-ko";
    const what = revealed.openings ? "les cartes que vous avez vues sont celles engagées avant la donne"
                                   : "le paquet découle des graines";
    head.textContent = ok ? `Donne n° ${revealed.deal} vérifiée : ${what}.`
                          : `Donne n° ${revealed.deal} : la vérification échoue.`;
    const list = document.createElement("ul");
    for (const line of lines) {
      const li = document.createElement("li");
      li.textContent = line;
      list.append(li);
    }
    ui.out.append(head, list);
    ui.out.dataset.ok = ok ? "1" : "0";
  });

  document.addEventListener("tavern:open", () => { mustSend = true; });
  document.addEventListener("tavern:state", (ev) => {
    const m = ev.detail;
    const f = (m.table && m.table.fair) || {};
    if (f.next) {
      seen.add(f.next);
      ui.next.textContent = `Engagement de la prochaine donne : ${f.next}`;
    }
    // A deal's digests only grow (a rebuilt stock's, before its cards are
    // shown): a list that rewrites one the page saw is not taken.
    const had = digests.get(f.deal) || [];
    if (f.deal && Array.isArray(f.cards) && had.every((d, k) => f.cards[k] === d)) {
      digests.set(f.deal, f.cards);
      // shown as the seed's commitment is, for a player who notes them before the cards
      ui.cards.textContent = `Empreintes des cartes de la donne en cours : ${f.cards.join(" · ")}`;
    }
    if (mustSend) { mustSend = false; sendSeed(); }
    // A new reveal (each state repeats the last one): another deal's, or other openings.
    if (m.fair && (!revealed || JSON.stringify(revealed) !== JSON.stringify(m.fair))) {
      revealed = m.fair;
      ui.check.disabled = false;
      ui.check.textContent = `Vérifier la donne n° ${m.fair.deal}`;
      ui.out.textContent = "";
    }
  });
}

const root = document.getElementById("fair-panel");
if (root) start(root);
