// The number pad (floor/components/number_pad.html): its keys type into the money field of its form
// that was touched last, the first one until then. With the pad working, the fields ask the tablet
// for no keyboard of its own; without this script they keep the device's decimal keyboard.
(function () {
  "use strict";

  function setUp(pad) {
    const form = pad.closest("form");
    const fields = Array.from((form || document).querySelectorAll("input[data-number-pad]"));
    if (!fields.length) return;
    let target = fields[0];
    let fresh = true;  // no key typed into the target since it was chosen

    function mark(field) {
      fields.forEach(function (other) { other.classList.toggle("pad-target", other === field); });
      if (field !== target) fresh = true;
      target = field;
    }

    fields.forEach(function (field) {
      field.setAttribute("inputmode", "none");
      field.addEventListener("focus", function () { mark(field); });
    });
    mark(target);

    pad.addEventListener("click", function (event) {
      const key = event.target.closest("[data-key]");
      if (!key) return;
      const value = target.value;
      const pressed = key.dataset.key;
      if (pressed === "back") target.value = value.slice(0, -1);
      else if (pressed === "clear") target.value = "";
      // A zero amount the field started with ("0.00", the uncalled bet's) is replaced by the first key.
      else if (fresh && /^0*\.?0*$/.test(value)) target.value = pressed === "." ? "0." : pressed;
      else if (pressed === "." && value.includes(".")) return;
      // Whole cents only: no third digit after the point.
      else if (/\.\d\d$/.test(value)) return;
      else target.value = value + pressed;
      fresh = false;
      target.dispatchEvent(new Event("input", { bubbles: true }));
    });
  }

  function start() { document.querySelectorAll("[data-number-pad-keys]").forEach(setUp); }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
