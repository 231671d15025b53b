// Tower of Babel board: pickers for the offer and the choice of offers. Without JavaScript
// the forms still work: each lists every legal move in a <select name="move">. The pickers
// only choose the matching option of that select, so nothing illegal can be sent.
(function () {
  "use strict";
  if (window.towerOfBabelBoard) { window.towerOfBabelBoard.init(); return; }

  function sameFlag(option, name, box) {
    var want = box && box.checked ? "1" : "0";
    return option.getAttribute("data-" + name) === want;
  }

  function syncOffer(form) {
    var select = form.querySelector("select[name=move]");
    var counts = {};
    form.querySelectorAll("input[data-type]").forEach(function (input) {
      var value = parseInt(input.value, 10);
      var most = parseInt(input.getAttribute("max"), 10);
      if (isNaN(value) || value < 0) { value = 0; }
      if (value > most) { value = most; input.value = most; }
      counts[input.getAttribute("data-type")] = value;
    });
    var order = ["camel", "crane", "ship", "stonemason"];
    var wanted = order.map(function (t) { return counts[t] || 0; }).join(" ");
    var trading = form.querySelector("input[data-flag=trading]");
    var bonus = form.querySelector("input[data-flag=bonus]");
    var found = -1;
    for (var i = 0; i < select.options.length; i++) {
      var option = select.options[i];
      if (option.getAttribute("data-counts") === wanted && sameFlag(option, "trading", trading) &&
          sameFlag(option, "bonus", bonus)) { found = i; break; }
    }
    if (found >= 0) { select.selectedIndex = found; }
    showValidity(form, found >= 0);
  }

  // A choice is judged once the member has changed something: on load nothing is chosen yet,
  // and "not allowed" would answer a question nobody asked. Until it is allowed, the button
  // stays disabled.
  function showValidity(form, allowed) {
    form.querySelector(".tob-invalid").hidden = allowed || !form.hasAttribute("data-touched");
    form.querySelector(".tob-submit").disabled = !allowed;
  }

  function syncAccept(form) {
    var select = form.querySelector("select[name=move]");
    var seats = [], taken = 0;
    form.querySelectorAll("input[data-seat]").forEach(function (box) {
      if (box.checked) {
        seats.push(parseInt(box.getAttribute("data-seat"), 10));
        taken += parseInt(box.getAttribute("data-size"), 10);
      }
    });
    seats.sort(function (a, b) { return a - b; });
    var jokerInput = form.querySelector("input[data-jokers]");
    var jokers = jokerInput ? (parseInt(jokerInput.value, 10) || 0) : 0;
    var found = -1;
    for (var i = 0; i < select.options.length; i++) {
      var option = select.options[i];
      if (option.getAttribute("data-seats") === seats.join(" ") &&
          option.getAttribute("data-jokers") === String(jokers)) { found = i; break; }
    }
    if (found >= 0) { select.selectedIndex = found; }
    var total = form.querySelector(".tob-total");
    total.textContent = total.getAttribute("data-template")
      .replace("__TAKEN__", taken).replace("__TOTAL__", form.getAttribute("data-total"));
    showValidity(form, found >= 0);
  }

  function sync(form) {
    if (form.getAttribute("data-tob") === "offer") { syncOffer(form); } else { syncAccept(form); }
  }

  function init() {
    document.querySelectorAll("#game-board form[data-tob]").forEach(function (form) {
      var pickers = form.querySelector(".tob-pickers");
      if (!pickers || form.classList.contains("tob-enhanced")) { return; }
      pickers.hidden = false;
      form.classList.add("tob-enhanced");
      sync(form);
    });
  }

  function changed(event) {
    var form = event.target.closest && event.target.closest("#game-board form[data-tob]");
    if (form && form.classList.contains("tob-enhanced")) {
      form.setAttribute("data-touched", "");
      sync(form);
    }
  }
  document.addEventListener("input", changed);
  document.addEventListener("change", changed);
  document.addEventListener("DOMContentLoaded", init);
  document.addEventListener("htmx:afterSettle", init);
  document.addEventListener("htmx:wsAfterMessage", init);
  window.towerOfBabelBoard = { init: init };
  init();
})();
