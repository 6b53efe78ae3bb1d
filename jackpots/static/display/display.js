// Refresh the display board's panel without reloading the page. On a failed fetch the last good
// panel stays on screen and the board says it is reconnecting.
(function () {
  "use strict";
  const panel = document.getElementById("panel");
  if (!panel) return;
  const url = panel.dataset.panelUrl;
  const every = Number(panel.dataset.refreshMs) || 5000;
  async function refresh() {
    try {
      const response = await fetch(url, { cache: "no-store", headers: { "HX-Request": "true" } });
      if (!response.ok) throw new Error(response.status);
      panel.innerHTML = await response.text();
      document.body.classList.remove("stale");
    } catch (error) {
      document.body.classList.add("stale");
    }
  }
  setInterval(refresh, every);
})();
