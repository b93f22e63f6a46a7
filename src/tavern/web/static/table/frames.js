/* The order and completeness of the server's "state" frames (docs/protocol.md):
 * an older frame overtaken by a newer one is dropped (the owner's epoch, then
 * the sequence); the last result and revealed seed, sent only when they
 * change, are held and put back on each frame; the player's own part (`own`)
 * is laid into the public deal view; the deal's journal is kept from its
 * `story_at` slices; the table's keys that change at most once a deal (its
 * settings, the fair commitments), sent only when they change, are held and
 * put back into each frame's `table`. A gap (a frame missed) asks the server
 * for a snapshot. */

/** The table's keys a frame carries only when they changed (docs/protocol.md;
 *  `HELD` in tavern/tables/publication.py, the same list). */
export var HELD = ["id", "name", "game", "variant", "label", "view", "stakes", "buy_in", "seats", "timer", "fair", "house"];
/** And `you`'s (`HELD_YOU`), by `you_at`. */
export var HELD_YOU = ["hands", "client_seed"];

function older(m, held) {
  var e = m.epoch || 0, h = held.epoch || 0;
  return e !== h ? e < h : m.seq < held.seq;
}

/** Whether the shell takes `m` (a "state" frame); if so it is completed
 *  (result held, own cards laid) and becomes `S.msg`. `sync` asks for a
 *  snapshot. */
export function accept(S, m, sync) {
  // An older frame overtaken by a newer one: the owner's epoch (its
  // fence) first, then the sequence — a new owner counts from 1 again,
  // and a former owner's late frame has the older epoch.
  if (S.msg && !S.fresh && older(m, S.msg)) return false;
  // The last result and the revealed seed come only when they changed
  // (docs/protocol.md): the page holds the last ones. A frame naming
  // another change than the one held follows a missed frame: resync.
  if ("last_result" in m) S.result = { at: m.result_at, last_result: m.last_result, fair: m.fair };
  else if (!S.result || S.result.at !== m.result_at) sync();
  if (S.result) {
    m.last_result = S.result.last_result;
    if (m.fair === undefined && S.result.fair) m.fair = S.result.fair;
  }
  // The table's settings and fair commitments likewise: a frame whose
  // `table` has its `id` carries them all; the others name the frame that
  // did (`table_at`) and get them back from the page's memory.
  // Without any held, the frame cannot be drawn (which game, which seats):
  // it waits for the snapshot asked.
  if (!restore(S, "held", m.table, m.table_at, HELD, "id" in m.table, sync)) return false;
  // The player's daily hands and seed likewise (`you_at`); drawn without them.
  if (m.you) restore(S, "heldYou", m.you, m.you_at, HELD_YOU, "hands" in m.you, sync);
  if (m.own && m.deal) layOwn(m.deal, m.own);
  S.msg = m; S.at = performance.now(); S.fresh = false;
  return true;
}

/** Keys a part of the frame carries only when they changed: kept in
 *  `S[slot]` from the frame that `carried` them, put back into `part` on the
 *  others; a frame naming another carrier (`at`) than the one kept follows
 *  a missed frame: a snapshot is asked. False when nothing is kept yet. */
function restore(S, slot, part, at, names, carried, sync) {
  if (carried) { S[slot] = { at: at, keys: pick(part, names) }; return true; }
  if (!S[slot]) { sync(); return false; }
  if (S[slot].at !== at) sync();
  Object.assign(part, S[slot].keys);
  return true;
}

function pick(part, names) {
  var keys = {};
  names.forEach(function (k) { if (k in part) keys[k] = part[k]; });
  return keys;
}

/** A state's `own`: what only this player sees (his cards, his legal
 *  actions), sent beside the public deal view that every seat receives
 *  alike (docs/protocol.md). Each [path, value] is set into the view, so
 *  the game's module gets the player's whole view, as in a snapshot. */
function layOwn(deal, own) {
  own.forEach(function (change) {
    var path = change[0], at = deal;
    for (var i = 0; i < path.length - 1; i++) at = at[path[i]];
    at[path[path.length - 1]] = change[1];
  });
}

/** The story so far: a state carries the events from `story_at` on (all
 *  of them in a snapshot); a gap (a frame missed) asks for a snapshot. */
export function storyOf(S, m, sync) {
  var at = m.story_at || 0, more = m.story || [];
  if (at > S.story.length) { sync(); return S.story; }
  S.story = S.story.slice(0, at).concat(more);
  return S.story;
}
