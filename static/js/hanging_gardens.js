// The Hanging Gardens board: choose a building card, turn it, see where it would go and
// place it; choose a temple's square. Without JavaScript the forms still work: each lists
// every legal move in a <select name="move">. This script only picks the matching option of
// that select and submits its form, so nothing illegal can be sent.
(function () {
  "use strict";
  if (window.hangingGardensBoard) { window.hangingGardensBoard.init(); return; }

  var CELL = 28;
  var chosen = { card: null, rotation: null, spot: null };
  var pointer = "mouse";

  function inBoard(selector) { return document.querySelector("#game-board " + selector); }
  function allInBoard(selector) { return document.querySelectorAll("#game-board " + selector); }

  function cardButton(card) {
    return inBoard('.hg-card-choice[data-rotations][data-card="' + card + '"]');
  }

  function rotationsOf(card) {
    var button = cardButton(card);
    return button ? button.getAttribute("data-rotations").split(" ").filter(Boolean) : [];
  }

  function preview() {
    return inBoard('.hg-preview[data-card="' + chosen.card + '"][data-rotation="' + chosen.rotation + '"]');
  }

  function hidePreviews() {
    allInBoard(".hg-preview").forEach(function (g) { g.classList.add("hg-off"); });
  }

  function showPreviewAt(spot) {
    hidePreviews();
    var g = preview();
    if (!g || !spot) { return; }
    g.setAttribute("transform", "translate(" + spot.getAttribute("x") + " " + spot.getAttribute("y") + ")");
    g.classList.remove("hg-off");
  }

  function updateConfirm() {
    var button = inBoard("[data-hg-action=place]");
    if (button) { button.disabled = !chosen.spot; }
  }

  // Show the places of one card in one rotation (and only those: the others are hidden and
  // out of the keyboard's way).
  function selectCard(card, rotation) {
    chosen.card = card;
    chosen.rotation = rotation;
    chosen.spot = null;
    allInBoard(".hg-card-choice[data-rotations]").forEach(function (button) {
      button.setAttribute("aria-pressed", button.getAttribute("data-card") === card ? "true" : "false");
    });
    allInBoard(".hg-turned-card").forEach(function (picture) {
      var on = picture.getAttribute("data-card") === card && picture.getAttribute("data-rotation") === rotation;
      picture.classList.toggle("hg-off", !on);
    });
    allInBoard(".hg-spots").forEach(function (group) {
      var on = group.getAttribute("data-card") === card && group.getAttribute("data-rotation") === rotation;
      group.classList.toggle("hg-off", !on);
      if (on) { group.setAttribute("data-roving", ""); } else { group.removeAttribute("data-roving"); }
      group.querySelectorAll(".hg-spot").forEach(function (spot, index) {
        spot.classList.remove("hg-chosen");
        spot.setAttribute("tabindex", on && index === 0 ? "0" : "-1");
      });
    });
    hidePreviews();
    updateConfirm();
  }

  // Turning the card shows its places in the new rotation. When the keyboard's focus was on a
  // square, it stays on the same square if the turned card may go there (else on the first
  // place), and that place is chosen: the focus never falls back to the page, and "Place it
  // here" stays ready.
  function turnCard() {
    var rotations = rotationsOf(chosen.card);
    if (!rotations.length) { return; }
    var active = document.activeElement;
    var focused = active && active.closest ? active.closest("#game-board .hg-spot") : null;
    var next = rotations[(rotations.indexOf(chosen.rotation) + 1) % rotations.length];
    selectCard(chosen.card, next);
    var group = inBoard(".hg-spots:not(.hg-off)");
    var first = group ? group.querySelector(".hg-spot") : null;
    if (!focused || !first) {
      if (first) { showPreviewAt(first); }
      return;
    }
    var same = group.querySelector('.hg-spot[data-x="' + focused.getAttribute("data-x") +
      '"][data-y="' + focused.getAttribute("data-y") + '"]');
    var spot = same || first;
    group.querySelectorAll(".hg-spot").forEach(function (s) {
      s.setAttribute("tabindex", s === spot ? "0" : "-1");
    });
    spot.focus();
    chooseSpot(spot);
  }

  function chooseSpot(spot) {
    allInBoard(".hg-spot.hg-chosen").forEach(function (s) { s.classList.remove("hg-chosen"); });
    spot.classList.add("hg-chosen");
    chosen.spot = spot;
    showPreviewAt(spot);
    var key = chosen.card + ":" + chosen.rotation + ":" + spot.getAttribute("data-x") + ":" + spot.getAttribute("data-y");
    var option = inBoard('.hg-placement-select option[data-key="' + key + '"]');
    if (option) { option.selected = true; }
    updateConfirm();
  }

  function submit(form) {
    if (!form) { return; }
    if (form.requestSubmit) { form.requestSubmit(); } else { form.submit(); }
  }

  function placeChosen() {
    if (chosen.spot) { submit(inBoard(".hg-place-form")); }
  }

  // --- temples: which temple moves (all five out), then the square ---------------------------

  function chosenSource() {
    return inBoard('.hg-temple.hg-source[aria-pressed="true"]');
  }

  function buildTemple(target) {
    var key = target.getAttribute("data-x") + ":" + target.getAttribute("data-y");
    var source = chosenSource();
    var selector = '.hg-temple-select option[data-key="' + key + '"]';
    if (source) {
      selector = '.hg-temple-select option[data-key="' + key + ":" + source.getAttribute("data-x") + ":" + source.getAttribute("data-y") + '"]';
    } else if (inBoard('.hg-temple-select option[data-key^="' + key + ':"]')) {
      selector = '.hg-temple-select option[data-key^="' + key + ':"]';
    }
    var option = inBoard(selector);
    if (!option) { return; }
    option.selected = true;
    submit(inBoard(".hg-temple-form"));
  }

  function pickSource(temple) {
    allInBoard(".hg-temple.hg-source[role=button]").forEach(function (t) {
      t.setAttribute("aria-pressed", t === temple ? "true" : "false");
    });
  }

  // --- events --------------------------------------------------------------------------------

  document.addEventListener("pointerdown", function (event) {
    pointer = event.pointerType || "mouse";
  }, true);

  document.addEventListener("click", function (event) {
    var target = event.target;
    if (!target.closest || !target.closest("#game-board .hg")) { return; }
    var card = target.closest(".hg-card-choice[data-rotations]");
    if (card) {
      selectCard(card.getAttribute("data-card"), rotationsOf(card.getAttribute("data-card"))[0]);
      return;
    }
    if (target.closest("[data-hg-action=rotate]")) { turnCard(); return; }
    if (target.closest("[data-hg-action=place]")) { placeChosen(); return; }
    var spot = target.closest(".hg-spot");
    if (spot) {
      // A mouse previews on hover, so a click places; a finger has no hover, so the first
      // tap shows the card there and a second tap on the same square places it.
      var again = chosen.spot === spot;
      chooseSpot(spot);
      if (pointer === "mouse" || again) { placeChosen(); }
      return;
    }
    var source = target.closest(".hg-temple.hg-source[role=button]");
    if (source) { pickSource(source); return; }
    var place = target.closest(".hg-target");
    if (place) { buildTemple(place); }
  });

  document.addEventListener("mouseover", function (event) {
    var spot = event.target.closest && event.target.closest("#game-board .hg-spot");
    if (spot && pointer === "mouse") { showPreviewAt(spot); }
  });

  document.addEventListener("mouseout", function (event) {
    var spot = event.target.closest && event.target.closest("#game-board .hg-spot");
    if (spot && pointer === "mouse") { showPreviewAt(chosen.spot); }
  });

  // The keyboard's focus on a place shows the card there; a tap or a click is handled above.
  // The browser tells the two apart (:focus-visible): a tap's focus comes after the finger is
  // lifted and just before its click, and taken for the keyboard's, it made the click that
  // follows a "second tap" that placed the card at once.
  document.addEventListener("focusin", function (event) {
    var spot = event.target.closest && event.target.closest("#game-board .hg-spot");
    if (spot && spot.matches(":focus-visible")) { chooseSpot(spot); }
  });

  document.addEventListener("keydown", function (event) {
    var target = event.target;
    if (!target.closest || !document.querySelector("#game-board .hg")) { return; }
    var enter = event.key === "Enter" || event.key === " ";
    var spot = target.closest(".hg-spot");
    if (spot && enter) { event.preventDefault(); chooseSpot(spot); placeChosen(); return; }
    var place = target.closest(".hg-target");
    if (place && enter) { event.preventDefault(); buildTemple(place); return; }
    var source = target.closest(".hg-temple.hg-source[role=button]");
    if (source && enter) { event.preventDefault(); pickSource(source); return; }
    if (/^(INPUT|SELECT|TEXTAREA)$/.test(target.tagName) || event.altKey || event.ctrlKey || event.metaKey) { return; }
    if (event.key === "r" && inBoard(".hg-place-form")) { event.preventDefault(); turnCard(); }
  });

  // A placement chosen from the list is shown on the board as a click on its square would
  // show it: the card and turn chosen, the square marked, and "Place it here" ready.
  document.addEventListener("change", function (event) {
    var select = event.target.closest ? event.target.closest("#game-board .hg-placement-select") : null;
    if (!select || !select.selectedOptions.length) { return; }
    var parts = (select.selectedOptions[0].getAttribute("data-key") || "").split(":");
    if (parts.length !== 4) { return; }
    selectCard(parts[0], parts[1]);
    var group = inBoard('.hg-spots[data-card="' + parts[0] + '"][data-rotation="' + parts[1] + '"]');
    var spot = group ? group.querySelector('.hg-spot[data-x="' + parts[2] + '"][data-y="' + parts[3] + '"]') : null;
    if (spot) { chooseSpot(spot); }
  });

  // Set up a board once each time one is drawn: a new board, or the same one brought to another
  // revision by a live update of its changed parts (static/js/game.js). Other live messages
  // (the notification badge, the lobby) also end in htmx events; they must not undo the
  // member's choice of a square.
  var drawnBoard = null, drawnAs = "";

  function init() {
    if (!inBoard(".hg")) { return; }
    var current = document.getElementById("game-board");
    var as = current.getAttribute("data-version") + " " + current.getAttribute("data-stamp");
    if (current === drawnBoard && as === drawnAs) { return; }
    drawnBoard = current;
    drawnAs = as;
    var sources = allInBoard(".hg-temple.hg-source[role=button]");
    if (sources.length && !chosenSource()) { sources[0].setAttribute("aria-pressed", "true"); }
    sources.forEach(function (t, index) { t.setAttribute("tabindex", index === 0 ? "0" : "-1"); });
    var first = inBoard(".hg-card-choice[data-rotations]");
    if (!first) { chosen.card = null; return; }
    // Keep the member's card and turn across a redraw of the same step.
    var card = cardButton(chosen.card) ? chosen.card : first.getAttribute("data-card");
    var rotations = rotationsOf(card);
    var rotation = rotations.indexOf(chosen.rotation) >= 0 ? chosen.rotation : rotations[0];
    selectCard(card, rotation);
  }

  document.addEventListener("DOMContentLoaded", init);
  document.addEventListener("htmx:afterSettle", init);
  document.addEventListener("htmx:wsAfterMessage", init);
  window.hangingGardensBoard = { init: init };
  init();
})();
