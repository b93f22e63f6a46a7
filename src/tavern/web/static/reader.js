/* « Mode lecteur d'écran » on « Mon compte » (issue 40 §3): a choice this
 * browser keeps (localStorage, like the table's own switches in feel.js).
 * Ticked, it turns the table's animations and its chime off (the keys
 * feel.js reads) and says so; the live region and the keys (speech.js,
 * keys.js) are there for everyone, with or without it. */
var box = document.getElementById("reader-mode");
function get(k) { try { return localStorage.getItem(k); } catch (e) { return null; } }
function set(k, v) { try { localStorage.setItem(k, v); } catch (e) { /* private mode: nothing kept */ } }
if (box) {
  box.checked = get("tavern.reader") === "on";
  box.addEventListener("change", function () {
    set("tavern.reader", box.checked ? "on" : "off");
    if (box.checked) { set("tavern.motion", "off"); set("tavern.sound", "off"); }
  });
}
