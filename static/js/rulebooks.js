// Glossary terms: hovering, focusing or tapping one shows it in every language.
(function () {
  "use strict";
  var dataNode = document.getElementById("rb-glossary");
  var popup = document.getElementById("rb-term-popup");
  if (!dataNode || !popup) { return; }
  var data = JSON.parse(dataNode.textContent);
  var pageLang = document.documentElement.lang || "en";
  var current = null;

  function show(term) {
    var entry = data.terms[term.getAttribute("data-term")];
    if (!entry) { return; }
    var list = document.createElement("dl");
    Object.keys(data.languages).forEach(function (code) {
      if (!entry.terms[code]) { return; }
      var dt = document.createElement("dt");
      dt.textContent = data.languages[code];
      var dd = document.createElement("dd");
      dd.textContent = entry.terms[code];
      dd.lang = code;
      list.appendChild(dt);
      list.appendChild(dd);
    });
    popup.replaceChildren(list);
    var note = entry.notes && (entry.notes[pageLang] || entry.notes.en);
    if (note) {
      var p = document.createElement("p");
      p.textContent = note;
      popup.appendChild(p);
    }
    var box = term.getBoundingClientRect();
    popup.hidden = false;
    popup.style.top = (window.scrollY + box.bottom + 6) + "px";
    var left = window.scrollX + box.left;
    popup.style.left = Math.max(4, Math.min(left, window.scrollX + document.documentElement.clientWidth - popup.offsetWidth - 4)) + "px";
    // The native tooltip would cover ours; keep the text for when the script is not running.
    if (term.hasAttribute("title")) {
      term.setAttribute("data-title", term.getAttribute("title"));
      term.removeAttribute("title");
    }
    term.setAttribute("aria-describedby", "rb-term-popup");
    current = term;
  }

  function hide() {
    popup.hidden = true;
    if (current) { current.removeAttribute("aria-describedby"); }
    current = null;
  }

  document.addEventListener("mouseover", function (event) {
    var term = event.target.closest && event.target.closest(".term");
    if (term && term !== current) { show(term); }
    else if (!term && current && !popup.contains(event.target)) { hide(); }
  });
  document.addEventListener("focusin", function (event) {
    var term = event.target.closest && event.target.closest(".term");
    if (term) { show(term); }
  });
  document.addEventListener("click", function (event) {
    var term = event.target.closest && event.target.closest(".term");
    if (term) { if (term === current && event.pointerType !== "mouse") { hide(); } else { show(term); } return; }
    if (!popup.contains(event.target)) { hide(); }
  });
  document.addEventListener("keydown", function (event) {
    if (event.key === "Escape") { hide(); }
  });
})();
