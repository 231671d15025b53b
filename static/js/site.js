// Small site-wide behaviours; pages add their own scripts in {% block scripts %}.
(function () {
  "use strict";
  // Live notifications fade out after a while; the notifications page keeps them all.
  document.addEventListener("htmx:wsAfterMessage", function () {
    document.querySelectorAll("#live-notifications .toast:not([data-timer])").forEach(function (toast) {
      toast.setAttribute("data-timer", "1");
      setTimeout(function () { toast.remove(); }, 8000);
    });
  });

  // A member's request that failed (the server answered an error, or nothing came back): htmx
  // swaps nothing then, so the page would seem to ignore the click. The notice (base.html)
  // says what happened, until the member's next action. Requests of the page's own (a board
  // fetched while a server restarts) stay silent: the page recovers from those by itself.
  function byMember(detail) {
    return Boolean(detail && detail.requestConfig && detail.requestConfig.triggeringEvent);
  }
  function showRequestFailed(when, detail) {
    var notice = document.getElementById("request-failed");
    if (!notice || !byMember(detail)) { return; }
    notice.querySelectorAll("[data-when]").forEach(function (text) {
      text.hidden = text.getAttribute("data-when") !== when;
    });
    notice.hidden = false;
  }
  document.addEventListener("htmx:responseError", function (event) {
    var status = event.detail.xhr ? event.detail.xhr.status : 0;
    var when = status === 401 || status === 403 ? "refused" : status === 429 ? "busy" : "server";
    showRequestFailed(when, event.detail);
  });
  document.addEventListener("htmx:sendError", function (event) {
    showRequestFailed("offline", event.detail);
  });
  document.addEventListener("htmx:timeout", function (event) {
    showRequestFailed("offline", event.detail);
  });
  document.addEventListener("htmx:beforeRequest", function (event) {
    var notice = document.getElementById("request-failed");
    if (notice && byMember(event.detail)) { notice.hidden = true; }
  });

  // Behaviours templates ask for with data attributes: the Content-Security-Policy allows no
  // inline handlers (onclick=..., onchange=...), so they live here.
  // A form that names each game's player counts (data-player-counts, {slug: [fewest, most]})
  // offers the chosen game's counts only; a count the game does not allow moves to the
  // nearest one it does (the server checks the count again).
  function offerPlayerCounts(form) {
    var field = form && form.querySelector("[data-player-counts]");
    var game = form && form.querySelector("select[name=engine_slug]");
    var players = field && field.querySelector("select[name=players]");
    if (!game || !players) { return; }
    var range = JSON.parse(field.getAttribute("data-player-counts"))[game.value];
    if (!range) { return; }
    var wanted = Math.min(Math.max(parseInt(players.value, 10) || range[0], range[0]), range[1]);
    var options = [];
    for (var n = range[0]; n <= range[1]; n++) {
      var option = document.createElement("option");
      option.value = option.textContent = String(n);
      options.push(option);
    }
    players.replaceChildren.apply(players, options);
    players.value = String(wanted);
  }
  document.addEventListener("DOMContentLoaded", function () {
    document.querySelectorAll("[data-player-counts]").forEach(function (field) {
      offerPlayerCounts(field.closest("form"));
    });
  });

  document.addEventListener("change", function (event) {
    var field = event.target;
    if (field instanceof HTMLSelectElement && field.name === "engine_slug") {
      offerPlayerCounts(field.form);
    }
    if (field instanceof HTMLSelectElement && field.hasAttribute("data-submit-on-change") && field.form) {
      field.form.submit();
    }
  });
  // The header's menu on a phone (base.html): the button opens and closes it; Escape closes it
  // and gives the focus back to the button.
  function setMenu(toggle, open) {
    toggle.setAttribute("aria-expanded", open ? "true" : "false");
    toggle.closest(".nav").classList.toggle("open", open);
  }
  document.addEventListener("keydown", function (event) {
    var toggle = document.querySelector(".site-header .nav-toggle");
    if (event.key === "Escape" && toggle && toggle.getAttribute("aria-expanded") === "true") {
      setMenu(toggle, false);
      toggle.focus();
    }
  });

  document.addEventListener("click", function (event) {
    var target = event.target;
    if (!(target instanceof Element)) {
      return;
    }
    var toggle = target.closest(".site-header .nav-toggle");
    if (toggle) {
      setMenu(toggle, toggle.getAttribute("aria-expanded") !== "true");
      return;
    }
    if (target instanceof HTMLInputElement && target.hasAttribute("data-select-on-click")) {
      target.select();
    }
    if (target.closest("[data-print]")) {
      window.print();
    }
  });
})();
