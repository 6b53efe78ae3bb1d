// The card picker (floor/components/card_picker.html): tap a card to pick it, tap it again to put it
// back. The hidden input holds the codes in the order picked ("As Td"). Pickers of one form share
// the deck: a card picked in one cannot be picked in another. A form of several pickers shows one
// deck at a time: the others are folded to their picked cards and a Change button, and once the open
// one holds its cards the next one not yet full opens by itself.
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
      picker.querySelector("[data-open]").textContent = chosen.length ? "Change" : "Pick the cards";
    });
  }

  function isFull(picker) {
    const chosen = picker.querySelector("input[type=hidden]").value.split(/\s+/).filter(Boolean);
    return chosen.length >= Number(picker.dataset.count);
  }

  // One deck open at a time in a form of several pickers.
  function open(picker) {
    const pickers = pickersOf(picker);
    if (pickers.length < 2) return;
    pickers.forEach(function (other) {
      const folded = other !== picker;
      other.classList.toggle("folded", folded);
      other.querySelector("[data-open]").hidden = !folded;
    });
  }

  function advance(picker) {
    if (!isFull(picker)) return;
    const next = pickersOf(picker).find(function (other) { return !isFull(other); });
    if (next) open(next);
  }

  function setUp(picker) {
    const input = picker.querySelector("input[type=hidden]");
    picker.addEventListener("click", function (event) {
      const button = event.target.closest("button");
      if (!button || button.disabled) return;
      if (button.hasAttribute("data-open")) { open(picker); return; }
      let chosen = input.value.split(/\s+/).filter(Boolean);
      if (button.hasAttribute("data-clear")) { chosen = []; open(picker); }
      else if (button.dataset.card) {
        const code = button.dataset.card;
        if (chosen.includes(code)) chosen = chosen.filter(function (c) { return c !== code; });
        else if (chosen.length < Number(picker.dataset.count)) chosen.push(code);
      }
      input.value = chosen.join(" ");
      input.dispatchEvent(new Event("change", { bubbles: true }));
      refresh(picker);
      if (button.dataset.card) advance(picker);
    });
    refresh(picker);
  }

  function start() {
    const pickers = Array.from(document.querySelectorAll("[data-card-picker]"));
    pickers.forEach(setUp);
    // Each form opens on its first picker not yet full (a form sent back with an error keeps its cards).
    new Set(pickers.map(function (picker) { return picker.closest("form") || document; })).forEach(function (form) {
      const own = Array.from(form.querySelectorAll("[data-card-picker]"));
      open(own.find(function (picker) { return !isFull(picker); }) || own[0]);
    });
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
