// The notification badge on every page: live over the socket, fetched over HTTP when the
// socket (re)connects or a message was missed (DESIGN.md principle 7, as the game boards do).
(function () {
  "use strict";

  function live() { return document.getElementById("live-notifications"); }

  function knownNumber() {
    var badge = document.getElementById("notifications-count");
    return badge ? parseInt(badge.getAttribute("data-number"), 10) : 0;
  }

  function refreshBadge() {
    var socket = live();
    if (!socket || !window.htmx || !document.getElementById("notifications-count")) { return; }
    window.htmx.ajax("GET", socket.getAttribute("data-badge-url"), {
      target: "#notifications-count", swap: "outerHTML"
    });
  }

  document.addEventListener("htmx:wsOpen", function (event) {
    if (event.target.id === "live-notifications") { refreshBadge(); }
  });

  document.addEventListener("htmx:wsBeforeMessage", function (event) {
    if (event.target.id !== "live-notifications") { return; }
    var match = /data-number="(\d+)"/.exec(event.detail.message || "");
    if (!match) { return; }
    var incoming = parseInt(match[1], 10), known = knownNumber();
    if (incoming < known) {
      event.preventDefault();  // older than what the badge already counts
    } else if (incoming > known + 1) {
      event.preventDefault();  // one or more were missed: ask for the whole count
      refreshBadge();
    }
  });
})();
