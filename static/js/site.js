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
})();
