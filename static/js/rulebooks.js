// Glossary terms: hovering, focusing or tapping one shows it in every language, with a link to
// its row in the page's glossary. A term is itself a link to that row, so a click, Enter, or a
// second tap follows it.
(function () {
  "use strict";
  var dataNode = document.getElementById("rb-glossary");
  var popup = document.getElementById("rb-term-popup");
  if (!dataNode || !popup) { return; }
  var data = JSON.parse(dataNode.textContent);
  var pageLang = document.documentElement.lang || "en";
  var current = null;
  var openBeforeTap = false;

  function termOf(event) {
    return event.target.closest ? event.target.closest(".term") : null;
  }

  function show(term) {
    var key = term.getAttribute("data-term");
    var entry = data.terms[key];
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
    var more = document.createElement("p");
    var link = document.createElement("a");
    link.className = "rb-term-link";
    link.href = "#term-" + key;
    link.textContent = data.link;
    more.appendChild(link);
    popup.appendChild(more);

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

  // Hover is for a mouse only: a tap also fires pointer and focus events, handled on click.
  // Leaving the term hides the popup after a moment, so the mouse can cross into its link.
  var hideTimer = null;
  document.addEventListener("pointerover", function (event) {
    if (event.pointerType !== "mouse") { return; }
    var term = termOf(event);
    if (term || popup.contains(event.target)) {
      clearTimeout(hideTimer);
      hideTimer = null;
      if (term && term !== current) { show(term); }
    } else if (current && hideTimer === null) {
      hideTimer = setTimeout(function () { hideTimer = null; hide(); }, 300);
    }
  });
  document.addEventListener("focusin", function (event) {
    var term = termOf(event);
    if (term) { show(term); }
  });
  document.addEventListener("pointerdown", function (event) {
    var term = termOf(event);
    openBeforeTap = Boolean(term) && term === current && !popup.hidden;
  });
  document.addEventListener("click", function (event) {
    var term = termOf(event);
    if (term) {
      // Touch has no hover: the first tap shows the other languages, the second one (or the
      // link in the popup) goes to the glossary. A mouse click or Enter goes there at once.
      var touch = event.pointerType === "touch" || event.pointerType === "pen";
      if (touch && !openBeforeTap) {
        event.preventDefault();
        show(term);
      } else {
        hide();
      }
      return;
    }
    if (!popup.contains(event.target) || event.target.closest("a")) { hide(); }
  });
  document.addEventListener("keydown", function (event) {
    if (event.key === "Escape") { hide(); }
  });
  window.addEventListener("hashchange", hide);
})();
