/* The live table: one WebSocket (/ws/tables/{id}), the server's "state"
 * frames drawn on a felt, the player's commands sent back.
 *
 * Plain JavaScript, no build step, no external asset (the CSP allows only
 * same-origin scripts). Everything the server sends is the player's own view
 * (see docs/protocol.md); this file only draws it and never guesses hidden
 * cards. The mapping from the protocol to the page is in docs/table-ui.md.
 */
(function () {
  "use strict";

  var root = document.getElementById("table-live");
  if (!root) return;
  var TABLE_ID = root.getAttribute("data-table-id");
  // A phone shows the felt and the buttons first: the table's facts fold away.
  var facts = document.querySelector("details.table-facts");
  if (facts && window.matchMedia && window.matchMedia("(max-width: 700px)").matches) facts.removeAttribute("open");
  var POKER = { ramponneau: true, draw: true };

  // --- small DOM helpers (textContent only: names come from players) -------

  function h(tag, attrs) {
    var el = document.createElement(tag);
    if (attrs) {
      for (var k in attrs) {
        if (!Object.prototype.hasOwnProperty.call(attrs, k)) continue;
        var v = attrs[k];
        if (v === null || v === undefined || v === false) continue;
        if (k === "text") el.textContent = v;
        else if (k === "cls") el.className = v;
        else if (k === "on") { for (var ev in v) el.addEventListener(ev, v[ev]); }
        else if (k === "style") { for (var s in v) el.style.setProperty(s, v[s]); }
        else el.setAttribute(k, v === true ? "" : v);
      }
    }
    for (var i = 2; i < arguments.length; i++) add(el, arguments[i]);
    return el;
  }
  function add(el, child) {
    if (child === null || child === undefined || child === false) return;
    if (Array.isArray(child)) { child.forEach(function (c) { add(el, c); }); return; }
    el.appendChild(typeof child === "string" || typeof child === "number"
      ? document.createTextNode(String(child)) : child);
  }
  function clear(el) { while (el.firstChild) el.removeChild(el.firstChild); }
  function fmt(n) { return Number(n).toLocaleString("fr-FR"); }

  // --- cards ---------------------------------------------------------------

  var SUITS = { c: "♣", d: "♦", h: "♥", s: "♠" };
  var RANKS = { T: "10", J: "V", Q: "D", K: "R", A: "A" };  // French faces: Valet, Dame, Roi
  var CARD_RE = /^([2-9TJQKA][cdhs]|X[0-9]+)$/;
  function isCard(x) { return typeof x === "string" && CARD_RE.test(x); }
  function isCardList(x) { return Array.isArray(x) && x.length > 0 && x.every(isCard); }

  /** A card face: rank and suit symbol, red or black; `X1` is a joker. */
  function card(code, opts) {
    opts = opts || {};
    var cls = "pc face";
    var label, rank, suit;
    if (code[0] === "X") {
      cls += " joker"; rank = "★"; suit = "Joker"; label = "joker";
    } else {
      rank = RANKS[code[0]] || code[0];
      suit = SUITS[code[1]];
      cls += (code[1] === "h" || code[1] === "d") ? " red" : " black";
      label = rank + suit;
    }
    if (opts.cls) cls += " " + opts.cls;
    var el = h(opts.button ? "button" : "span",
      { cls: cls, "data-card": code, title: label, "aria-label": label, type: opts.button ? "button" : null,
        "aria-pressed": opts.button ? String(!!opts.pressed) : null },
      h("span", { cls: "corner" }, h("b", { text: rank }), code[0] === "X" ? null : h("i", { text: suit })),
      h("span", { cls: "pip", text: suit }));
    if (opts.onclick) el.addEventListener("click", opts.onclick);
    return el;
  }
  function back() { return h("span", { cls: "pc back", "aria-label": "carte cachée" }); }
  function cards(list, count) {
    if (Array.isArray(list)) return list.map(function (c) { return isCard(c) ? card(c) : back(); });
    var out = [];
    for (var i = 0; i < (count || 0); i++) out.push(back());
    return out;
  }

  // --- the connection ------------------------------------------------------

  var ws = null, attempt = 0, retryTimer = null, nextId = 1;
  var pending = {};           // id -> what was asked, for the error line
  var S = {                   // what the page remembers between frames
    msg: null, at: 0,         // last "state" frame and when it came
    seatChoice: null,         // the free seat clicked before "Cave"
    selected: [], selKey: "", // cards picked in the hand (discards, plays)
    knock: { on: false, melds: [] }, // Gin: the melds the knocker shows, his choice (gin.py)
    amount: null, legalKey: "",
    hands: {}                 // deal_no -> {player: category} from the last view of a deal
  };

  function connect() {
    var proto = location.protocol === "https:" ? "wss:" : "ws:";
    setStatus("Connexion…", "wait");
    ws = new WebSocket(proto + "//" + location.host + "/ws/tables/" + TABLE_ID);
    ws.onopen = function () {
      // A restarted server counts its frames from zero again: take the next
      // snapshot whatever its number.
      S.fresh = true;
      if (attempt > 0) send({ type: "sync" });  // the server sends a snapshot anyway; ask to be sure
      attempt = 0;
      setStatus("Connecté", "ok");
      document.dispatchEvent(new CustomEvent("tavern:open"));
      root.setAttribute("data-connected", "1");
    };
    ws.onmessage = function (ev) {
      var m;
      try { m = JSON.parse(ev.data); } catch (e) { return; }
      onMessage(m);
    };
    ws.onclose = function (ev) {
      ws = null;
      root.setAttribute("data-connected", "0");
      if (S.closed) { setStatus("Table fermée", "ko"); return; }  // nothing to come back to
      // Back off: 0.5 s, 1 s, 2 s … up to 15 s, so a dead server is not hammered.
      var delay = Math.min(15000, 500 * Math.pow(2, attempt++));
      var why = ev.reason ? " (" + ev.reason + ")" : "";
      setStatus("Déconnecté" + why + " — nouvelle tentative dans " + Math.round(delay / 1000) + " s", "ko");
      retryTimer = setTimeout(connect, delay);
    };
  }

  function send(msg, what) {
    if (!ws || ws.readyState !== 1) { showError("Pas de connexion à la table : réessayez dans un instant."); return; }
    msg.id = nextId++;
    pending[msg.id] = what || msg.type;
    ws.send(JSON.stringify(msg));
  }

  // A module of the page sends through the table's socket with an event.
  document.addEventListener("tavern:send", function (ev) { send(ev.detail); });

  function act(action, args) {
    var m = { type: "act", action: action, args: args || {} };
    if (S.msg) m.seq = S.msg.seq;
    send(m, action);
  }

  function onMessage(m) {
    if (m.type === "state") {
      if (S.msg && !S.fresh && m.seq < S.msg.seq) return;  // an older frame overtaken by a newer one
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
    } else if (m.type === "error") {
      delete pending[m.id];
      showError(m.message);
    } else if (m.type === "ok") {
      delete pending[m.id];
      showError(null);
      var r = m.result || {};
      if (r.notice) showNotice(r.notice);
      if (r.ecus !== undefined) showNotice("Vos gains : " + fmt(r.ecus) + " écus rendus.");
    }
  }

  /** The owner closed the table: say so, show what each player was paid,
   *  and stop (no controls, no reconnecting to a table that is gone). */
  function onClosed(m) {
    S.closed = m;
    if (retryTimer) { clearTimeout(retryTimer); retryTimer = null; }
    if (ws) ws.close();
    setStatus("Table fermée", "ko");
    root.setAttribute("data-closed", "1");
    clear(elControls); clear(elActions); clear(elSeats);  // nobody sits at a closed table
    clear(elCenter); add(elCenter, h("p", { cls: "tl-wait", text: "Table fermée par le patron." }));
    var lines = Object.keys(m.ecus || {}).sort().map(function (name) {
      var won = (m.awards || {})[name];
      return h("li", { "data-player": name }, name + " : " + fmt(m.ecus[name]) + " écus rendus" +
        (won ? " (dont " + fmt(won) + " jetons du pot partagé" + (m.method ? ", " + (METHODS[m.method] || m.method) : "") + ")" : ""));
    });
    add(elControls, [h("div", { cls: "tl-closed" },
      h("p", { cls: "tl-note", text: "Le patron a fermé cette table : chacun a ramassé ses gains." }),
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
  var elPublic = h("div", { cls: "tl-public", "aria-label": "cartes sur la table", hidden: true });
  var elCenter = h("div", { cls: "tl-center" });
  elFelt.appendChild(elCenter);
  var elSeats = h("div", { cls: "tl-seats" });
  elFelt.appendChild(elSeats);
  var elError = h("p", { cls: "tl-error", role: "alert", hidden: true });
  var elNotice = h("p", { cls: "tl-notice", role: "status", hidden: true });
  var elActions = h("div", { cls: "tl-actions", "aria-label": "Vos actions" });
  var elAuto = h("div", { cls: "tl-auto" });
  var elPlay = h("div", { cls: "tl-panel tl-play" }, elError, elNotice, elActions, elAuto);
  var elControls = h("div", { cls: "tl-controls" });
  var elHands = h("p", { cls: "tl-hands" });
  var elResult = h("div", { cls: "tl-result", "aria-live": "polite" });
  var elStory = h("ol", { cls: "tl-story-log", "aria-label": "Journal de la donne" });
  var elStoryBox = h("details", { cls: "tl-panel tl-story-box", open: true },
    h("summary", { text: "Journal de la donne" }), elStory);
  add(root, [elStatus, elContest, elTable, elPublic,
    elPlay,
    h("div", { cls: "tl-panel tl-side" }, elControls, elHands), elResult, elStoryBox]);

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
  function isPoker() { return S.msg && POKER[S.msg.table.game]; }

  function render() {
    var m = S.msg, d = m.deal;
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
    if (m.table.game === "draw" && (phase === "bet" || phase === "draw")) phase = "play";
    var key = m.table.deal_no + ":" + phase + ":" + (d ? d.round || 0 : "");
    if (key !== S.selKey) { S.selKey = key; S.selected = []; S.knock = { on: false, melds: [] }; }
    var facts = document.getElementById("facts-seats");  // the header's count, live
    if (facts) facts.textContent = m.table.players.length + "/" + m.table.seats;
    if (S.closed) return;  // the closing summary stays as it is
    renderSeats(); renderCenter(); renderActions(); renderAuto(); renderControls(); renderHands(); renderResult();
    renderStory(storyOf(m));
    renderContest();
    syncPanel(); tick();
  }

  /** Seats around the oval, the player's own at the bottom. */
  function renderSeats() {
    var m = S.msg, t = m.table, d = m.deal, y = me();
    var bySeat = {};
    t.players.forEach(function (p) { bySeat[p.seat] = p; });
    var inDeal = dealPlayers();
    var mine = myName();
    var n = t.seats, pivot = y ? y.seat : 0;
    var live = d && d.phase !== "over";
    clear(elSeats);
    for (var s = 0; s < n; s++) {
      var angle = Math.PI / 2 + (s - pivot) * 2 * Math.PI / n;  // y grows downwards: pi/2 is the bottom
      var pos = { left: (50 + 43 * Math.cos(angle)) + "%", top: (50 + 37 * Math.sin(angle)) + "%" };
      var p = bySeat[s];
      if (!p) {
        var free = h("div", { cls: "tl-seat free" + (S.seatChoice === s ? " chosen" : ""), "data-seat": s, style: pos });
        if (!y) {
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
      var chips = live && dp && typeof dp.chips === "number" ? dp.chips : p.chips;
      var badges = [];
      if (dp && dp.folded) badges.push("Couché");
      if (dp && dp.all_in) badges.push("Tapis");
      if (p.sitting_out) badges.push("Levé");
      if (p.waiting) badges.push("Attend la grosse blinde");
      if (!p.connected) badges.push("Déconnecté");
      var hand = null;
      if (dp) {
        if (Array.isArray(dp.cards)) hand = cards(dp.cards);
        else if (dp.cards === null || dp.cards === undefined) hand = dp.folded ? [] : cards(null, dp.card_count);
        else if (typeof dp.cards === "number") hand = cards(null, dp.cards);  // rami family: a count
      } else if (d && d.hand_sizes && typeof d.hand_sizes[p.name] === "number") {
        hand = cards(null, d.hand_sizes[p.name]);  // Rams: sizes by name
      }
      if (p.name === mine) { var mh = myHand(); if (mh) hand = [renderMyHand(mh)]; }  // large, clickable
      var seat = h("div", { cls: cls, "data-seat": s, "data-player": p.name, style: pos },
        t.button_seat === s ? h("span", { cls: "tl-button", title: "Donneur (bouton)", text: "D" }) : null,
        h("div", { cls: "tl-name" }, h("b", { text: p.name }), p.name === mine ? h("small", { text: " (vous)" }) : null),
        h("div", { cls: "tl-stack money", "data-chips": chips, text: fmt(chips) + " jetons" }),
        hand && hand.length ? h("div", { cls: "tl-cards" }, hand) : null,
        badges.length ? h("div", { cls: "tl-badges" }, badges.map(function (b) { return h("span", { cls: "badge", text: b }); })) : null,
        h("div", { cls: "tl-clock", "data-name": p.name }));
      elSeats.appendChild(seat);
      // The bet in front of the seat, and the dealer's button.
      var inner = { left: (50 + 27 * Math.cos(angle)) + "%", top: (50 + 21 * Math.sin(angle)) + "%" };
      if (dp && dp.bet) elSeats.appendChild(h("div", { cls: "tl-bet money", "data-player": p.name, style: inner, text: fmt(dp.bet) }));
    }
  }

  var PHASES = { bet: "Enchères", draw: "Tirage", showdown: "Abattage", over: "Donne terminée" };
  var STREETS = ["Avant le flop", "Flop", "Turn", "River"];

  function renderCenter() {
    var m = S.msg, d = m.deal, t = m.table;
    clear(elCenter);
    // The other games' public cards can be many (Rummoli's board, melds):
    // they go on a strip under the felt, not over the seats.
    clear(elPublic);
    elPublic.hidden = !d || isPoker();
    if (d && !isPoker()) elPublic.appendChild(genericPublic(d));
    add(elCenter, h("div", { cls: "tl-title" }, h("b", { text: t.name }), " · ", stakesText(t)));
    if (!d) {
      add(elCenter, h("p", { cls: "tl-wait", text: t.players.length < 2 ? "En attente de joueurs…" : "La donne va commencer…" }));
      return;
    }
    if (isPoker()) {
      var phase = PHASES[d.phase] || d.phase;
      if (d.phase === "bet" && t.game === "ramponneau") phase = STREETS[d.round] || phase;
      if (d.phase === "bet" && t.game === "draw") phase = d.round ? "Second tour d'enchères" : "Premier tour d'enchères";
      add(elCenter, h("div", { cls: "tl-phase", text: phase }));
      if (t.game === "ramponneau") {
        var board = cards(d.board || []);
        for (var i = (d.board || []).length; i < 5; i++) board.push(h("span", { cls: "pc slot" }));
        add(elCenter, h("div", { cls: "tl-board", "aria-label": "cartes communes" }, board));
      }
      add(elCenter, h("div", { cls: "tl-pot money", "data-pot": d.pot, text: "Pot : " + fmt(d.pot) }));
      if (d.drawn) {
        var said = Object.keys(d.drawn).map(function (p) { return p + " : " + (d.drawn[p] ? d.drawn[p] + " carte" + (d.drawn[p] > 1 ? "s" : "") : "servi"); });
        add(elCenter, h("div", { cls: "tl-drawn", text: said.join(" · ") }));
      }
    } else {
      add(elCenter, h("div", { cls: "tl-phase", text: LABELS[d.phase] || d.phase || "" }));
      if (typeof d.pot === "number") add(elCenter, h("div", { cls: "tl-pot money", text: "Pot : " + fmt(d.pot) }));
    }
  }

  function stakesText(t) {
    var s = t.stakes || {};
    if (s.small_blind !== undefined && s.big_blind !== undefined) return "blindes " + s.small_blind + "/" + s.big_blind;
    if (s.small_bet !== undefined) return "petite mise " + s.small_bet;
    if (s.unit !== undefined) return "unité " + s.unit;
    return "";
  }

  /** The player's own cards: poker's players[me].cards or the generic view's hand. */
  function myHand() {
    var d = S.msg.deal, name = myName();
    if (!d || !name) return null;
    if (isPoker()) { var dp = dealPlayers()[name]; return dp && Array.isArray(dp.cards) ? dp.cards : null; }
    return Array.isArray(d.hand) ? d.hand : null;
  }

  function legal() { var y = me(); return (y && y.legal) || []; }
  function findLegal(name) { return legal().filter(function (a) { return a.action === name; })[0]; }

  /** Can the player pick cards of his hand now (draw poker's discards, rami's plays)? */
  function picking() {
    if (!isPoker()) return legal().length > 0;
    var d = S.msg.deal;
    if (S.msg.table.game !== "draw" || !d) return false;
    if (findLegal("draw")) return true;
    // The source lets one pick before his turn to speed the game up.
    return d.phase === "bet" && !d.round && !(d.drawn && d.drawn[myName()] !== undefined);
  }

  function renderMyHand(hand) {
    var can = picking();
    var drawing = can && S.msg.table.game === "draw";  // picked cards are the ones to change
    var wrap = h("div", { cls: "tl-myhand" + (can ? " picking" : "") + (drawing ? " discarding" : ""), "aria-label": "vos cartes" });
    var order = sortOrder(hand);
    if (hand.length >= 7) {  // rami hands (7 to 13 cards): sorted, and the player picks how
      var bar = h("span", { cls: "tl-sort" },
        btn("Trier par couleur", "sort-suit", function () { setSort("suit"); }, "small" + (order === "suit" ? " on" : "")),
        btn("par rang", "sort-rank", function () { setSort("rank"); }, "small" + (order === "rank" ? " on" : "")));
      wrap.appendChild(bar);
      hand = sortHand(hand, order);
    }
    var only = can ? playable() : null;
    hand.forEach(function (c) {
      var on = S.selected.indexOf(c) >= 0;
      var ok = can && (!only || only.indexOf(c) >= 0);  // a card the rules refuse is not clickable
      wrap.appendChild(card(c, {
        button: ok, pressed: on, cls: (on ? "selected" : "") + (can && !ok ? " unplayable" : ""),
        onclick: ok ? function () { toggle(c); } : null
      }));
    });
    return wrap;
  }

  /** The trick and sequence games (Rams, Rummoli) list each card that may be
   *  played: only those are offered in the hand. Null when any card may be
   *  picked (a rami discard, draw poker's changes, a Gin knock's melds). */
  function playable() {
    var acts = legal();
    if (acts.some(function (a) { return Array.isArray(a.cards) && PICK_ONE[a.action]; })) return null;
    var per = acts.filter(function (a) { return isCard(a.card); }).map(function (a) { return a.card; });
    return per.length ? per : null;
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
    var i = S.selected.indexOf(c);
    if (i >= 0) S.selected.splice(i, 1);
    else {
      var dr = findLegal("draw");
      if (dr && dr.max !== undefined && S.selected.length >= dr.max) return;
      // The generic games act on one card at a time (or a whole legal set),
      // except while a Gin knocker gathers the cards of one of his melds.
      if (!isPoker() && !S.knock.on) S.selected = [];
      S.selected.push(c);
    }
    S.legalKey = "";  // the buttons' labels follow the selection
    renderSeats(); renderActions(); tick();
  }

  // --- the actions ---------------------------------------------------------

  function renderActions() {
    var key = JSON.stringify(legal()) + "|" + S.selected.join(",") + "|" + S.msg.seq;
    if (key === S.legalKey) return;  // keep the slider where the player left it
    S.legalKey = key;
    clear(elActions);
    var acts = legal();
    if (!acts.length) {
      var d = S.msg.deal, who = d && d.to_act;
      if (Array.isArray(who)) who = who.join(", ");
      if (d && d.phase !== "over" && who) elActions.appendChild(h("p", { cls: "muted", text: "À " + who + " de parler." }));
      return;
    }
    elActions.appendChild(h("p", { cls: "tl-yourturn", text: "À vous de jouer." }));
    if (isPoker()) pokerActions(acts); else genericActions(acts);
  }

  function pokerActions(acts) {
    var name = myName(), dp = dealPlayers()[name] || {}, d = S.msg.deal;
    var mine = dp.bet || 0, stack = dp.chips || 0, allIn = mine + stack;
    var row = h("div", { cls: "tl-buttons" });
    var sizing = null;
    acts.forEach(function (a) {
      if (a.action === "fold") row.appendChild(btn("Se coucher", "fold", function () { act("fold"); }, "danger"));
      else if (a.action === "check") row.appendChild(btn("Parole", "check", function () { act("check"); }));
      else if (a.action === "call") {
        var pay = a.amount - mine;
        row.appendChild(btn((a.amount >= allIn ? "Tapis — suivre " : "Suivre ") + fmt(pay), "call", function () { act("call"); }));
      } else if (a.action === "bet" || a.action === "raise") sizing = a;
      else if (a.action === "draw") drawButtons(row, a);
      else if (a.action === "show") row.appendChild(btn("Montrer", "show", function () { act("show"); }));
      else if (a.action === "muck") row.appendChild(btn("Jeter", "muck", function () { act("muck"); }, "quiet"));
    });
    elActions.appendChild(row);
    if (sizing) elActions.appendChild(betSizer(sizing, mine, allIn, d));
  }

  function btn(label, action, onclick, extra) {
    return h("button", { type: "button", cls: "tl-act" + (extra ? " " + extra : ""), "data-action": action, text: label,
      on: { click: onclick } });
  }

  /** Draw poker: "Changer N cartes" with the picked cards, or "Servi" (stand pat). */
  function drawButtons(row, a) {
    var k = S.selected.filter(function (c) { return a.cards.indexOf(c) >= 0; });
    var change = btn(k.length ? "Changer " + k.length + " carte" + (k.length > 1 ? "s" : "") : "Changer (choisissez les cartes)",
      "draw", function () { act("draw", { discard: k }); });
    change.disabled = !k.length;
    row.appendChild(h("p", { cls: "tl-hint", text: "Cliquez sur les cartes à changer (au plus " + a.max + ")." }));
    row.appendChild(change);
    row.appendChild(btn("Servi", "stand-pat", function () { act("draw", { discard: [] }); }, "quiet"));
  }

  /** "Miser"/"Relancer" with a slider and a number bounded by the legal min and max. */
  function betSizer(a, mine, allIn, d) {
    var lo = a.min, hi = a.max;
    var word = a.action === "raise" ? "Relancer à " : "Miser ";
    if (S.amount === null || S.amount < lo || S.amount > hi) S.amount = lo;
    var range = h("input", { type: "range", min: lo, max: hi, step: 1, value: S.amount, "aria-label": "montant" });
    var num = h("input", { type: "number", min: lo, max: hi, step: 1, value: S.amount, cls: "tl-amount", "aria-label": "montant" });
    var go = btn("", a.action, function () { act(a.action, { amount: S.amount }); });
    function set(v) {
      v = Math.round(Number(v));
      if (!isFinite(v)) v = lo;
      S.amount = Math.max(lo, Math.min(hi, v));  // clamped to the legal bounds
      range.value = S.amount; num.value = S.amount;
      go.textContent = S.amount === hi && hi === allIn ? "Tapis (" + fmt(hi) + ")" : word + fmt(S.amount);
    }
    range.addEventListener("input", function () { set(range.value); });
    num.addEventListener("change", function () { set(num.value); });
    set(S.amount);
    // Pot fractions: a pot-sized raise is the call plus the pot after the call.
    var high = 0;
    (d.players || []).forEach(function (p) { high = Math.max(high, p.bet || 0); });
    var potAfterCall = d.pot + (high - mine);
    function frac(f) { return function () { set(high + f * potAfterCall); }; }
    if (lo === hi) return h("div", { cls: "tl-sizer" }, go);  // a fixed limit: one amount only
    var shortcuts = h("div", { cls: "tl-fracs" },
      btn("½ pot", "half-pot", frac(0.5), "small"), btn("¾ pot", "three-quarter-pot", frac(0.75), "small"),
      btn("Pot", "pot", frac(1), "small"));
    if (hi === allIn) shortcuts.appendChild(btn("Tapis", "all-in", function () { set(hi); act(a.action, { amount: hi }); }, "small danger"));
    return h("div", { cls: "tl-sizer" }, range, num, go, shortcuts);
  }

  // --- other games: a generic view and one button per legal action ---------

  var WORDS = { draw: "Piocher", discard: "Jeter", lay: "Poser", add: "Ajouter", close: "Fermer", knock: "Frapper",
    gin: "Gin", play: "Jouer", lead: "Entamer", exchange: "Échanger", keep: "Garder", bid: "Enchérir",
    pass: "Passer", speak: "Annoncer", fold: "Se coucher", check: "Parole", call: "Suivre", bet: "Miser",
    raise: "Relancer", show: "Montrer", muck: "Jeter", stock: "la pioche", discard_pile: "la défausse" };
  function word(w) { return WORDS[w] || String(w); }
  /** Names of the generic views' keys and phases, in the players' words. */
  var LABELS = { discard: "défausse", top: "dessus", table: "sur la table", tricks: "plis", played: "joué",
    widow: "la fille", turned: "retournée", trump: "atout", play: "jeu", draw: "pioche", speak: "annonces",
    exchange: "échange", auction: "enchères", betting: "mises", rummoli: "rummoli", over: "donne terminée",
    sequence: "séquence", called: "demandée", cards: "cartes", poker: "poker", shown: "montrées",
    done: "donne terminée", drawn_from_discard: "prise dans la défausse" };

  /** Public card piles of any view: every value made of card codes, labelled by its key. */
  function genericPublic(d) {
    var box = h("div", { cls: "tl-piles" });
    var skip = { hand: 1, legal: 1, legal_actions: 1, players: 1, result: 1, game: 1, phase: 1, to_act: 1 };
    function walk(v, label, depth) {
      if (isCard(v)) { box.appendChild(h("div", { cls: "tl-pile" }, h("small", { text: label }), card(v))); return; }
      if (isCardList(v)) { box.appendChild(h("div", { cls: "tl-pile" }, h("small", { text: label }), cards(v))); return; }
      if (v && typeof v === "object" && typeof v.label === "string" && isCard(v.id)) {  // Rummoli's pay sections
        box.appendChild(h("div", { cls: "tl-pile" }, h("small", { text: v.label + (v.chips ? " · " + fmt(v.chips) : "") + (v.won_by ? " · " + v.won_by : "") }), card(v.id)));
        return;
      }
      if (v && typeof v === "object" && !Array.isArray(v) && isCardList(v.cards)) {  // a meld: its cards, its owner
        box.appendChild(h("div", { cls: "tl-pile" }, h("small", { text: label + (v.owner ? " · " + v.owner : "") }), cards(v.cards)));
        return;
      }
      if (depth > 2 || v === null || typeof v !== "object") return;
      if (Array.isArray(v)) { v.forEach(function (x, i) { walk(x, label + " " + (i + 1), depth + 1); }); return; }
      for (var k in v) walk(v[k], label ? label + " · " + (LABELS[k] || k) : (LABELS[k] || k), depth + 1);
    }
    // Rummoli: the whole board — its pot, the poker pot and every pay
    // section with the chips on it (issue 11 §4), in French card letters.
    if (d.board && Array.isArray(d.pay_sections)) {
      box.appendChild(rummoliBoard(d));
      skip.board = 1; skip.pay_sections = 1;
    }
    // Trick games (Rams): the trick on the table, each card under its player's name.
    var trick = Array.isArray(d.tricks) && d.tricks.length ? d.tricks[d.tricks.length - 1] : null;
    if (trick && !(trick.cards || []).length) { skip.tricks = 1; trick = null; }  // no card played yet: no empty box
    if (trick) {
      box.appendChild(h("div", { cls: "tl-pile tl-trick" }, h("small", { text: "pli n° " + d.tricks.length }),
        (trick.cards || []).map(function (c) {
          return h("span", { cls: "tl-played" }, isCard(c.card) ? card(c.card) : back(), h("small", { text: c.player }));
        })));
      skip.tricks = 1;
    }
    for (var k in d) if (!skip[k]) walk(d[k], LABELS[k] || k, 0);
    if (Array.isArray(d.players)) d.players.forEach(function (p) { if (p.played) walk(p.played, p.player, 1); });
    if (typeof d.stock === "number") box.appendChild(h("div", { cls: "tl-pile" }, h("small", { text: "pioche" }), h("span", { cls: "pc back" }), " " + d.stock));
    return box;
  }

  /** French letters on a section's label: valet, dame, roi. */
  function frenchLabel(text) { return String(text).replace(/J/g, "V").replace(/Q/g, "D").replace(/K/g, "R"); }
  function rummoliBoard(d) {
    var cell = function (label, chips, extra, kids) {
      return h("div", { cls: "tl-section" + (extra || ""), "data-chips": chips },
        h("small", { text: label }), kids || null, h("b", { cls: "money", text: fmt(chips) + " jetons" }));
    };
    var grid = h("div", { cls: "tl-board-rummoli", "aria-label": "le tableau du Rummoli" },
      cell("Pot Rummoli", d.board.rummoli || 0, " tl-pot-rummoli"),
      cell("Pot du poker", d.board.poker || 0, " tl-pot-poker"));
    d.pay_sections.forEach(function (s) {
      var faces = isCard(s.id) ? card(s.id) : s.id === "KdAd" ? cards(["Kd", "Ad"]) : null;
      grid.appendChild(cell(frenchLabel(s.label) + (s.won_by ? " — pour " + s.won_by : ""), s.chips || 0,
        " tl-pay" + (s.won_by ? " won" : ""), faces));
    });
    return grid;
  }

  /** A legal entry names what the action takes; the argument is built from it
   * and from the cards picked in the hand:
   *   {card: c}        one entry per card: send the picked one (play, lead, exchange);
   *   {cards: [..]}    for discard, close, knock, gin: the cards allowed, the picked one sent
   *                    as `card`; for any other action the list is the argument (Rummoli's runs);
   *   {sources: [..]}  one button per source (`source`);  {melds: [[..]]} one per meld (`cards`);
   *   {options: [{..}]} one per option (its own arguments);  {min, max} an amount;
   *   other plain values (choice, blind, grand) are sent as they are. */
  function genericActions(acts) {
    var row = h("div", { cls: "tl-buttons" });
    var sel = S.selected[0];
    var groups = {};
    acts.forEach(function (a) { (groups[a.action] = groups[a.action] || []).push(a); });
    Object.keys(groups).forEach(function (name) {
      var list = groups[name];
      var perCard = list.filter(function (a) { return isCard(a.card); });
      if (perCard.length) {
        var hit = perCard.filter(function (a) { return a.card === sel; })[0];
        var b = btn(name === "exchange"  // Rams: the dealer's swap with the turned card
          ? (hit ? "Échanger " + cardText(sel) + " contre la retournée" : "Échanger une carte (choisissez-la)")
          : word(name) + (hit ? " " + cardText(sel) : " (choisissez une carte)"), name,
          function () { act(name, argsOf(hit)); });
        b.disabled = !hit;
        row.appendChild(b);
      }
      list.forEach(function (a) {
        if (isCard(a.card)) return;
        if (Array.isArray(a.sources)) {
          a.sources.forEach(function (s) {
            row.appendChild(btn(word(name) + " (" + word(s === "discard" ? "discard_pile" : s) + ")", name, function () { act(name, { source: s }); }));
          });
        } else if (Array.isArray(a.melds)) {
          a.melds.forEach(function (m) {
            row.appendChild(btn(word(name) + " " + m.map(cardText).join(" "), name, function () { act(name, { cards: m }); }));
          });
        } else if (Array.isArray(a.options) && name === "move_joker") {
          // Double rami: the legal entry lists the run's free `ends`; the
          // engine takes one `end` (low or high) with the meld and the card.
          a.options.forEach(function (o) {
            (o.ends || []).forEach(function (end) {
              row.appendChild(btn("Remplacer le joker par " + cardText(o.card) + " (joker " +
                (end === "low" ? "en bas" : "en haut") + " de la suite)", name,
                function () { act(name, { meld: o.meld, card: o.card, end: end }); }));
            });
          });
        } else if (Array.isArray(a.options)) {
          a.options.forEach(function (o) {
            row.appendChild(btn(word(name) + " " + (o.cards || []).map(cardText).join(" "), name, function () { act(name, o); }));
          });
        } else if (Array.isArray(a.cards) && PICK_ONE[name]) {
          // The cards he may throw: the picked one goes as `card`.
          if (a.grand) row.appendChild(btn("Grand gin", name, function () { act(name, {}); }));  // gin.py: no card
          if (!a.cards.length) return;
          if (name === "knock") { knockChoice(row, a, sel); return; }
          var ok = a.cards.indexOf(sel) >= 0;
          var b2 = btn(word(name) + (ok ? " " + cardText(sel) : " (choisissez une carte)"), name,
            function () { act(name, { card: sel }); });
          b2.disabled = !ok;
          row.appendChild(b2);
        } else if (isCardList(a.cards)) {
          // The cards are the argument itself (Rummoli's run to play).
          row.appendChild(btn(word(name) + " " + a.cards.map(cardText).join(" "), name, function () { act(name, { cards: a.cards }); }));
        } else if (a.min !== undefined && a.max !== undefined) {
          var n = h("input", { type: "number", min: a.min, max: a.max, value: a.min, cls: "tl-amount", "aria-label": "montant" });
          row.appendChild(h("span", { cls: "tl-sizer" }, n, btn(word(name), name, function () {
            var v = Math.max(a.min, Math.min(a.max, Math.round(Number(n.value) || a.min)));
            act(name, { amount: v });
          })));
        } else {
          var args = argsOf(a);
          var label = CHOICES[name + ":" + (args.choice || "")] ||
            word(name) + Object.keys(args).map(function (k) { return " " + word(args[k]); }).join("");
          row.appendChild(btn(label, name, function () { act(name, args); }));
        }
      });
    });
    elActions.appendChild(row);
  }
  /** Gin: "il pose sur la table huit ou neuf cartes formant des
   * combinaisons" — which melds is the knocker's choice. Left alone the
   * table shows the arrangement best for him; « Choisir mes combinaisons »
   * lets him gather each meld's cards, then pick the card he throws. */
  function knockChoice(row, a, sel) {
    var k = S.knock, used = [].concat.apply([], k.melds);
    if (k.on) {
      var picked = S.selected.slice();
      row.appendChild(h("span", { cls: "tl-knock", text: k.melds.length
        ? "Vos combinaisons : " + k.melds.map(function (m) { return m.map(cardText).join(" "); }).join(" · ")
        : "Choisissez les cartes d'une combinaison." }));
      var keep = btn("Garder cette combinaison" + (picked.length ? " (" + picked.map(cardText).join(" ") + ")" : ""), "knock-meld",
        function () { k.melds.push(picked); S.selected = []; S.legalKey = ""; renderSeats(); renderActions(); });
      keep.disabled = picked.length < 3 || picked.some(function (c) { return used.indexOf(c) >= 0; });
      row.appendChild(keep);
      row.appendChild(btn("Fini : choisir la carte à jeter", "knock-done",
        function () { k.on = false; S.selected = []; S.legalKey = ""; renderSeats(); renderActions(); }));
      return;
    }
    var ok = a.cards.indexOf(sel) >= 0 && used.indexOf(sel) < 0;
    var mine = k.melds.length > 0;
    if (mine) row.appendChild(h("span", { cls: "tl-knock", text: "Vos combinaisons : " +
      k.melds.map(function (m) { return m.map(cardText).join(" "); }).join(" · ") }));
    var b = btn(word("knock") + (ok ? " " + cardText(sel) : " (choisissez une carte)") +
      (mine ? " avec mes combinaisons" : ""), "knock",
      function () { act("knock", mine ? { card: sel, melds: k.melds } : { card: sel }); });
    b.disabled = !ok;
    row.appendChild(b);
    row.appendChild(btn(mine ? "Refaire mes combinaisons" : "Choisir mes combinaisons", "knock-choose",
      function () { S.knock = { on: true, melds: [] }; S.selected = []; S.legalKey = ""; renderSeats(); renderActions(); }, "small"));
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
  var SAID = { fold: "se couche", check: "parle", call: "suit", bet: "mise", raise: "relance à", show: "montre",
    muck: "jette sa main", post: "paie la grosse blinde", discard: "jette", lay: "pose", add: "ajoute",
    knock: "frappe et jette", close: "ferme et jette", lead: "entame", play: "joue", card: "joue", pass: "passe",
    bid: "enchérit", protect: "est protégé (déconnecté)", move_joker: "déplace un joker" };
  var SPEAK = { play: "joue", pass: "passe", widow: "prend la fille", thrown: "prend le jeu jeté", general: "annonce rams général" };
  function storyLine(ev) {
    var who = ev.player || "", by = ev.by === "timeout" ? " (temps écoulé)" : ev.by === "auto" ? " (automatique)" : "";
    var cards = function (cs) { return (cs || []).map(cardText).join(" "); };
    switch (ev.event) {
      case "deal": return "Donne n° " + ev.deal + " : " + (ev.players || []).join(", ") + " ; donneur " + ev.dealer + ".";
      case "draw":
        if (ev.source === "discard") return who + " prend la défausse (" + cardText(ev.card) + ")" + by + ".";
        if (ev.source === "stock") return who + " pioche" + by + ".";
        return who + " change " + (ev.count || 0) + " carte" + (ev.count > 1 ? "s" : "") + by + ".";
      case "gin": return who + (ev.grand ? " fait grand gin" : " fait gin et jette " + cardText(ev.card)) + ".";
      case "speak": return who + " " + (SPEAK[ev.choice] || ev.choice) + by + ".";
      case "exchange": return ev.took ? who + " échange avec la retournée (" + cardText(ev.took) + ")." : who + " garde son jeu.";
      case "trick": return "Pli n° " + ev.number + " pour " + ev.winner + ".";
      case "reshuffle": return "La défausse est rebattue : nouvelle pioche de " + ev.cards + " cartes.";
      case "turn": case "phase": case "lead_due": case "play_starts": return null;
      case "end": return "Fin de la donne" + (ev.winner ? " : " + ev.winner + " l'emporte" : "") + ".";
    }
    if (SAID[ev.event] && who) {
      var what = ev.card ? " " + cardText(ev.card) : ev.cards ? " " + cards(ev.cards) : "";
      var amount = ev.amount !== undefined ? " " + fmt(ev.amount) : "";
      return who + " " + SAID[ev.event] + what + amount + by + ".";
    }
    return null;
  }

  /** Buttons named by what they do (Rams' declarations, the exchange kept). */
  var CHOICES = { "speak:play": "Je joue", "speak:pass": "Je passe", "speak:widow": "Prendre la fille",
    "speak:thrown": "Prendre le jeu jeté", "speak:general": "Rams général",
    "exchange:": "Garder mon jeu (ne pas échanger)" };
  /** Actions whose `cards` lists the cards allowed, one of which is sent as
   * `card` (rami/francais.py, remigio.py, gin.py ACTIONS). */
  var PICK_ONE = { discard: 1, close: 1, knock: 1, gin: 1 };
  function argsOf(a) { var o = {}; if (!a) return o; for (var k in a) if (k !== "action") o[k] = a[k]; return o; }
  function cardText(c) { return c[0] === "X" ? "joker" : (RANKS[c[0]] || c[0]) + SUITS[c[1]]; }

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

  function renderControls() {
    var m = S.msg, t = m.table, y = me(), d = m.deal, name = myName();
    if (t.contest) {  // no cave, no leaving, no sitting out at a contest
      clear(elControls);
      add(elControls, h("p", { cls: "muted", text: "Concours : vous gardez votre place tant qu'il vous reste des jetons ; absent, vous recevez vos cartes et vos coups sont joués (parole ou passe)." }));
      return;
    }
    var inDeal = !!(y && d && d.phase !== "over" && dealPlayers()[name]);
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
          "Place " + (seat + 1) + " : choisissez votre cave (entre " + fmt(lo) + " et " + fmt(hi) + " écus)." }),
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
    var row = h("div", { cls: "tl-buttons" }, caveInput, cave,
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
      h("b", { cls: "money", text: fmt(stack) + " jetons" }), inDeal ? " devant vous." : "."), row]);
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
    var text = hd.unlimited ? "Mains du jour : illimitées (votre taverne)."
      : "Mains du jour : " + hd.free + " gratuite" + (hd.free > 1 ? "s" : "") + (hd.paid ? ", " + hd.paid + " payée" + (hd.paid > 1 ? "s" : "") : "") + ".";
    add(elHands, [h("span", { "data-free": hd.free, "data-paid": hd.paid, text: text + bank }),
      !hd.can_deal && hd.why ? h("span", { cls: "tl-note", text: " " + hd.why }) : null]);
  }

  var CATEGORY = { high_card: "Carte haute", pair: "Paire", two_pair: "Deux paires", three_of_a_kind: "Brelan",
    straight: "Suite", flush: "Couleur", full_house: "Full", four_of_a_kind: "Carré", straight_flush: "Quinte flush" };

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
      story(r)]);
  }

  /** The deal's story in the game's own words, from the public result:
   *  how a rami deal ended and each count, Gin's knock and sheet, Rams'
   *  tricks and who is "rams", Rummoli's sections and pots. */
  var ENDINGS = { rami: "rami : tout posé d'un coup", out: "sortie", stock: "pioche épuisée",
    knock: "frappe", "petit gin": "petit gin", "grand gin": "grand gin", void: "donne annulée (pioche épuisée)" };
  function story(r) {
    var box = h("div", { cls: "tl-story" }), sc = r.scoring || {};
    if (sc.ending) {
      var who = sc.knocker || sc.winner || (sc.winners || []).join(", ");
      box.appendChild(h("p", { cls: "tl-ending", text: "Fin de la donne : " + (ENDINGS[sc.ending] || sc.ending) +
        (who ? " — " + who : "") + (sc.factor > 1 ? " (×" + sc.factor + ")" : "") + "." }));
    }
    if (sc.points && typeof sc.points === "object") {
      box.appendChild(h("p", { cls: "tl-points", text: "Points restés en main : " + Object.keys(sc.points).map(function (p) {
        return p + " " + fmt(sc.points[p]); }).join(", ") + "." }));
    } else if (typeof sc.points === "number" && sc.ending && sc.ending !== "void") {
      box.appendChild(h("p", { cls: "tl-points", text: "Points de la donne : " + fmt(sc.points) +
        (sc.cocottes ? " (cocotte)" : "") + "." }));
    }
    if (sc.paid) box.appendChild(h("p", { text: "Payé : " + Object.keys(sc.paid).map(function (p) {
      return p + " " + fmt(sc.paid[p]) + " jetons"; }).join(", ") + "." }));
    if (sc.sheet && sc.sheet.points) box.appendChild(ginSheet(sc.sheet));
    if (r.tricks && typeof r.tricks === "object" && Object.keys(r.tricks).length) {
      box.appendChild(h("p", { cls: "tl-tricks", text: "Plis : " + Object.keys(r.tricks).map(function (p) {
        return p + " " + r.tricks[p] + (r.tricks[p] === 0 ? " (rams)" : ""); }).join(", ") + "." }));
    }
    if (Array.isArray(r.pots) && r.pots.some(function (x) { return x.section; })) {
      box.appendChild(h("ul", { cls: "tl-sections" }, r.pots.map(function (x) {
        var label = x.section === "poker" ? "pot du poker" : x.section === "rummoli" ? "pot du Rummoli" :
          isCard(x.section) ? cardText(x.section) : String(x.section).split("+").map(function (c) { return isCard(c) ? cardText(c) : c; }).join("+");
        return h("li", { "data-section": x.section }, label + " : " + fmt(x.amount) + " jetons à " + (x.winners || []).join(", "));
      })));
    }
    return box.childNodes.length ? box : null;
  }
  /** Gin's match sheet: three columns of points per player, cocottes. */
  function ginSheet(sheet) {
    var cols = [];
    for (var c = 0; c < (sheet.ncols || 3); c++) cols.push(c);
    return h("table", { cls: "tl-sheet" },
      h("tr", {}, h("th", { text: "Feuille" }), cols.map(function (c) { return h("th", { text: "Colonne " + (c + 1) }); }),
        h("th", { text: "Cocottes" })),
      (sheet.players || []).map(function (p) {
        return h("tr", { "data-player": p }, h("th", { text: p }),
          cols.map(function (c) { return h("td", { cls: "money", text: fmt((sheet.points[p] || [])[c] || 0) }); }),
          h("td", { text: String((sheet.cocottes || {})[p] || 0) }));
      }));
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
