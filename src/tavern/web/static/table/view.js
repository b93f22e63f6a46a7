/* What the shell reads from the last "state" frame (the table's `T.S.msg`):
 * the player's own entry, his name, the deal's players by name, his legal
 * moves, his cards; and `ctx(T)`, the context every game module is given
 * (docs/table-ui.md). Reading only: nothing here draws or sends. */

export function me(T) { var S = T.S; return S.msg && S.msg.you ? S.msg.you : null; }

export function myName(T) {
  var y = me(T), t = T.S.msg && T.S.msg.table;
  if (!y || !t) return null;
  for (var i = 0; i < t.players.length; i++) if (t.players[i].seat === y.seat) return t.players[i].name;
  return null;
}

export function dealPlayers(T) {
  var out = {}, d = T.S.msg && T.S.msg.deal;
  if (d && Array.isArray(d.players)) d.players.forEach(function (p) { out[p.player] = p; });
  return out;
}

/** The poker games (blinds to post, auto-actions): the game module says so. */
export function isPoker(T) { return !!T.game.blinds; }

export function legal(T) { var y = me(T); return (y && y.legal) || []; }
export function findLegal(T, name) { return legal(T).filter(function (a) { return a.action === name; })[0]; }

/** The player's own cards, where the game's view keeps them. */
export function myHand(T) {
  var d = T.S.msg.deal, name = myName(T);
  if (!d || !name) return null;
  return T.game.hand(ctx(T));
}

/** What a game module is given: the frame, the player, his legal actions,
 *  the cards he picked, and how to act or redraw (docs/table-ui.md). */
export function ctx(T) {
  var S = T.S;
  return { msg: S.msg, deal: S.msg.deal, table: S.msg.table, name: myName(T), you: me(T),
    legal: function () { return legal(T); }, findLegal: function (name) { return findLegal(T, name); },
    dealPlayers: function () { return dealPlayers(T); }, selected: S.selected, local: S.local,
    act: T.act, unselect: function () {
      var had = document.activeElement;
      S.selected = []; S.legalKey = ""; T.redrawPick();
      T.keys.pickAgain(had);  // Gin's « Choisir mes combinaisons », « Garder… », « Fini »: on to his hand
    } };
}
