// Game pages: live board updates with gap recovery, the placement picker, replay keys.
(function () {
  "use strict";

  function currentBoard() { return document.getElementById("game-board"); }

  function currentRevision() {
    var board = currentBoard();
    return board ? parseInt(board.getAttribute("data-version"), 10) : -1;
  }

  // An incremental update being taken (below): htmx swaps its parts in, then the attributes
  // it carries are given to the board and its parts, before anything else looks at them.
  var takenPatch = null;
  document.addEventListener("htmx:wsAfterMessage", function () {
    if (takenPatch) { takeAttributes(takenPatch); takenPatch = null; }
  });

  // DESIGN.md principle 7: sockets are hints. The board is fetched over HTTP whenever a
  // message may have been missed; the server answers 204 when nothing changed.
  function refreshBoard() {
    var live = document.getElementById("game-live");
    if (!live || !window.htmx) { return; }
    var board = currentBoard();
    var stamp = board ? board.getAttribute("data-stamp") || "" : "";
    var url = live.getAttribute("data-board-url") + "?known=" + currentRevision() +
      "&stamp=" + encodeURIComponent(stamp);
    window.htmx.ajax("GET", url, { target: "#game-board", swap: "outerHTML" });
  }

  // A finished game's board without its final ranks and ratings (the end-of-game task has
  // not stored them yet, or its announcement crossed our own move's answer): ask again.
  // At most five times, 2 s apart; an answer of 204 (nothing new yet) counts too.
  var pendingTimer = null, pendingTries = 0;
  function fetchResultsLater() {
    var board = currentBoard();
    if (!board || !board.hasAttribute("data-results-pending")) { pendingTries = 0; return; }
    if (pendingTimer || pendingTries >= 5) { return; }
    pendingTries += 1;
    pendingTimer = window.setTimeout(function () { pendingTimer = null; refreshBoard(); }, 2000);
  }
  document.addEventListener("htmx:afterSettle", fetchResultsLater);
  document.addEventListener("htmx:afterRequest", fetchResultsLater);
  document.addEventListener("htmx:wsAfterMessage", fetchResultsLater);
  document.addEventListener("DOMContentLoaded", fetchResultsLater);

  document.addEventListener("htmx:wsOpen", function (event) {
    if (event.target.id === "game-live") { refreshBoard(); }
  });

  // --- incremental updates (games/board_patches.py) ------------------------------------------
  // A message that starts with a template naming its base (data-base-version, data-base-stamp)
  // holds only the parts of the board that changed, each swapped in by its id, and templates
  // naming the parts (the board first) whose attributes become theirs. It is applied only to
  // exactly its base, all its parts present; any other board fetches itself over HTTP.
  var PATCH_START = '<template hx-swap-oob="none:#game-board" data-patch-of="game-board"';

  function patchOf(message) {
    if (message.lastIndexOf(PATCH_START, 0) !== 0) { return null; }
    var holder = document.createElement("template");
    holder.innerHTML = message;
    return holder.content;
  }

  function appliesTo(patch, board) {
    var marker = patch.firstElementChild;
    if (board.querySelector(".move-error")) { return false; }  // the answer to a refused move
    if (board.getAttribute("data-version") !== marker.getAttribute("data-base-version") ||
        board.getAttribute("data-stamp") !== marker.getAttribute("data-base-stamp")) { return false; }
    return Array.prototype.every.call(patch.children, function (part) {
      var id = part.getAttribute("data-patch-of") || part.id;
      return id === "game-board" || (id && board.querySelector("#" + CSS.escape(id)));
    });
  }

  var PATCH_ATTRIBUTES = ["hx-swap-oob", "data-patch-of", "data-base-version", "data-base-stamp"];

  function takeAttributes(patch) {
    patch.querySelectorAll("template[data-patch-of]").forEach(function (update) {
      var target = document.getElementById(update.getAttribute("data-patch-of"));
      Array.prototype.slice.call(target.attributes).forEach(function (attribute) {
        if (attribute.name !== "id" && !update.hasAttribute(attribute.name)) {
          target.removeAttribute(attribute.name);
        }
      });
      Array.prototype.forEach.call(update.attributes, function (attribute) {
        if (PATCH_ATTRIBUTES.indexOf(attribute.name) < 0) {
          target.setAttribute(attribute.name, attribute.value);
        }
      });
    });
  }

  function takePatch(event, patch) {
    var marker = patch.firstElementChild;
    var incoming = parseInt(marker.getAttribute("data-version"), 10);
    var board = currentBoard();
    var known = currentRevision();
    if (board && (incoming < known || (incoming === known &&
        board.getAttribute("data-stamp") === marker.getAttribute("data-stamp")))) {
      event.preventDefault();  // already showing it, or newer (our own move's answer)
    } else if (!board || !appliesTo(patch, board)) {
      event.preventDefault();
      refreshBoard();
    } else {
      // htmx swaps the parts in by their ids; the attributes follow (htmx:wsAfterMessage).
      keepInput();
      takenPatch = patch;
    }
  }

  document.addEventListener("htmx:wsBeforeMessage", function (event) {
    if (event.target.id !== "game-live") { return; }
    takenPatch = null;
    if (event.defaultPrevented) { return; }  // another script dropped it
    var patch = patchOf(event.detail.message || "");
    if (patch) { takePatch(event, patch); return; }
    var match = /data-version="(\d+)"/.exec(event.detail.message || "");
    if (!match) { return; }
    var incoming = parseInt(match[1], 10);
    var known = currentRevision();
    var stamp = /data-stamp="([^"]*)"/.exec(event.detail.message || "");
    var board = currentBoard();
    var sameStamp = !stamp || (board && board.getAttribute("data-stamp") === stamp[1]);
    if (incoming < known || (incoming === known && sameStamp)) {
      // Already showing this (our own move came back over HTTP first): keep the board, and
      // with it whatever the player has picked. Same move number with a new stamp means the
      // results were stored, or a seat changed hands: take that one.
      event.preventDefault();
    } else if (incoming > known + 1) {
      event.preventDefault();
      refreshBoard();
    } else {
      keepInput();
    }
  });

  // --- what a member is entering survives another seat's move -------------------------------
  // A form marked data-keep-input (a choice made over several fields) is drawn anew with the
  // board whenever another seat moves. What the member had entered goes back into the same
  // form of the new board, and its fields announce the change, so the game's script judges
  // the choice again: a member never hands in, unseen, the empty form the new board brought.
  // Hidden fields (the revision the move answers) and the list of moves are the new board's.
  var keptInput = null;

  function fieldKey(field) {
    var data = Object.keys(field.dataset).sort().map(function (k) {
      return k + "=" + field.dataset[k];
    });
    return [field.name || "", field.type, data.join("&")].join("|");
  }

  function isChoice(field) { return field.type === "checkbox" || field.type === "radio"; }

  function keepInput() {
    var board = currentBoard();
    var form = board && board.querySelector("form[data-keep-input][data-touched]");
    // No touched form: a board swapped in over HTTP whose input has not been put back yet
    // (htmx does that once it has settled it) keeps what was kept for it.
    if (!form) { return; }
    var values = {};
    form.querySelectorAll("input:not([type=hidden])").forEach(function (field) {
      values[fieldKey(field)] = isChoice(field) ? field.checked : field.value;
    });
    keptInput = { name: form.getAttribute("data-keep-input"), values: values };
  }

  function restoreInput() {
    var kept = keptInput;
    keptInput = null;
    var board = currentBoard();
    if (!kept || !board) { return; }
    var form = Array.prototype.filter.call(board.querySelectorAll("form[data-keep-input]"),
      function (f) { return f.getAttribute("data-keep-input") === kept.name; })[0];
    if (!form) { return; }
    var restored = [];
    form.querySelectorAll("input:not([type=hidden])").forEach(function (field) {
      var key = fieldKey(field);
      if (!(key in kept.values)) { return; }
      if (isChoice(field)) { field.checked = kept.values[key]; } else { field.value = kept.values[key]; }
      restored.push(field);
    });
    form.setAttribute("data-touched", "");
    // After the game's own script has set up the new form (it listens to the same event).
    window.setTimeout(function () {
      restored.forEach(function (field) {
        field.dispatchEvent(new Event("input", { bubbles: true }));
      });
    }, 0);
  }

  document.addEventListener("input", function (event) {
    var form = event.target.closest && event.target.closest("#game-board form[data-keep-input]");
    if (form) { form.setAttribute("data-touched", ""); }
  });
  document.addEventListener("htmx:beforeSwap", function (event) {
    if (event.detail.target && event.detail.target.id === "game-board") { keepInput(); }
  });

  // --- placing a tile: pick a highlighted place, rotate, see the preview, confirm ---------

  function placeSelect() { return document.querySelector("#game-board .placement-select"); }

  function showSelected() {
    var select = placeSelect();
    if (!select) { return; }
    var option = select.options[select.selectedIndex];
    if (!option) { return; }
    var board = currentBoard();
    board.querySelectorAll(".preview.shown").forEach(function (g) { g.classList.remove("shown"); });
    board.querySelectorAll(".spot.selected").forEach(function (s) { s.classList.remove("selected"); });
    var preview = board.querySelector('.preview[data-index="' + option.getAttribute("data-index") + '"]');
    if (preview) { preview.classList.add("shown"); }
    var spot = board.querySelector('.spot[data-q="' + option.getAttribute("data-q") + '"][data-r="' + option.getAttribute("data-r") + '"]');
    if (!spot) { return; }
    spot.classList.add("selected");
    // The chosen place is the city's tab stop (unless the keyboard is on a place of the city
    // now), so a placement chosen from the list is where the focus comes back to the city.
    var active = document.activeElement;
    if (!(active && active.closest && active.closest(".spot"))) {
      rovingItems(spot.closest("[data-roving]")).forEach(function (item) {
        item.setAttribute("tabindex", item === spot ? "0" : "-1");
      });
    }
  }

  function chooseSpot(spot) {
    var select = placeSelect();
    if (!select) { return; }
    var q = spot.getAttribute("data-q"), r = spot.getAttribute("data-r");
    for (var i = 0; i < select.options.length; i++) {
      var option = select.options[i];
      if (option.getAttribute("data-q") === q && option.getAttribute("data-r") === r) {
        select.selectedIndex = i;
        break;
      }
    }
    showSelected();
  }

  function rotate() {
    var select = placeSelect();
    if (!select) { return; }
    var current = select.options[select.selectedIndex];
    var same = [];
    for (var i = 0; i < select.options.length; i++) {
      var option = select.options[i];
      if (option.getAttribute("data-q") === current.getAttribute("data-q") &&
          option.getAttribute("data-r") === current.getAttribute("data-r")) { same.push(i); }
    }
    select.selectedIndex = same[(same.indexOf(select.selectedIndex) + 1) % same.length];
    showSelected();
  }

  document.addEventListener("click", function (event) {
    var spot = event.target.closest && event.target.closest("#game-board .spot");
    if (spot) { chooseSpot(spot); focusConfirm(); return; }
    if (event.target.closest && event.target.closest("#game-board [data-action=rotate]")) { rotate(); }
  });

  document.addEventListener("change", function (event) {
    if (event.target.classList && event.target.classList.contains("placement-select")) { showSelected(); }
  });

  // --- keyboard: each board area is one tab stop, arrows move between its places ----------
  // (a roving tabindex: the focused place has tabindex 0, the others -1).

  function rovingItems(container) {
    return Array.prototype.slice.call(container.querySelectorAll("[data-roving-item]"));
  }

  function initRoving() {
    document.querySelectorAll("#game-board [data-roving]").forEach(function (container) {
      var items = rovingItems(container);
      if (!items.length) { return; }
      var current = items.filter(function (i) { return i.getAttribute("tabindex") === "0"; })[0] || items[0];
      items.forEach(function (i) { i.setAttribute("tabindex", i === current ? "0" : "-1"); });
    });
  }

  function centre(element) {
    var box = element.getBoundingClientRect();
    return { x: box.left + box.width / 2, y: box.top + box.height / 2 };
  }

  var DIRECTIONS = { ArrowRight: [1, 0], ArrowLeft: [-1, 0], ArrowDown: [0, 1], ArrowUp: [0, -1] };

  // The nearest place in the arrow's direction; at the edge, the next or previous in order.
  function neighbour(items, from, key) {
    var dir = DIRECTIONS[key], here = centre(from), best = null, bestCost = Infinity;
    items.forEach(function (item) {
      if (item === from) { return; }
      var c = centre(item), dx = c.x - here.x, dy = c.y - here.y;
      var along = dx * dir[0] + dy * dir[1];
      var across = Math.abs(dx * dir[1] - dy * dir[0]);
      if (along <= 1 || across > along * 1.5) { return; }
      var cost = along + across * 2;
      if (cost < bestCost) { bestCost = cost; best = item; }
    });
    if (best) { return best; }
    var index = items.indexOf(from), step = dir[0] + dir[1];
    return items[(index + step + items.length) % items.length];
  }

  function moveFocus(item) {
    var container = item.closest("[data-roving]");
    rovingItems(container).forEach(function (i) { i.setAttribute("tabindex", i === item ? "0" : "-1"); });
    item.focus();
  }

  function focusConfirm() {
    var confirm = document.querySelector("#game-board .confirm-button");
    if (confirm) { confirm.focus(); }
  }

  document.addEventListener("keydown", function (event) {
    var target = event.target;
    var item = target.closest && target.closest("#game-board [data-roving-item]");
    if (item && DIRECTIONS[event.key]) {
      event.preventDefault();
      moveFocus(neighbour(rovingItems(item.closest("[data-roving]")), item, event.key));
      return;
    }
    if (item && item.classList.contains("spot") && (event.key === "Enter" || event.key === " ")) {
      event.preventDefault();
      chooseSpot(item);
      focusConfirm();
      return;
    }
    if (/^(INPUT|SELECT|TEXTAREA)$/.test(target.tagName) || event.altKey || event.ctrlKey || event.metaKey) { return; }
    var replay = document.getElementById("replay");
    if (replay) {
      var link = replay.querySelector('[data-key="' + event.key + '"]');
      if (link) { event.preventDefault(); link.click(); }
      return;
    }
    if (event.key === "r" && placeSelect()) { rotate(); }
  });

  // After the member's own move the new board comes back, over HTTP or first over the socket
  // (then htmx drops the HTTP answer of a form no longer on the page). Whichever brings the
  // new move number moves the focus: to the next place to act (the board's tab stop) or,
  // when the turn passed, to the turn bar, which stays in view. A board that marks where its
  // next choice is made (data-next-choice: a step of the same turn that lies far from the
  // turn bar on a phone) has that part brought into view instead, and the focus on its first
  // place to act, scrolled to only if that part's top did not bring it into sight.
  var ownMoveFrom = null, ownMoveUntil = 0;
  document.addEventListener("htmx:beforeRequest", function (event) {
    var form = event.target.closest && event.target.closest("#game-board form");
    if (form && (form.querySelector("[name=move]") || form.hasAttribute("data-take-back"))) {
      ownMoveFrom = currentRevision();
      ownMoveUntil = Date.now() + 5000;
    }
  });

  function focusAfterMove() {
    if (ownMoveFrom === null || Date.now() > ownMoveUntil || currentRevision() <= ownMoveFrom) { return; }
    whenStyled(currentBoard(), focusNextChoice);
  }

  // A board brings its game's stylesheet; until the browser has applied it again the board is
  // drawn without it (far taller), and what was scrolled into view would slide away.
  function whenStyled(board, then) {
    var loading = Array.prototype.filter.call(board.querySelectorAll("link[rel=stylesheet]"),
      function (link) { return !link.sheet; })[0];
    if (!loading) { then(); return; }
    var done = false;
    function once() { if (!done) { done = true; then(); } }
    loading.addEventListener("load", once);
    loading.addEventListener("error", once);
  }

  function focusNextChoice() {
    var board = currentBoard();
    if (!board) { return; }
    var next = board.querySelector('[data-roving] [data-roving-item][tabindex="0"]');
    var choice = board.querySelector("[data-next-choice]");
    if (choice) {
      choice.scrollIntoView({ block: "start" });
      var first = choice.querySelector('[data-roving] [data-roving-item][tabindex="0"]') || next ||
        choice.querySelector("button, select");
      if (first) { first.focus(); }
      return;
    }
    var bar = board.querySelector(".turn-bar");
    if (bar) { bar.scrollIntoView({ block: "nearest" }); }
    if (next) { next.focus({ preventScroll: true }); } else if (bar) { bar.focus({ preventScroll: true }); }
  }

  // Opponents' cities are drawn small; a button shows one at full size.
  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest("#game-board [data-action=enlarge]");
    if (!button) { return; }
    var figure = button.closest("figure");
    var enlarged = figure.classList.toggle("enlarged");
    button.setAttribute("aria-pressed", enlarged ? "true" : "false");
  });

  // The create form lists four seats; only as many as the chosen player count are used.
  function showSeatFields() {
    var players = document.querySelector(".create-form select[name=players]");
    if (!players) { return; }
    document.querySelectorAll(".create-form .seat-field").forEach(function (field) {
      field.hidden = parseInt(field.getAttribute("data-seat"), 10) >= parseInt(players.value, 10);
    });
  }

  // Each game's options are on the form; only the chosen game's are shown (and used).
  function showGameOptions() {
    var game = document.querySelector(".create-form select[name=engine_slug]");
    if (!game) { return; }
    document.querySelectorAll(".create-form .game-options").forEach(function (group) {
      group.hidden = group.getAttribute("data-game") !== game.value;
    });
  }

  // The player counts offered are the chosen game's own; a count the game does not allow is
  // moved to the nearest one it does (the server checks the count again).
  function offerPlayerCounts() {
    var game = document.querySelector(".create-form select[name=engine_slug]");
    var field = document.querySelector(".create-form .players-field");
    if (!game || !field) { return; }
    var range = JSON.parse(field.getAttribute("data-counts"))[game.value];
    var players = field.querySelector("select[name=players]");
    if (!range || !players) { return; }
    var wanted = Math.min(Math.max(parseInt(players.value, 10) || range[0], range[0]), range[1]);
    var offered = Array.prototype.map.call(players.options, function (o) { return o.value; });
    var counts = [];
    for (var n = range[0]; n <= range[1]; n++) { counts.push(String(n)); }
    if (offered.join() !== counts.join()) {
      players.replaceChildren.apply(players, counts.map(function (n) {
        var option = document.createElement("option");
        option.value = n;
        option.textContent = n;
        return option;
      }));
    }
    players.value = String(wanted);
  }

  document.addEventListener("change", function (event) {
    if (event.target.name === "engine_slug") { offerPlayerCounts(); showGameOptions(); }
    if (event.target.name === "players" || event.target.name === "engine_slug") { showSeatFields(); }
  });

  // A hint is for one position (its data-revision): once the live board shows another, or
  // the end of the game, the hint goes.
  function dropOldHint() {
    var hint = document.getElementById("hint");
    var board = currentBoard();
    if (!hint || !board || !hint.hasAttribute("data-revision")) { return; }
    if (hint.getAttribute("data-revision") !== board.getAttribute("data-version") ||
        board.querySelector(".game-over")) {
      hint.remove();
    }
  }

  function init() {
    dropOldHint(); showSelected(); initRoving(); offerPlayerCounts(); showSeatFields(); showGameOptions();
  }
  document.addEventListener("DOMContentLoaded", init);
  document.addEventListener("htmx:afterSettle", function () {
    init(); restoreInput(); focusAfterMove();
  });
  document.addEventListener("htmx:wsAfterMessage", function () {
    init(); restoreInput(); focusAfterMove();
  });
})();
