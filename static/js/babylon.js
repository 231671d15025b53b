// The Babylon board: pick a tile (dug or stored), click the cells of your garden where it
// should stand, turn it, choose what stands under each corner, see the preview, confirm.
// The choices are the radio buttons of the placing form, each a complete legal move made by
// the server; this script only fills in the chosen tile and rotation (any tile and any
// rotation is legal wherever a placement is) and shows or hides the choices.
(function () {
  "use strict";
  if (window.babylonBoard) { window.babylonBoard.init(); return; }

  var SVG = "http://www.w3.org/2000/svg";
  var chosen = { tile: null, rotation: 0, picked: [], anchor: null };

  function inBoard(selector) { return document.querySelector("#game-board " + selector); }
  function allInBoard(selector) { return Array.prototype.slice.call(document.querySelectorAll("#game-board " + selector)); }
  function num(element, name) { return parseInt(element.getAttribute(name), 10); }

  function stands() { return allInBoard(".bab-stand"); }

  function covers(stand, cell) {
    var x = num(stand, "data-x"), y = num(stand, "data-y");
    return cell.x >= x && cell.x <= x + 1 && cell.y >= y && cell.y <= y + 1;
  }

  // Anchors (as "x,y") of the placements whose four cells include every picked cell.
  function anchorsFor(picked) {
    var found = [];
    stands().forEach(function (stand) {
      var key = stand.getAttribute("data-x") + "," + stand.getAttribute("data-y");
      if (found.indexOf(key) >= 0) { return; }
      if (picked.every(function (cell) { return covers(stand, cell); })) { found.push(key); }
    });
    return found;
  }

  function say(text) {
    var line = inBoard(".bab-chosen");
    if (line) { line.textContent = text; }
  }

  function cellName(x, y) { return "ABCDEFGH".charAt(x) + (y + 1); }

  function pickCell(x, y) {
    chosen.picked.push({ x: x, y: y });
    if (chosen.picked.length > 4) { chosen.picked.shift(); }
    var anchors = anchorsFor(chosen.picked);
    if (!anchors.length) {
      chosen.picked = [{ x: x, y: y }];
      anchors = anchorsFor(chosen.picked);
    }
    if (!anchors.length) {
      chosen.picked = [];
      setAnchor(null);
      say(cellName(x, y) + ": " + inBoard(".bab-place-form").getAttribute("data-no-place"));
      return;
    }
    // With one cell picked, the tile reaches east and south of it when it can.
    var own = x + "," + y;
    var key = anchors.indexOf(own) >= 0 ? own : anchors[0];
    var parts = key.split(",");
    setAnchor([parseInt(parts[0], 10), parseInt(parts[1], 10)]);
  }

  function setAnchor(anchor) {
    chosen.anchor = anchor;
    var first = null;
    stands().forEach(function (stand) {
      var on = anchor !== null && num(stand, "data-x") === anchor[0] && num(stand, "data-y") === anchor[1];
      stand.classList.toggle("bab-off", !on);
      var input = stand.querySelector("input");
      if (!on) { input.checked = false; } else if (!first) { first = input; }
    });
    var checked = inBoard(".bab-stand:not(.bab-off) input:checked");
    if (!checked && first) { first.checked = true; }
    allInBoard(".bab-cell").forEach(function (cell) {
      var picked = chosen.picked.some(function (c) { return c.x === num(cell, "data-x") && c.y === num(cell, "data-y"); });
      cell.classList.toggle("bab-picked", picked);
    });
    var highlight = inBoard(".bab-garden.mine .bab-highlight");
    if (highlight) {
      while (highlight.firstChild) { highlight.removeChild(highlight.firstChild); }
      if (anchor) {
        var frame = document.createElementNS(SVG, "rect");
        frame.setAttribute("x", anchor[0] * 34);
        frame.setAttribute("y", anchor[1] * 34);
        frame.setAttribute("width", 68);
        frame.setAttribute("height", 68);
        highlight.appendChild(frame);
      }
    }
    if (anchor) {
      say(cellName(anchor[0], anchor[1]) + "–" + cellName(anchor[0] + 1, anchor[1] + 1));
    }
    updateMoves();
  }

  // Every placing choice carries the chosen tile and rotation.
  function updateMoves() {
    stands().forEach(function (stand) {
      var input = stand.querySelector("input");
      var move = JSON.parse(input.value);
      move.tile = chosen.tile;
      move.rotation = chosen.rotation;
      input.value = JSON.stringify(move);
    });
    var confirm = inBoard(".bab-confirm");
    if (confirm) { confirm.disabled = !inBoard(".bab-stand:not(.bab-off) input:checked"); }
    showPreview();
  }

  function showPreview() {
    allInBoard(".bab-preview-tile").forEach(function (g) { g.classList.add("bab-off"); });
    var iso = inBoard(".bab-iso-preview");
    var input = inBoard(".bab-stand:not(.bab-off) input:checked");
    if (iso) { iso.classList.toggle("bab-off", !input); }
    if (!input) { return; }
    var stand = input.closest(".bab-stand");
    var selector = '.bab-preview-tile[data-tile="' + chosen.tile + '"][data-rotation="' + chosen.rotation + '"]';
    var top = inBoard(".bab-preview " + selector);
    if (top) {
      top.setAttribute("transform", "translate(" + stand.getAttribute("data-top-x") + " " + stand.getAttribute("data-top-y") + ")");
      top.classList.remove("bab-off");
    }
    var face = inBoard(".bab-iso-preview " + selector);
    if (face) {
      face.setAttribute("transform", "translate(" + stand.getAttribute("data-iso-x") + " " + stand.getAttribute("data-iso-y") + ")");
      face.classList.remove("bab-off");
    }
  }

  function chooseTile(which) {
    chosen.tile = which;
    allInBoard(".bab-tile-choice").forEach(function (button) {
      button.setAttribute("aria-pressed", button.getAttribute("data-tile") === which ? "true" : "false");
    });
    updateMoves();
  }

  function turnTile() {
    chosen.rotation = (chosen.rotation + 1) % 4;
    allInBoard(".bab-tile-choice").forEach(function (button) {
      var svg = button.querySelector("svg");
      if (svg) { svg.style.transform = "rotate(" + (90 * chosen.rotation) + "deg)"; }
    });
    updateMoves();
  }

  function highlightDecoration(button) {
    var highlight = inBoard(".bab-garden.mine .bab-highlight");
    if (!highlight) { return; }
    allInBoard(".bab-highlight .bab-deco").forEach(function (r) { r.parentNode.removeChild(r); });
    if (!button) { return; }
    button.getAttribute("data-cells").split(" ").forEach(function (pair) {
      var xy = pair.split(",");
      var rect = document.createElementNS(SVG, "rect");
      rect.setAttribute("class", "bab-deco");
      rect.setAttribute("x", parseInt(xy[0], 10) * 34 + 2);
      rect.setAttribute("y", parseInt(xy[1], 10) * 34 + 2);
      rect.setAttribute("width", 30);
      rect.setAttribute("height", 30);
      highlight.appendChild(rect);
    });
  }

  document.addEventListener("click", function (event) {
    var target = event.target;
    if (!target.closest || !target.closest("#game-board .bab")) { return; }
    var tile = target.closest(".bab-tile-choice");
    if (tile) { chooseTile(tile.getAttribute("data-tile")); return; }
    if (target.closest("[data-bab-action=turn]")) { turnTile(); return; }
    var cell = target.closest(".bab-cell");
    if (cell) { pickCell(num(cell, "data-x"), num(cell, "data-y")); }
  });

  document.addEventListener("change", function (event) {
    if (event.target.closest && event.target.closest("#game-board .bab-stand")) { updateMoves(); }
  });

  ["mouseover", "focusin"].forEach(function (name) {
    document.addEventListener(name, function (event) {
      var button = event.target.closest && event.target.closest("#game-board .bab-decorate");
      if (button) { highlightDecoration(button); }
    });
  });
  ["mouseout", "focusout"].forEach(function (name) {
    document.addEventListener(name, function (event) {
      var button = event.target.closest && event.target.closest("#game-board .bab-decorate");
      if (button) { highlightDecoration(null); }
    });
  });

  document.addEventListener("keydown", function (event) {
    var target = event.target;
    if (!target.closest || !document.querySelector("#game-board .bab")) { return; }
    var cell = target.closest(".bab-cell");
    if (cell && (event.key === "Enter" || event.key === " ")) {
      event.preventDefault();
      pickCell(num(cell, "data-x"), num(cell, "data-y"));
      var confirm = inBoard(".bab-confirm");
      if (confirm && !confirm.disabled) { confirm.focus(); }
      return;
    }
    if (/^(INPUT|SELECT|TEXTAREA)$/.test(target.tagName) || event.altKey || event.ctrlKey || event.metaKey) { return; }
    if (event.key === "r" && inBoard(".bab-place-form")) { event.preventDefault(); turnTile(); }
  });

  function init() {
    if (!inBoard(".bab-place-form")) { chosen.picked = []; chosen.anchor = null; return; }
    var tiles = allInBoard(".bab-tile-choice").map(function (b) { return b.getAttribute("data-tile"); });
    if (tiles.indexOf(chosen.tile) < 0) { chosen.tile = tiles[0]; chosen.rotation = 0; }
    allInBoard(".bab-tile-choice").forEach(function (button) {
      button.setAttribute("aria-pressed", button.getAttribute("data-tile") === chosen.tile ? "true" : "false");
      var svg = button.querySelector("svg");
      if (svg) { svg.style.transform = "rotate(" + (90 * chosen.rotation) + "deg)"; }
    });
    var anchor = chosen.anchor;
    if (anchor && !anchorsFor([{ x: anchor[0], y: anchor[1] }]).length) { anchor = null; chosen.picked = []; }
    setAnchor(anchor);
  }

  document.addEventListener("DOMContentLoaded", init);
  document.addEventListener("htmx:afterSettle", init);
  document.addEventListener("htmx:wsAfterMessage", init);
  window.babylonBoard = { init: init };
  init();
})();
