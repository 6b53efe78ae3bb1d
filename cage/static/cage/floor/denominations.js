// The chips of a count (cage/floor/count.html): each row's pieces times its chip add up into the
// amount counted, as they are typed on the number pad or the keyboard. Without this script the
// server adds them up when the amount is left empty.
(function () {
  "use strict";

  function dollars(cents) {
    const whole = Math.floor(cents / 100).toString().replace(/\B(?=(\d{3})+(?!\d))/g, ",");
    return whole + "." + String(cents % 100).padStart(2, "0");
  }

  function setUp(form) {
    const rows = Array.from(form.querySelectorAll("input[data-denomination]"));
    const amount = form.querySelector("input[name$='counted']");
    if (!rows.length || !amount) return;

    function update() {
      let total = 0;
      let any = false;
      rows.forEach(function (row) {
        const pieces = /^\d+$/.test(row.value) ? Number(row.value) : 0;
        const cents = pieces * Number(row.dataset.denomination);
        if (row.value !== "") any = true;
        total += cents;
        const shown = form.querySelector("[data-subtotal-for='" + row.id + "']");
        if (shown) shown.textContent = pieces ? "$" + dollars(cents) : "";
      });
      // Only the chips decide the amount once some are entered; the amount stays as typed before.
      if (any) amount.value = dollars(total).replace(/,/g, "");
    }

    rows.forEach(function (row) { row.addEventListener("input", update); });
    update();
  }

  function start() { document.querySelectorAll("form").forEach(setUp); }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
