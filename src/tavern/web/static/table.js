/* The live table's shell: one WebSocket (/ws/tables/{id}), the server's
 * "state" frames drawn on a felt, the player's commands sent back.
 *
 * The shell owns what every game has (the socket and its reconnecting, the
 * seats, the cave, the header's count, notices, the result panel's frame,
 * the deal's journal); each game's felt, controls and result story are in
 * its own module under games/ (poker, rami, rummoli, rams), all with the
 * same small interface (docs/table-ui.md). Other modules of the page
 * (fair.js) follow the table through "tavern:*" events.
 *
 * Plain ES modules, no build step, no external asset (the CSP allows only
 * same-origin scripts). Everything the server sends is the player's own view
 * (see docs/protocol.md); this file only draws it and never guesses hidden
 * cards. The mapping from the protocol to the page is in docs/table-ui.md.
 */
import { h, add, clear, fmt, ecus, card, cards, cardList, btn, CATEGORY } from "./cards.js";
import * as poker from "./games/poker.js";
import * as rami from "./games/rami.js";
import * as rummoli from "./games/rummoli.js";
import * as rams from "./games/rams.js";
import { finished } from "./games/generic.js";
import { storyLine } from "./story.js";
import { Speech, seatWords, handWords, label } from "./speech.js";
import { Keys } from "./keys.js";
import { Feel } from "./feel.js";

/** The page's module for each kind of felt a game's spec names (GameSpec.view,
 *  sent as the table's `view`); "generic" and any view the page does not know
 *  draw with the rami module's generic felt. No game's name is tested here. */
var VIEWS = { holdem: poker, draw_poker: poker, rami: rami, rummoli: rummoli, rams: rams, generic: rami };

