/* The table's chat (issue 30 §1; docs/protocol.md "Chat"), a module of its
 * own beside the table's shell: table.js owns the socket and hands this
 * module the chat's frames ("tavern:chat" events); it sends through the
 * same socket ("tavern:send").
 *
 * Every text a player wrote is put in the page with textContent, never
 * innerHTML: markup stays text. A reader hides an author for himself
 * (the server stops sending his messages), and reports a message to the
 * admins. The one-click phrases come from the server's catalogue
 * (table.html). */
(function () {
  "use strict";

  var panel = document.getElementById("chat-panel");
  if (!panel) return;
  var ME = panel.getAttribute("data-me") || "";
  var elLines = document.getElementById("chat-lines");
  var elNotice = document.getElementById("chat-notice");
  var elForm = document.getElementById("chat-form");
  var elText = document.getElementById("chat-text");
  var elHidden = document.getElementById("chat-hidden");
  var shown = {};        // message id -> its <li>
  var hidden = [];       // the authors this reader hides
  var noticeTimer = null;

  function send(msg) { document.dispatchEvent(new CustomEvent("tavern:send", { detail: msg })); }

  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;  // never markup
    return e;
  }

  function notice(text, kind) {
    clearTimeout(noticeTimer);
    elNotice.textContent = text || "";
    elNotice.className = "chat-notice" + (kind ? " " + kind : "");
    elNotice.hidden = !text;
    if (text && kind !== "muted") noticeTimer = setTimeout(function () { elNotice.hidden = true; }, 8000);
  }

  function clock(at) {
    var d = new Date(at);
    return isNaN(d) ? "" : d.toLocaleTimeString("fr-FR", { hour: "2-digit", minute: "2-digit" });
  }

  function line(m) {
    if (shown[m.id] || hidden.indexOf(m.author) >= 0) return;
    var li = el("li", "chat-line" + (m.author === ME ? " mine" : ""));
    li.setAttribute("data-id", m.id);
    li.setAttribute("data-author", m.author);
    li.appendChild(el("time", "chat-at", clock(m.at)));
    li.appendChild(el("b", "chat-author", m.author));
    li.appendChild(el("span", "chat-text", m.text));
    if (m.author !== ME) {
      var hide = el("button", "chat-hide small quiet", "Masquer");
      hide.type = "button";
      hide.title = "Ne plus lire " + m.author + " (pour vous seulement)";
      hide.addEventListener("click", function () { send({ type: "chat_hide", author: m.author, hide: true }); });
      var report = el("button", "chat-report small quiet", "Signaler");
      report.type = "button";
      report.title = "Signaler ce message aux administrateurs";
      report.addEventListener("click", function () {
        send({ type: "chat_report", message: m.id });
        report.disabled = true;
        report.textContent = "Signalé";
      });
      li.appendChild(hide);
      li.appendChild(report);
    }
    shown[m.id] = li;
    elLines.appendChild(li);
    while (elLines.children.length > 50) {  // the page keeps what the snapshot would
      var first = elLines.firstChild;
      delete shown[first.getAttribute("data-id")];
      elLines.removeChild(first);
    }
    elLines.scrollTop = elLines.scrollHeight;
  }

  function setHidden(names) {
    hidden = names || [];
    Object.keys(shown).forEach(function (id) {
      if (hidden.indexOf(shown[id].getAttribute("data-author")) >= 0) {
        elLines.removeChild(shown[id]);
        delete shown[id];
      }
    });
    elHidden.textContent = "";
    elHidden.hidden = !hidden.length;
    if (!hidden.length) return;
    elHidden.appendChild(document.createTextNode("Masqués : "));
    hidden.forEach(function (name) {
      var again = el("button", "small quiet", name + " ✕");
      again.type = "button";
      again.title = "Lire de nouveau " + name;
      again.addEventListener("click", function () { send({ type: "chat_hide", author: name, hide: false }); });
      elHidden.appendChild(again);
    });
  }

  function canWrite(yes) {
    elText.disabled = !yes;
    elForm.querySelectorAll("button").forEach(function (b) { b.disabled = !yes; });
  }

  document.addEventListener("tavern:chat", function (ev) {
    var m = ev.detail;
    if (m.type === "chat_log") {
      elLines.textContent = "";
      shown = {};
      setHidden(m.hidden);
      m.messages.forEach(line);
      canWrite(m.may_write);
    } else if (m.type === "chat") {
      line(m);
    } else if (m.type === "chat_deleted") {
      if (shown[m.id]) { elLines.removeChild(shown[m.id]); delete shown[m.id]; }
    } else if (m.type === "chat_muted") {
      notice(m.message, "muted");
    } else if (m.type === "error") {
      notice(m.message, "error");
    } else if (m.type === "ok" && m.result && m.result.hidden) {
      setHidden(m.result.hidden);
    }
  });

  function say(text) {
    text = (text || "").trim();
    if (!text) return;
    send({ type: "chat_say", text: text });
  }

  elForm.addEventListener("submit", function (ev) {
    ev.preventDefault();
    say(elText.value);
    elText.value = "";
  });
  elForm.querySelectorAll("[data-phrase]").forEach(function (b) {
    b.addEventListener("click", function () { say(b.getAttribute("data-phrase")); });
  });
})();
