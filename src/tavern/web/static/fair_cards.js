// Per-card commitments (docs/fairness.md "Per-card commitments", scheme
// tavern-cards-1): the page's check of the openings a deal's player receives
// at its end — the cards he saw — against the digests this page was shown
// with the table's state before the first card. Byte for byte the scheme of
// src/tavern/fair_cards.py (leaf, digest, check_openings), its refusals the
// catalogue's French sentences (fair_opening_*, fair_cards_digest).

export const CARDS_SCHEME = "tavern-cards-1";
const enc = new TextEncoder();

async function sha256(text) {
  const buf = await crypto.subtle.digest("SHA-256", enc.encode(text));
  return Array.from(new Uint8Array(buf), (b) => b.toString(16).padStart(2, "0")).join("");
}

/** One position's leaf: SHA-256 of "tavern-cards-1|{shuffle}|{position}|{card}|{salt}". */
export function leaf(shuffle, position, card, salt) {
  return sha256(`${CARDS_SCHEME}|${shuffle}|${position}|${card}|${salt}`);
}

/** One shuffle's digest, shown before the deal: over the seed's commitment and its leaves. */
export function digest(commitment, shuffle, leaves) {
  return sha256(`${CARDS_SCHEME}|${commitment}|${shuffle}|${leaves.join(",")}`);
}

function readReveal(reveal) {
  const leaves = reveal.leaves.map((ls) => ls.map(String));
  const openings = reveal.openings.map((o) => {
    const k = Number(o.shuffle), i = Number(o.position);
    if (!Number.isInteger(k) || !Number.isInteger(i) || typeof o.card !== "string" || typeof o.salt !== "string") {
      throw new TypeError(`ouverture illisible : ${JSON.stringify(o)}`);
    }
    return [k, i, o.card, o.salt];
  });
  return { leaves, openings };
}

/** Check ``reveal`` (its leaves and openings) against ``digests``, the ones
 * shown before the deal whose seed's commitment is ``commitment``.
 * ``say``: how a card is written for a player (10♦). Returns {ok, lines}. */
export async function checkOpenings(reveal, digests, commitment, say = String) {
  let leaves, openings;
  try {
    ({ leaves, openings } = readReveal(reveal));
  } catch (err) {
    return { ok: false, lines: [`Ouverture de cartes mal formée (${err.name} : ${err.message}).`] };
  }
  const refused = (line) => ({ ok: false, lines: [line] });
  if (leaves.length !== digests.length) {
    return refused(`Les empreintes des cartes du mélange n° ${Math.min(leaves.length, digests.length) + 1} ne sont ` +
                   "pas celles annoncées avant la donne : ouverture refusée.");
  }
  for (let k = 1; k <= leaves.length; k++) {
    if (await digest(commitment, k, leaves[k - 1]) !== digests[k - 1]) {
      return refused(`Les empreintes des cartes du mélange n° ${k} ne sont pas celles annoncées avant la donne : ` +
                     "ouverture refusée.");
    }
  }
  for (const [k, i, card, salt] of openings) {
    if (!(k >= 1 && k <= leaves.length && i >= 0 && i < leaves[k - 1].length)) {
      return refused(`Aucune carte n'a été engagée en position ${i + 1} du mélange n° ${k} : ouverture refusée.`);
    }
    if (await leaf(k, i, card, salt) !== leaves[k - 1][i]) {
      return refused(`La carte ${say(card)} en position ${i + 1} du mélange n° ${k} ne correspond pas à l'empreinte ` +
                     "annoncée avant la donne : carte échangée ou falsifiée, ouverture refusée.");
    }
  }
  return { ok: true, lines: [`${openings.length} carte(s) ouverte(s), conformes aux empreintes des ${leaves.length} ` +
                             "mélange(s) annoncées avant la donne."] };
}