(function () {
  "use strict";

  var root = document.getElementById("table-live");
  if (!root) return;
  var TABLE_ID = root.getAttribute("data-table-id");
  var GAME = rami;  // until the first frame says the table's view (render)

  // --- the connection ------------------------------------------------------

  var ws = null, attempt = 0, retryTimer = null, nextId = 1;
  var pending = {};           // id -> what was asked, for the error line
  var S = {                   // what the page remembers between frames
    msg: null, at: 0,         // last "state" frame and when it came
    result: null,             // the last result and revealed seed held, and the publication that carried them
    seatChoice: null,         // the free seat clicked before "Cave"
    selected: [], selKey: "", // cards picked in the hand (discards, plays)
    local: {},                // the game module's own state for this phase (Gin's knock)
    legalKey: "",
    hands: {}                 // deal_no -> {player: category} from the last view of a deal
  };

  // Silence: a worker stopped or frozen (SIGSTOP, a starved host) keeps its
  // sockets open and says nothing, and the page would wait for ever. After
  // HEARD_MS without a frame the page asks "ping" (the socket's own worker
  // answers "pong", docs/protocol.md); without any frame REPLY_MS later it
  // drops that socket and opens another, which a live worker accepts.
  var HEARD_MS = 10000, REPLY_MS = 5000;
  var heardAt = 0, pingedAt = 0;
  setInterval(function () {
    if (!ws || ws.readyState !== 1) return;
    var now = Date.now();
    if (pingedAt && now - pingedAt > REPLY_MS) { silent(); return; }
    if (!pingedAt && now - heardAt > HEARD_MS) { pingedAt = now; ws.send(JSON.stringify({ type: "ping" })); }
  }, 1000);

  function silent() {
    var old = ws;
    old.onopen = old.onmessage = old.onclose = null;  // its close may never come: the server is not there
    try { old.close(); } catch (e) { /* closing already */ }
    ws = null;
    root.setAttribute("data-connected", "0");
    resuming = "Le serveur ne répond plus — reconnexion…";
    connect(resuming);
  }
  // Said until the table's state comes again: the new socket may open at once
  // while the table waits for its stopped worker's lease to pass.
  var resuming = null;

  function connect(why) {
    var proto = location.protocol === "https:" ? "wss:" : "ws:";
    setStatus(typeof why === "string" ? why : "Connexion…", "wait");
    heardAt = Date.now(); pingedAt = 0;
    ws = new WebSocket(proto + "//" + location.host + "/ws/tables/" + TABLE_ID);
    ws.onopen = function () {
      // A restarted server counts its frames from zero again: take the next
      // snapshot whatever its number.
      S.fresh = true;
      if (attempt > 0) send({ type: "sync" });  // the server sends a snapshot anyway; ask to be sure
      attempt = 0;
      setStatus(resuming || "Connecté", resuming ? "wait" : "ok");
      document.dispatchEvent(new CustomEvent("tavern:open"));
      root.setAttribute("data-connected", "1");
    };
    ws.onmessage = function (ev) {
      heardAt = Date.now(); pingedAt = 0;  // any frame shows the server alive
      var m;
      try { m = JSON.parse(ev.data); } catch (e) { return; }
      onMessage(m);
    };
    ws.onclose = function (ev) {
      ws = null;
      root.setAttribute("data-connected", "0");
      if (S.closed) { setStatus(S.closed.practice ? "Entraînement terminé" : "Table fermée", "ko"); return; }  // nothing to come back to
      // Back off: 0.5 s, 1 s, 2 s … up to 15 s, so a dead server is not hammered.
      // Play paused (1013: the server lost its coordinator, docs/protocol.md)
      // is tried again every 2 s: play resumes within seconds of its return.
      var delay = ev.code === 1013 ? 2000 : Math.min(15000, 500 * Math.pow(2, attempt++));
      var why = ev.reason ? " (" + ev.reason + ")" : "";
      setStatus("Déconnecté" + why + " — nouvelle tentative dans " + Math.round(delay / 1000) + " s", "ko");
      retryTimer = setTimeout(connect, delay);
    };
  }

  function connected() {
    if (ws && ws.readyState === 1) return true;
    showError("Pas de connexion à la table : réessayez dans un instant.");
    return false;
  }

  function send(msg, what) {
    if (!connected()) return;
    msg.id = nextId++;  // an id asks for an "ok" (docs/protocol.md)
    pending[msg.id] = what || msg.type;
    ws.send(JSON.stringify(msg));
  }

  // A module of the page sends through the table's socket with an event.
  document.addEventListener("tavern:send", function (ev) { send(ev.detail); });

  // A move goes without an id: the next state, which shows it played, is its
  // answer (one frame fewer per move for the server); a refusal still comes
  // as an "error" frame. A new click clears the last refusal's line.
  function act(action, args) {
    if (!connected()) return;
    var m = { type: "act", action: action, args: args || {} };
    if (S.msg) m.seq = S.msg.seq;
    showError(null);
    ws.send(JSON.stringify(m));
  }

  function older(m, held) {
    var e = m.epoch || 0, h = held.epoch || 0;
    return e !== h ? e < h : m.seq < held.seq;
  }

  function onMessage(m) {
    if (m.type === "state") {
      if (resuming) { resuming = null; setStatus("Connecté", "ok"); }
      // An older frame overtaken by a newer one: the owner's epoch (its
      // fence) first, then the sequence — a new owner counts from 1 again,
      // and a former owner's late frame has the older epoch.
      if (S.msg && !S.fresh && older(m, S.msg)) return;
      // The last result and the revealed seed come only when they changed
      // (docs/protocol.md): the page holds the last ones. A frame naming
      // another change than the one held follows a missed frame: resync.
      if ("last_result" in m) S.result = { at: m.result_at, last_result: m.last_result, fair: m.fair };
      else if (!S.result || S.result.at !== m.result_at) send({ type: "sync" });
      if (S.result) {
        m.last_result = S.result.last_result;
        if (m.fair === undefined && S.result.fair) m.fair = S.result.fair;
      }
      if (m.own && m.deal) layOwn(m.deal, m.own);
      S.msg = m; S.at = performance.now(); S.fresh = false;
      // Other modules of the page (fair.js) follow the table through events.
      document.dispatchEvent(new CustomEvent("tavern:state", { detail: m }));
      var stale = document.getElementById("static-seats");  // the live felt shows the seats now
      if (stale) stale.hidden = true;
      render();
    } else if (m.type === "closed") {
      onClosed(m);
    } else if (m.type === "contest") {
      onContest(m);
    } else if (m.type.indexOf("chat") === 0 || (m.id != null && /^chat/.test(pending[m.id] || ""))) {
      // The table's chat (and the answers to its commands) belong to chat.js.
      if (m.type === "ok" || m.type === "error") delete pending[m.id];
      document.dispatchEvent(new CustomEvent("tavern:chat", { detail: m }));
    } else if (m.type === "error") {
      if (m.id !== null) delete pending[m.id];
      showError(m.message);
    } else if (m.type === "ok") {
      delete pending[m.id];
      showError(null);
      var r = m.result || {};
      if (r.notice) showNotice(r.notice);
      if (r.ecus !== undefined) showNotice("Rendu à votre compte : " + ecus(r.ecus) + ".");
    }
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

  /** The owner closed the table: say so, show what each player was paid,
   *  and stop (no controls, no reconnecting to a table that is gone). A
   *  practice table closes when its player leaves it: that is what it says. */
  function onClosed(m) {
    S.closed = m;
    if (retryTimer) { clearTimeout(retryTimer); retryTimer = null; }
    if (ws) ws.close();
    root.setAttribute("data-closed", "1");
    clear(elControls); clear(elActions); clear(elSeats);  // nobody sits at a closed table
    clear(elCenter);
    if (m.practice) {
      setStatus("Entraînement terminé", "ko");
      add(elCenter, h("p", { cls: "tl-wait", text: "Vous avez quitté votre table d'entraînement." }));
      add(elControls, [h("div", { cls: "tl-closed" },
        h("p", { cls: "tl-note", text: "Les jetons d'entraînement ne valent aucun écu : rien n'est rendu, rien n'est perdu." }),
        h("p", {}, h("a", { href: "/entrainement", text: "S'entraîner encore" }), " · ",
          h("a", { href: "/", text: "Retour au village" })))]);
      return;
    }
    setStatus("Table fermée", "ko");
    add(elCenter, h("p", { cls: "tl-wait", text: "Table fermée par le patron." }));
    var lines = Object.keys(m.ecus || {}).sort().map(function (name) {
      var won = (m.awards || {})[name];
      return h("li", { "data-player": name }, name + " : " + ecus(m.ecus[name]) +
        (won ? " (dont " + fmt(won) + " jetons du pot partagé" + (m.method ? ", " + (METHODS[m.method] || m.method) : "") + ")" : ""));
    });
    add(elControls, [h("div", { cls: "tl-closed" },
      h("p", { cls: "tl-note", text: "Le patron a fermé cette table : chacun a ramassé ses gains." }),
      lines.length ? h("p", { text: "Rendu à chacun :" }) : null,
      lines.length ? h("ul", {}, lines) : null,
      h("p", {}, h("a", { href: "/", text: "Retour au village" })))]);
  }
  var METHODS = { cut: "à la plus haute carte coupée", poker: "à la meilleure main de poker", equal: "à parts égales" };

  /** A contest's word to this player: moved to another table (the page
   *  follows him there), knocked out with his place, or the winner. */
  function onContest(m) {
    var link = "/concours/" + m.contest_id;
    if (m.event === "moved") {
      showNotice("Changement de table : vous êtes attendu à la table " + m.to_table + ".");
      setTimeout(function () { location.href = "/tables/" + m.to_table; }, 1500);
    } else if (m.event === "out") {
      showNotice("Vous n'avez plus de jetons : vous terminez " + m.place + "e. Le classement est sur la page du concours.");
      elContest.appendChild(h("a", { href: link, id: "contest-link", text: " Voir le classement" }));
    } else if (m.event === "won") {
      showNotice("Vous remportez le concours !");
      elContest.appendChild(h("a", { href: link, id: "contest-link", text: " Voir le classement et les prix" }));
    }
  }

  // --- the page's skeleton (built once) -----------------------------------

  clear(root);
  root.classList.add("tl");
  var elStatus = h("p", { cls: "tl-status", role: "status" });
  var elContest = h("p", { cls: "tl-contest", hidden: true });
  var elFelt = h("div", { cls: "tl-felt" });
  var elTable = h("div", { cls: "tl-oval" }, elFelt);
  var elPublic = h("div", { cls: "tl-public", role: "group", "aria-label": "cartes sur la table", hidden: true });
  var elCenter = h("div", { cls: "tl-center" });
  elFelt.appendChild(elCenter);
  var elSeats = h("div", { cls: "tl-seats", role: "list", "aria-label": "Les places" });
  elFelt.appendChild(elSeats);
  var elError = h("p", { cls: "tl-error", role: "alert", hidden: true });
  var elNotice = h("p", { cls: "tl-notice", role: "status", hidden: true });
  var elActions = h("div", { cls: "tl-actions", role: "group", "aria-label": "Vos actions" });
  var elAuto = h("div", { cls: "tl-auto" });
  var elPlay = h("div", { cls: "tl-panel tl-play" }, elError, elNotice, elActions, elAuto);
  var elControls = h("div", { cls: "tl-controls" });
  var elHands = h("p", { cls: "tl-hands" });
  // Animations and the turn's chime, both the player's to switch off (feel.js).
  var feel = new Feel(root);
  var speech = new Speech(root);  // the live region a screen reader follows (speech.js)
  var elResult = h("div", { cls: "tl-result" });  // told by the live region (speech.js), not a second one
  var elStory = h("ol", { cls: "tl-story-log", "aria-label": "Journal de la donne", tabindex: 0 });  // it scrolls: reachable by keyboard (axe)
  var elStoryBox = h("details", { cls: "tl-panel tl-story-box", open: true },
    h("summary", { text: "Journal de la donne" }), elStory);
  var keys = new Keys({ root: root, actions: elActions, story: elStory, poker: isPoker,
    where: function () { return speech.where(); }, say: function (t) { speech.say(t); } });
  // His moves right under the felt, where his hand is (issue 40 §1), then the public cards.
  add(root, [elStatus, speech.el, elContest, elTable, elPlay, elPublic,
    h("div", { cls: "tl-panel tl-side" }, elControls, elHands, feel.controls()), elResult, elStoryBox, keys.help]);

  function setStatus(text, kind) { elStatus.textContent = text; elStatus.className = "tl-status " + kind; }
  var errTimer = null;
  function showError(text) {
    clearTimeout(errTimer);
    elError.hidden = !text;
    elError.textContent = text || "";
    if (text) errTimer = setTimeout(function () { elError.hidden = true; syncPanel(); }, 10000);
    syncPanel();
  }
  function showNotice(text) {
    elNotice.hidden = !text;
    elNotice.textContent = text || "";
    syncPanel();
  }
  /** The actions panel shows only when it has something: buttons, a message. */
  function syncPanel() {
    elPlay.hidden = !elActions.firstChild && !elAuto.firstChild && elError.hidden && elNotice.hidden;
  }

  // --- rendering -----------------------------------------------------------

  function me() { return S.msg && S.msg.you ? S.msg.you : null; }
  function myName() {
    var y = me(), t = S.msg && S.msg.table;
    if (!y || !t) return null;
    for (var i = 0; i < t.players.length; i++) if (t.players[i].seat === y.seat) return t.players[i].name;
    return null;
  }
  function dealPlayers() {
    var out = {}, d = S.msg && S.msg.deal;
    if (d && Array.isArray(d.players)) d.players.forEach(function (p) { out[p.player] = p; });
    return out;
  }
  function isPoker() { return !!GAME.blinds; }


  function render() {
    var m = S.msg, d = m.deal;
    GAME = VIEWS[m.table.view] || rami;  // the game's spec says which felt draws it
    root.setAttribute("data-seq", m.seq);
    root.setAttribute("data-phase", d ? d.phase : "");
    if (d && d.phase === "over" && d.result && d.result.hands) {
      S.hands = {};  // only the last deal's categories are ever shown
      S.hands[m.table.deal_no] = d.result.hands;
    }
    // A new deal or a new phase forgets the cards picked for the old one;
    // at draw poker the cards picked during a betting round stay picked for
    // the draw that follows it (same round number).
    var phase = d ? d.phase : "";
    if (GAME.selectionPhase) phase = GAME.selectionPhase(m.table, phase);
    var key = m.table.deal_no + ":" + phase + ":" + (d ? d.round || 0 : "");
    if (key !== S.selKey) { S.selKey = key; S.selected = []; S.local = {}; }
    var facts = document.getElementById("facts-seats");  // the header's count, live
    if (facts) facts.textContent = m.table.players.length + "/" + m.table.seats;
    if (S.closed) return;  // the closing summary stays as it is
    keys.before();
    var events = storyOf(m);  // before the felt, which shows the last lines
    var myTurn = legal().length > 0 && !finished(d), turnStarts = myTurn && !S.myTurn;
    S.myTurn = myTurn;
    renderSeats(); renderCenter(); renderActions(); renderAuto(); renderControls(); renderHands(); renderResult();
    renderStory(events);
    renderContest();
    syncPanel(); tick();
    feel.drawn(m.table.deal_no, root);
    feel.turn(legal().length > 0 && !finished(d), { seq: m.seq, to_act: d ? d.to_act : null });
    speech.follow(m, { events: events, hand: myHand(), moves: moves(), result: resultWords(m.last_result),
      board: d && Array.isArray(d.board) ? d.board.length : 0 });
    keys.after(turnStarts);
  }

  /** Seats around the oval, the player's own at the bottom. */
  function renderSeats() {
    var m = S.msg, t = m.table, d = m.deal, y = me();
    var bySeat = {};
    t.players.forEach(function (p) { bySeat[p.seat] = p; });
    var inDeal = dealPlayers();
    var mine = myName();
    var n = t.seats, pivot = y ? y.seat : 0;
    var live = d && !finished(d);
    // A deal just over whose settlement is not yet committed (table.settling):
    // the engine's stacks still, until the settled ones arrive with the result.
    var stacks = live || (d && t.settling);
    clear(elSeats);
    for (var s = 0; s < n; s++) {
      var angle = Math.PI / 2 + (s - pivot) * 2 * Math.PI / n;  // y grows downwards: pi/2 is the bottom
      var pos = { left: (50 + 43 * Math.cos(angle)) + "%", top: (50 + 37 * Math.sin(angle)) + "%" };
      var p = bySeat[s];
      if (!p) {
        var free = h("div", { cls: "tl-seat free" + (S.seatChoice === s ? " chosen" : ""), "data-seat": s, style: pos, role: "listitem" });
        // Held a while for the first of the waiting list (issue 30 §3): taken from his notice, not here.
        var held = t.waiting && t.waiting.held.indexOf(s) >= 0;
        if (held) {
          free.appendChild(h("span", { cls: "muted tl-held", text: "Place " + (s + 1) + " réservée (liste d'attente)" }));
        } else if (!y) {
          free.appendChild(h("button", { type: "button", cls: "tl-sit", "data-seat": s,
            text: "Place " + (s + 1) + " — s'asseoir",
            on: { click: (function (k) { return function () { chooseSeat(k); }; })(s) } }));
        } else {
          free.appendChild(h("span", { cls: "muted", text: "Place " + (s + 1) + " libre" }));
        }
        elSeats.appendChild(free);
        continue;
      }
      var dp = inDeal[p.name];
      var cls = "tl-seat";
      if (p.name === mine) cls += " me";
      if (d && d.to_act && (d.to_act === p.name || (Array.isArray(d.to_act) && d.to_act.indexOf(p.name) >= 0)) && live) cls += " to-act";
      if (dp && dp.folded) cls += " folded";
      if (p.sitting_out) cls += " out";
      if (!p.connected) cls += " gone";
      // During a deal the engine's stack (chips behind the bets); once it is
      // over, the table's settled stack: a rami view keeps the deal's starting
      // chips, so the felt said 1 000 while the result said 1 018.
      var chips = stacks && dp && typeof dp.chips === "number" ? dp.chips : p.chips;
      var badges = [];
      if (dp && dp.folded) badges.push("Couché");
      if (dp && dp.all_in) badges.push("Tapis");
      if (p.sitting_out) badges.push("Levé");
      if (p.waiting) badges.push("Attend la grosse blinde");
      if (!p.connected) badges.push("Déconnecté");
      var hand = null, heldWords = "";
      if (dp) {
        if (Array.isArray(dp.cards)) { hand = cards(dp.cards); heldWords = handWords(dp.cards); }
        else if (dp.cards === null || dp.cards === undefined) { hand = dp.folded ? [] : cards(null, dp.card_count); heldWords = handWords(null, dp.folded ? 0 : dp.card_count); }
        else if (typeof dp.cards === "number") { hand = cards(null, dp.cards); heldWords = handWords(null, dp.cards); }  // rami family: a count
      } else if (d && d.hand_sizes && typeof d.hand_sizes[p.name] === "number") {
        hand = cards(null, d.hand_sizes[p.name]); heldWords = handWords(null, d.hand_sizes[p.name]);  // Rams: sizes by name
      }
      if (p.name === mine) { var mh = myHand(); if (mh) hand = [renderMyHand(mh)]; }  // large, clickable
      var named = seatWords(p, { mine: p.name === mine, chips: chips, cards: p.name === mine ? "" : heldWords, bet: dp && dp.bet,
        badges: badges, toAct: cls.indexOf("to-act") >= 0, last: speech.last[p.name] });
      var seat = h("div", { cls: cls, "data-seat": s, "data-player": p.name, style: pos, role: "listitem", "aria-label": named },
        t.button_seat === s ? h("span", { cls: "tl-button", title: "Donneur (bouton)", text: "D" }) : null,
        h("div", { cls: "tl-name" }, h("b", { text: p.name }), p.name === mine ? h("small", { text: " (vous)" })
          : isHouse(p.name) ? h("small", { cls: "tl-house", text: " (maison)" }) : null),
        h("div", { cls: "tl-stack money", "data-chips": chips, text: fmt(chips) + " jetons" }),
        hand && hand.length ? h("div", { cls: "tl-cards" }, hand) : null,
        GAME.seatNote ? GAME.seatNote(ctx(), p.name) : null,  // a game's word beside a hand (hold'em: its equity)
        badges.length ? h("div", { cls: "tl-badges" }, badges.map(function (b) { return h("span", { cls: "badge", text: b }); })) : null,
        h("div", { cls: "tl-clock", "data-name": p.name }));
      elSeats.appendChild(seat);
      // The bet in front of the seat, and the dealer's button.
      var inner = { left: (50 + 27 * Math.cos(angle)) + "%", top: (50 + 21 * Math.sin(angle)) + "%" };
      if (dp && dp.bet) elSeats.appendChild(h("div", { cls: "tl-bet money", "aria-hidden": "true", "data-player": p.name, "data-amount": dp.bet, style: inner, text: fmt(dp.bet) }));
    }
  }


  function renderCenter() {
    var m = S.msg, d = m.deal, t = m.table;
    clear(elCenter);
    // The other games' public cards can be many (Rummoli's board, melds):
    // they go on a strip under the felt, not over the seats.
    clear(elPublic);
    elPublic.hidden = true;
    add(elCenter, h("div", { cls: "tl-title" }, h("b", { text: t.name }), " · ", stakesText(t)));
    if (!d) {
      add(elCenter, h("p", { cls: "tl-wait", text: t.players.length < 2 ? "En attente de joueurs…" : "La donne va commencer…" }));
      return;
    }
    var f = GAME.felt(ctx());
    add(elCenter, f.center);
    // The last two lines of the journal on the felt, in view with the cards (the journal is below).
    var last = storyHeld.map(function (ev) { return storyLine(ev); }).filter(Boolean).slice(-2);
    if (last.length) add(elCenter, h("ol", { cls: "tl-last", "aria-hidden": "true" }, last.map(function (l) { return h("li", { text: l }); })));
    if (f.strip) { elPublic.appendChild(f.strip); elPublic.hidden = false; }
  }

  function stakesText(t) {
    var s = t.stakes || {};
    if (s.small_blind !== undefined && s.big_blind !== undefined) return "blindes " + s.small_blind + "/" + s.big_blind;
    if (s.small_bet !== undefined) return "petite mise " + s.small_bet;
    if (s.unit !== undefined) return "unité " + s.unit;
    return "";
  }

  /** The player's own cards, where the game's view keeps them. */
  function myHand() {
    var d = S.msg.deal, name = myName();
    if (!d || !name) return null;
    return GAME.hand(ctx());
  }

  function legal() { var y = me(); return (y && y.legal) || []; }
  function findLegal(name) { return legal().filter(function (a) { return a.action === name; })[0]; }

  /** What a game module is given: the frame, the player, his legal actions,
   *  the cards he picked, and how to act or redraw (docs/table-ui.md). */
  function ctx() {
    return { msg: S.msg, deal: S.msg.deal, table: S.msg.table, name: myName(), you: me(),
      legal: legal, findLegal: findLegal, dealPlayers: dealPlayers, selected: S.selected, local: S.local,
      act: act, unselect: function () {
        var had = document.activeElement;
        S.selected = []; S.legalKey = ""; renderSeats(); renderActions();
        keys.pickAgain(had);  // Gin's « Choisir mes combinaisons », « Garder… », « Fini »: on to his hand
      } };
  }

  function renderMyHand(hand) {
    var can = GAME.picking(ctx());
    var drawing = can && !!(GAME.discarding && GAME.discarding(ctx()));  // picked cards are the ones to change
    var faces = [];
    var order = sortOrder(hand), bar = null;
    if (hand.length >= 7) {  // rami hands (7 to 13 cards): sorted, and the player picks how
      // The buttons on their own line above the cards, not in the cards' row
      // (issue 33 §12: in the row they stuck out of the seat box).
      bar = h("div", { cls: "tl-sort" },
        btn("Trier par couleur", "sort-suit", function () { setSort("suit"); }, "small" + (order === "suit" ? " on" : "")),
        btn("par rang", "sort-rank", function () { setSort("rank"); }, "small" + (order === "rank" ? " on" : "")));
      hand = sortHand(hand, order);
    }
    var only = can ? GAME.playable(ctx()) : null;
    hand.forEach(function (c) {
      var on = S.selected.indexOf(c) >= 0;
      var ok = can && (!only || only.indexOf(c) >= 0);  // a card the rules refuse is not clickable
      faces.push(card(c, {
        button: ok, pressed: on, cls: (on ? "selected" : "") + (can && !ok ? " unplayable" : ""),
        onclick: ok ? function () { toggle(c); } : null
      }));
    });
    var wrap = cardList("tl-myhand" + (can ? " picking" : "") + (drawing ? " discarding" : ""), "vos cartes", faces);
    return bar ? h("div", { cls: "tl-hand-sorted" }, bar, wrap) : wrap;
  }

  // A hand of 10 to 13 cards in dealing order is unreadable: sorted by suit
  // (then rank) unless the player asked for rank order; the choice is kept.
  var RANK_ORDER = "23456789TJQKA", SUIT_ORDER = "shdc";
  function sortOrder(hand) {
    var kept = null;
    try { kept = localStorage.getItem("tavern.sort"); } catch (e) { kept = null; }
    return kept === "rank" ? "rank" : "suit";
  }
  function setSort(order) {
    try { localStorage.setItem("tavern.sort", order); } catch (e) { /* private mode: this page only */ }
    render();
  }
  function sortHand(hand, order) {
    function key(c) {
      if (c[0] === "X") return [99, 99];  // jokers last, whatever the order
      var r = RANK_ORDER.indexOf(c[0]), su = SUIT_ORDER.indexOf(c[1]);
      return order === "rank" ? [r, su] : [su, r];
    }
    return hand.slice().sort(function (a, b) {
      var ka = key(a), kb = key(b);
      return ka[0] - kb[0] || ka[1] - kb[1];
    });
  }

  function toggle(c) {
    keys.before();  // the hand is drawn again: the focus stays on the card
    var i = S.selected.indexOf(c);
    if (i >= 0) S.selected.splice(i, 1);
    else {
      var dr = findLegal("draw");
      if (dr && dr.max !== undefined && S.selected.length >= dr.max) return;
      // The generic games act on one card at a time (or a whole legal set),
      // except while a Gin knocker gathers the cards of one of his melds.
      if (!GAME.multiSelect(ctx())) S.selected = [];
      S.selected.push(c);
    }
    S.legalKey = "";  // the buttons' labels follow the selection
    renderSeats(); renderActions(); tick();
    keys.after(false);
  }

  // --- the actions ---------------------------------------------------------

  /** His moves now, as his buttons name them (the live region tells them). */
  var SHORTCUTS = { "half-pot": 1, "three-quarter-pot": 1, pot: 1, "all-in": 1 };
  function moves() {
    return Array.prototype.filter.call(elActions.querySelectorAll("button.tl-act"), function (b) {
      return !SHORTCUTS[b.getAttribute("data-action")];
    }).map(function (b) { var t = label(b); return t.charAt(0).toLowerCase() + t.slice(1); });
  }
  /** The last result told in a line: « Donne n° 3 : bob +40, ana −40. ». */
  function resultWords(lr) {
    if (!lr || !lr.result) return null;
    var r = lr.result, by = r.delta || {};
    var who = Object.keys(by).map(function (p) { return p + " " + (by[p] > 0 ? "+" : "") + fmt(by[p]); });
    return { deal: lr.deal, line: "Résultat de la donne n° " + lr.deal + (who.length ? " : " + who.join(", ") : "") + "." };
  }

  function renderActions() {
    var key = JSON.stringify(legal()) + "|" + S.selected.join(",") + "|" + S.msg.seq;
    if (key === S.legalKey) return;  // keep the slider where the player left it
    S.legalKey = key;
    clear(elActions);
    var acts = legal();
    if (!acts.length) {
      var d = S.msg.deal, who = d && d.to_act;
      if (Array.isArray(who)) who = who.join(", ");
      if (!finished(d) && who) elActions.appendChild(h("p", { cls: "muted", text: "À " + who + " de parler." }));
      return;
    }
    elActions.appendChild(h("p", { cls: "tl-yourturn", text: "À vous de jouer." }));
    add(elActions, GAME.controls(ctx(), acts));
  }

  /** The deal's story, from the engine's public events (the server keeps
   *  them with the deal's record): one line per event, in the games' words. */
  var storyKey = "", storyHeld = [];
  /** The story so far: a state carries the events from `story_at` on (all
   *  of them in a snapshot); a gap (a frame missed) asks for a snapshot. */
  function storyOf(m) {
    var at = m.story_at || 0, more = m.story || [];
    if (at > storyHeld.length) { send({ type: "sync" }); return storyHeld; }
    storyHeld = storyHeld.slice(0, at).concat(more);
    return storyHeld;
  }
  function renderStory(events) {
    var key = events.length + ":" + JSON.stringify(events[events.length - 1] || null);
    if (key === storyKey) return;
    storyKey = key;
    clear(elStory);
    events.forEach(function (ev) {
      var line = storyLine(ev);
      if (line) elStory.appendChild(h("li", { "data-event": ev.event, text: line }));
    });
    elStory.scrollTop = elStory.scrollHeight;
  }
  // --- auto-actions (poker) ------------------------------------------------

  var AUTOS = [["check_fold", "Parole/Se coucher"], ["check", "Parole"], ["call_any", "Suivre tout"], ["fold_any", "Se coucher à toute mise"]];
  var autoKey = "";
  function renderAuto() {
    var y = me(), d = S.msg.deal, name = myName();
    var show = y && isPoker() && !y.sitting_out && d && d.phase === "bet" && dealPlayers()[name] && !dealPlayers()[name].folded;
    var key = show ? String(y.auto) : "";
    if (key === autoKey && elAuto.childNodes.length === (show ? 1 : 0)) return;
    autoKey = key;
    clear(elAuto);
    if (!show) return;
    var box = h("fieldset", { cls: "tl-autos" }, h("legend", { text: "Actions automatiques" }));
    AUTOS.forEach(function (a) {
      var cb = h("input", { type: "checkbox", name: "auto", value: a[0], checked: y.auto === a[0] });
      cb.addEventListener("change", function () { send({ type: "auto", auto: cb.checked ? a[0] : null }, "auto"); });
      box.appendChild(h("label", { cls: "tl-check" }, cb, a[1]));
    });
    elAuto.appendChild(box);
  }

  // --- seat and chips: Cave, Ramasser ses gains, Se lever, Se rasseoir -------

  var caveInput = h("input", { type: "number", step: 1, cls: "tl-cave-input", "aria-label": "montant de la cave" });
  caveInput.addEventListener("keydown", function (ev) {  // Entrée in the box: « Cave », as in a form
    var go = ev.key === "Enter" && elControls.querySelector("button[data-action=cave]:not([disabled])");
    if (go) { ev.preventDefault(); go.click(); }
  });
  var controlsKey = "";
  function chooseSeat(s) {
    S.seatChoice = s;
    renderSeats();
    renderControls();  // the prompt and the "Cave" button name the seat clicked
    caveInput.focus();
  }
  /** Whether the cave box holds a whole amount between lo and hi. */
  function caveValid(lo, hi) {
    var v = Number(caveInput.value);
    return caveInput.value !== "" && Math.round(v) === v && v >= lo && v <= hi;
  }
  /** A contest table: the level, its blinds and the contest's clock. */
  function renderContest() {
    var c = S.msg.table.contest;
    elContest.hidden = !c;
    if (!c) return;
    var left = c.seconds_left === null ? null : Math.max(0, c.seconds_left - (performance.now() - S.at) / 1000);
    var text = "Concours — niveau " + c.level + " : blindes " + fmt(c.small_blind) + "/" + fmt(c.big_blind) +
      (c.ante ? ", ante " + fmt(c.ante) : "") + " · " +
      (left === null ? "dernier niveau" : "niveau suivant dans " + Math.floor(left / 60) + " min " +
        Math.floor(left % 60) + " s") + " · " + c.players_left + " joueurs restants";
    var span = elContest.querySelector(".tl-contest-clock");
    if (!span) { span = h("span", { cls: "tl-contest-clock" }); elContest.insertBefore(span, elContest.firstChild); }
    span.textContent = text;
  }

  /** A house player: a practice table's (`practice.house`) or a real table's (`house`). */
  function isHouse(name) {
    var t = S.msg.table, p = t.practice;
    return !!((p && p.house && p.house.indexOf(name) >= 0) || (t.house && t.house.indexOf(name) >= 0));
  }

  function renderControls() {
    var m = S.msg, t = m.table, y = me(), d = m.deal, name = myName();
    if (t.contest) {  // no cave, no leaving, no sitting out at a contest
      clear(elControls);
      add(elControls, h("p", { cls: "muted", text: "Concours : vous gardez votre place tant qu'il vous reste des jetons ; absent, vous recevez vos cartes et vos coups sont joués (parole ou passe)." }));
      return;
    }
    // Dealt in: his seat in the poker view, his hand's size (Rams), his own hand (the rami family).
    var inDeal = !!(y && !finished(d) && (dealPlayers()[name] || (d.hand_sizes && d.hand_sizes[name] !== undefined) ||
      Array.isArray(d.hand)));
    var lo = t.buy_in[0], hi = t.buy_in[1];
    // A seat picked then taken by somebody else is forgotten.
    if (y || t.players.some(function (p) { return p.seat === S.seatChoice; })) S.seatChoice = null;
    var dp = dealPlayers()[name], stack = inDeal && dp && typeof dp.chips === "number" ? dp.chips : y && y.chips;
    var key = JSON.stringify([!!y, stack, y && y.sitting_out, y && y.owes_big_blind, y && y.post_now,
      y && y.leaving, y && y.notice, inDeal, t.players.length, S.seatChoice]);
    if (key === controlsKey) return;
    controlsKey = key;
    clear(elControls);
    if (!y) {
      // Sit on a free seat with a cave between the table's bounds.
      caveInput.min = lo; caveInput.max = hi;
      // Pre-filled with a cave the table accepts (after "Ramasser ses gains"
      // the box held the 0 left to add while seated).
      if (!caveValid(lo, hi)) caveInput.value = hi;
      var free = firstFree();
      var seat = S.seatChoice !== null ? S.seatChoice : free;
      add(elControls, [
        h("p", { text: seat === null ? "Toutes les places sont prises." :
          "Place " + (seat + 1) + " : choisissez votre cave (entre " + fmt(lo) + " et " + ecus(hi) + ")." }),
        h("div", { cls: "tl-buttons" }, caveInput,
          seat === null ? null : btn("Cave", "cave", function () {
            var v = clampCave(lo, hi);
            if (v !== null) send({ type: "sit", seat: seat, cave: v }, "sit");
          }))]);
      return;
    }
    var room = Math.max(0, hi - y.chips);
    caveInput.min = 1; caveInput.max = room;
    if (!caveValid(1, room)) caveInput.value = room;
    var cave = btn("Cave", "cave", function () {
      var v = clampCave(1, room);
      // Emptied once sent: pressing "Cave" again must not add the same amount
      // again; the next drawing fills in what room is left.
      if (v !== null) { send({ type: "cave", amount: v }, "cave"); caveInput.value = ""; }
    });
    cave.disabled = inDeal || room <= 0;
    cave.title = inDeal ? "Entre deux donnes seulement" : room <= 0 ? "Cave maximale atteinte" : "";
    // A practice table: no cave (practice chips, refilled); leaving closes it.
    var row = t.practice ? h("div", { cls: "tl-buttons" },
      btn("Quitter l'entraînement", "leave", function () { send({ type: "leave" }, "leave"); }, "quiet"))
      : h("div", { cls: "tl-buttons" }, caveInput, cave,
        btn("Ramasser ses gains", "leave", function () { send({ type: "leave" }, "leave"); }, "quiet"));
    if (!y.sitting_out) {
      row.appendChild(btn("Se lever", "sit_out", function () { send({ type: "sit_out" }, "sit_out"); }, "quiet"));
    } else {
      var post = h("input", { type: "checkbox", name: "post" });
      row.appendChild(btn("Se rasseoir", "sit_in", function () { send({ type: "sit_in", post: post.checked }, "sit_in"); }));
      if (isPoker()) row.appendChild(h("label", { cls: "tl-check" }, post, "poser la grosse blinde maintenant"));
    }
    if (isPoker() && y.owes_big_blind && !y.sitting_out && !y.post_now) {
      row.appendChild(btn("Poser la grosse blinde", "post", function () { send({ type: "post" }, "post"); }));
    }
    add(elControls, [h("p", { cls: "tl-you" }, "Vous êtes à la place " + (y.seat + 1) + " avec ",
      h("b", { cls: "money", text: fmt(stack) + (t.practice ? " jetons d'entraînement" : " jetons") }),
      inDeal ? " devant vous." : "."), row]);
    var notes = [];
    if (y.owes_big_blind && !y.sitting_out) notes.push(y.post_now ? "Vous poserez la grosse blinde à la prochaine donne."
      : "Vous attendez la grosse blinde (ou posez-la pour entrer tout de suite).");
    if (y.leaving) notes.push("Vous partirez avec vos jetons à la fin de cette donne.");
    if (y.notice) notes.push(y.notice);
    notes.forEach(function (n) { elControls.appendChild(h("p", { cls: "tl-note", text: n })); });
  }
  function firstFree() {
    var t = S.msg.table, taken = {};
    t.players.forEach(function (p) { taken[p.seat] = 1; });
    for (var s = 0; s < t.seats; s++) if (!taken[s]) return s;
    return null;
  }
  function clampCave(lo, hi) {
    var v = Math.round(Number(caveInput.value));
    if (!isFinite(v) || v < lo || v > hi) {
      showError("La cave doit être entre " + fmt(lo) + " et " + fmt(hi) + ".");
      return null;
    }
    return v;
  }

  // --- daily hands and the last deal's result ------------------------------

  function renderHands() {
    var y = me(), hd = y && y.hands;
    clear(elHands);
    if (!hd) return;
    var bank = y.time_bank ? " Réserve de temps : " + Math.round(y.time_bank) + " s." : "";
    // Practice and contest tables count no daily hand: their own sentence
    // (catalogue « hands_practice », « hands_contest »), never "undefined gratuite".
    var text = hd.practice || hd.contest ? hd.why : hd.unlimited ? "Mains du jour : illimitées (votre taverne)."
      : "Mains du jour : " + hd.free + " gratuite" + (hd.free > 1 ? "s" : "") + (hd.paid ? ", " + hd.paid + " payée" + (hd.paid > 1 ? "s" : "") : "") + ".";
    add(elHands, [h("span", { "data-free": hd.free, "data-paid": hd.paid, text: text + bank }),
      !hd.can_deal && hd.why ? h("span", { cls: "tl-note", text: " " + hd.why }) : null]);
  }


  function renderResult() {
    var lr = S.msg.last_result;
    clear(elResult);
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
    add(elResult, [h("h3", { text: "Donne n° " + lr.deal }),
      h("table", { cls: "tl-results" }, rows),
      r.rake ? h("p", { cls: "muted", text: "Rake : " + fmt(r.rake) }) : null,
      GAME.story(r)]);
  }

  // --- the countdown -------------------------------------------------------

  function tick() {
    if (!S.msg) return;
    renderContest();
    var clock = S.msg.table.clock || {}, timer = S.msg.table.timer || 30;
    var gone = (performance.now() - S.at) / 1000;
    var els = elSeats.querySelectorAll(".tl-clock");
    for (var i = 0; i < els.length; i++) {
      var el = els[i], name = el.getAttribute("data-name");
      if (clock[name] === undefined) { el.textContent = ""; el.removeAttribute("style"); continue; }
      var left = Math.max(0, clock[name] - gone);
      el.textContent = Math.ceil(left) + " s";
      el.style.setProperty("--left", Math.min(1, left / timer));
      el.classList.toggle("hurry", left < 5);
    }
  }
  setInterval(tick, 250);

  if (root.getAttribute("data-closed") === "1") {
    // A closed table (served as such): nothing to connect to.
    S.closed = { ecus: {} };
    setStatus("Table fermée", "ko");
    add(elControls, h("p", { cls: "tl-note" }, "Cette table est fermée. ", h("a", { href: "/", text: "Retour au village" })));
  } else {
    connect();
  }
})();
