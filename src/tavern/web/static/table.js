/* The live table's shell: one WebSocket (/ws/tables/{id}), its reconnecting,
 * the server's frames dispatched, the player's commands sent back, and the
 * page redrawn from each "state" frame by the parts below. Nothing in it is
 * any one game's: the game's felt, controls and result story are its module
 * under games/ (poker, rami, rummoli, rams), picked by the table's `view`.
 *
 * The parts every game shares are small modules under table/ (docs/table-ui.md):
 * skeleton.js (the page's frame and its lines), frames.js (the frames' order,
 * the result held, the journal's slices), view.js (what a frame says of the
 * player, and the game modules' `ctx`), seats.js, hand.js, felt.js,
 * actions.js, sitting.js, result.js, closing.js. They share one object `T`
 * (the page's memory `T.S`, its elements `T.el`, the game's module `T.game`,
 * and `send`, `act`, `render`…), made here. Other modules of the page
 * (fair.js, chat.js) follow the table through "tavern:*" events.
 *
 * Plain ES modules, no build step, no external asset (the CSP allows only
 * same-origin scripts). Everything the server sends is the player's own view
 * (see docs/protocol.md); the page only draws it and never guesses hidden
 * cards. The mapping from the protocol to the page is in docs/table-ui.md.
 */
import { ecus } from "./cards.js";
import * as poker from "./games/poker.js";
import * as rami from "./games/rami.js";
import * as rummoli from "./games/rummoli.js";
import * as rams from "./games/rams.js";
import { finished } from "./games/generic.js";
import { build, setStatus, showError, showNotice, showStoreFault, syncPanel } from "./table/skeleton.js";
import { accept, storyOf } from "./table/frames.js";
import { legal, myHand } from "./table/view.js";
import { renderSeats, tickClocks } from "./table/seats.js";
import { renderCenter, renderStory } from "./table/felt.js";
import { renderActions, renderAuto, moves } from "./table/actions.js";
import { renderControls, renderHands, chooseSeat } from "./table/sitting.js";
import { renderResult, resultWords } from "./table/result.js";
import { showClosed, servedClosed, onContest, renderContest } from "./table/closing.js";

/** The page's module for each kind of felt a game's spec names (GameSpec.view,
 *  sent as the table's `view`); "generic" and any view the page does not know
 *  draw with the rami module's generic felt. No game's name is tested here. */
var VIEWS = { holdem: poker, draw_poker: poker, rami: rami, rummoli: rummoli, rams: rams, generic: rami };

