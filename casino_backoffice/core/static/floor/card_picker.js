// The card picker (floor/components/card_picker.html): tap a card to pick it, tap it again to put it
// back. The hidden input holds the codes in the order picked ("As Td"). Pickers of one form share
// the deck: a card picked in one cannot be picked in another.
(function () {
  "use strict";

  function pickersOf(root) {
    return Array.from((root.closest("form") || document).querySelectorAll("[data-card-picker]"));
  }

  function refresh(root) {
    const pickers = pickersOf(root);
    const takenElsewhere = new Map();
    pickers.forEach(function (picker) {
      picker.querySelector("input[type=hidden]").value.split(/\s+/).filter(Boolean).forEach(function (code) {
        takenElsewhere.set(code, picker);
      });
    });
    pickers.forEach(function (picker) {
      const input = picker.querySelector("input[type=hidden]");
      const chosen = input.value.split(/\s+/).filter(Boolean);
      const full = chosen.length >= Number(picker.dataset.count);
      picker.querySelectorAll("[data-card]").forEach(function (button) {
        const code = button.dataset.card;
        const mine = chosen.includes(code);
        const owner = takenElsewhere.get(code);
        button.setAttribute("aria-pressed", mine ? "true" : "false");
        button.disabled = !mine && (full || (owner !== undefined && owner !== picker));
      });
      picker.querySelector("[data-picked]").textContent = chosen.length ? chosen.join(" ") : "none";
    });
  }

  function setUp(picker) {
    const input = picker.querySelector("input[type=hidden]");
    picker.addEventListener("click", function (event) {
      const button = event.target.closest("button");
      if (!button || button.disabled) return;
      let chosen = input.value.split(/\s+/).filter(Boolean);
      if (button.hasAttribute("data-clear")) chosen = [];
      else if (button.dataset.card) {
        const code = button.dataset.card;
        if (chosen.includes(code)) chosen = chosen.filter(function (c) { return c !== code; });
        else if (chosen.length < Number(picker.dataset.count)) chosen.push(code);
      }
      input.value = chosen.join(" ");
      input.dispatchEvent(new Event("change", { bubbles: true }));
      refresh(picker);
    });
    refresh(picker);
  }

  function start() { document.querySelectorAll("[data-card-picker]").forEach(setUp); }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