(function () {
  "use strict";

  var root = document.getElementById("table-live");
  if (!root) return;
  var TABLE_ID = root.getAttribute("data-table-id");

  // --- the connection ------------------------------------------------------

  var ws = null, attempt = 0, retryTimer = null, nextId = 1;
  var pending = {};           // id -> what was asked, for the error line
  var S = {                   // what the page remembers between frames
    msg: null, at: 0,         // last "state" frame and when it came
    result: null,             // the last result and revealed seed held, and the publication that carried them
    held: null,               // the table's settings and fair commitments held, and the publication that carried them
    heldYou: null,            // and the player's daily hands and seed (frames.js)
    story: [],                // the deal's public events so far (frames.js)
    seatChoice: null,         // the free seat clicked before "Cave"
    selected: [], selKey: "", // cards picked in the hand (discards, plays)
    local: {},                // the game module's own state for this phase (Gin's knock)
    legalKey: "",
    hands: {}                 // deal_no -> {player: category} from the last view of a deal
  };
  // The one object the table's parts share (table/*.js).
  var T = { root: root, S: S, game: rami,  // rami until the first frame says the table's view (render)
    send: send, act: act, render: render, tick: tick,
    setStatus: function (text, kind) { setStatus(T, text, kind); },
    showError: function (text) { showError(T, text); },
    showNotice: function (text) { showNotice(T, text); },
    chooseSeat: function (s) { chooseSeat(T, s); },
    redrawSeats: function () { renderSeats(T); },
    redrawPick: function () { renderSeats(T); renderActions(T); } };

  // Silence: a worker stopped or frozen (SIGSTOP, a starved host) keeps its
  // sockets open and says nothing. After HEARD_MS without a frame the page
  // asks "ping" (its socket's own worker answers "pong", docs/protocol.md);
  // with no frame REPLY_MS later it drops that socket and opens another,
  // which a live worker accepts, saying so until the table's state comes.
  var HEARD_MS = 10000, REPLY_MS = 5000, heardAt = 0, pingedAt = 0, resuming = null;
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

  function connect(why) {
    var proto = location.protocol === "https:" ? "wss:" : "ws:";
    T.setStatus(typeof why === "string" ? why : "Connexion…", "wait");
    heardAt = Date.now(); pingedAt = 0;
    ws = new WebSocket(proto + "//" + location.host + "/ws/tables/" + TABLE_ID);
    ws.onopen = function () {
      // A restarted server counts its frames from zero again: take the next
      // snapshot whatever its number.
      S.fresh = true;
      if (attempt > 0) send({ type: "sync" });  // the server sends a snapshot anyway; ask to be sure
      attempt = 0;
      T.setStatus(resuming || "Connecté", resuming ? "wait" : "ok");
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
      if (S.closed) { T.setStatus(S.closed.practice ? "Entraînement terminé" : "Table fermée", "ko"); return; }  // nothing to come back to
      // Back off: 0.5 s, 1 s, 2 s … up to 15 s, so a dead server is not hammered.
      // Play paused (1013: the server lost its coordinator, docs/protocol.md)
      // is tried again every 2 s: play resumes within seconds of its return.
      var delay = ev.code === 1013 ? 2000 : Math.min(15000, 500 * Math.pow(2, attempt++));
      var why = ev.reason ? " (" + ev.reason + ")" : "";
      T.setStatus("Déconnecté" + why + " — nouvelle tentative dans " + Math.round(delay / 1000) + " s", "ko");
      retryTimer = setTimeout(connect, delay);
    };
  }

  function connected() {
    if (ws && ws.readyState === 1) return true;
    T.showError("Pas de connexion à la table : réessayez dans un instant.");
    return false;
  }

  function send(msg, what) {
    if (!connected()) return;
    msg.id = nextId++;  // an id asks for an "ok" (docs/protocol.md)
    pending[msg.id] = what || msg.type;
    ws.send(JSON.stringify(msg));
  }
  function sync() { send({ type: "sync" }); }

  // A module of the page sends through the table's socket with an event.
  document.addEventListener("tavern:send", function (ev) { send(ev.detail); });

  // A move goes without an id: the next state, which shows it played, is its
  // answer (one frame fewer per move for the server); a refusal still comes
  // as an "error" frame. A new click clears the last refusal's line.
  function act(action, args) {
    if (!connected()) return;
    var m = { type: "act", action: action, args: args || {} };
    if (S.msg) m.seq = S.msg.seq;
    T.showError(null);
    ws.send(JSON.stringify(m));
  }

  function onMessage(m) {
    if (m.type === "state") {
      if (resuming) { resuming = null; T.setStatus("Connecté", "ok"); }
      if (!accept(S, m, sync)) return;  // an older frame overtaken by a newer one (frames.js)
      // Other modules of the page (fair.js) follow the table through events.
      document.dispatchEvent(new CustomEvent("tavern:state", { detail: m }));
      var stale = document.getElementById("static-seats");  // the live felt shows the seats now
      if (stale) stale.hidden = true;
      render();
    } else if (m.type === "closed") {
      // The owner closed the table (or its practice player left): no reconnecting.
      S.closed = m;
      if (retryTimer) { clearTimeout(retryTimer); retryTimer = null; }
      if (ws) ws.close();
      showClosed(T, m);
    } else if (m.type === "contest") {
      onContest(T, m);
    } else if (m.type.indexOf("chat") === 0 || (m.id != null && /^chat/.test(pending[m.id] || ""))) {
      // The table's chat (and the answers to its commands) belong to chat.js.
      if (m.type === "ok" || m.type === "error") delete pending[m.id];
      document.dispatchEvent(new CustomEvent("tavern:chat", { detail: m }));
    } else if (m.type === "error") {
      if (m.id !== null) delete pending[m.id];
      T.showError(m.message);
    } else if (m.type === "ok") {
      delete pending[m.id];
      T.showError(null);
      var r = m.result || {};
      if (r.notice) T.showNotice(r.notice);
      if (r.ecus !== undefined) T.showNotice("Rendu à votre compte : " + ecus(r.ecus) + ".");
    }
  }

  // --- drawing a frame -----------------------------------------------------

  build(T);

  function render() {
    var m = S.msg, d = m.deal;
    T.game = VIEWS[m.table.view] || rami;  // the game's spec says which felt draws it
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
    if (T.game.selectionPhase) phase = T.game.selectionPhase(m.table, phase);
    var key = m.table.deal_no + ":" + phase + ":" + (d ? d.round || 0 : "");
    if (key !== S.selKey) { S.selKey = key; S.selected = []; S.local = {}; }
    var facts = document.getElementById("facts-seats");  // the header's count, live
    if (facts) facts.textContent = m.table.players.length + "/" + m.table.seats;
    if (S.closed) return;  // the closing summary stays as it is
    showStoreFault(T, m.table.store_fault);
    T.keys.before();
    var events = storyOf(S, m, sync);  // before the felt, which shows the last lines
    var myTurn = legal(T).length > 0 && !finished(d), turnStarts = myTurn && !S.myTurn;
    S.myTurn = myTurn;
    renderSeats(T); renderCenter(T); renderActions(T); renderAuto(T); renderControls(T); renderHands(T); renderResult(T);
    renderStory(T, events);
    renderContest(T);
    syncPanel(T); tick();
    T.feel.drawn(m.table.deal_no, root);
    T.feel.turn(legal(T).length > 0 && !finished(d), { seq: m.seq, to_act: d ? d.to_act : null });
    T.speech.follow(m, { events: events, hand: myHand(T), moves: moves(T), result: resultWords(m.last_result),
      board: d && Array.isArray(d.board) ? d.board.length : 0 });
    T.keys.after(turnStarts);
  }

  // The countdown: each seat's clock and the contest's, four times a second.
  function tick() {
    if (!S.msg) return;
    renderContest(T);
    tickClocks(T);
  }
  setInterval(tick, 250);

  if (root.getAttribute("data-closed") === "1") {
    S.closed = { ecus: {} };  // a closed table (served as such): nothing to connect to
    servedClosed(T);
  } else {
    connect();
  }
})();
