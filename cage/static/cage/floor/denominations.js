// The chips of a count (cage/floor/count.html): each row's pieces times its chip add up, as they are
// typed on the number pad or the keyboard. The sum fills the amount counted only while the dealer has
// not typed one; an amount they typed is never replaced: when the chips disagree with it, the page says
// so with both figures, and the server refuses the count the same way. Without this script the server
// adds the chips up when the amount is left empty.
(function () {
  "use strict";

  function dollars(cents) {
    const whole = Math.floor(cents / 100).toString().replace(/\B(?=(\d{3})+(?!\d))/g, ",");
    return whole + "." + String(cents % 100).padStart(2, "0");
  }

  function setUp(form) {
    const rows = Array.from(form.querySelectorAll("input[data-denomination]"));
    const amount = form.querySelector("input[name$='counted']");
    const said = form.querySelector("[data-chips-total]");
    if (!rows.length || !amount) return;
    // The amount is the chips' while it is empty or was filled by them; a key typed into it (an input
    // event: the script's own writes fire none) makes it the dealer's, until they empty it again.
    let filledByChips = amount.value === "";
    amount.addEventListener("input", function () { filledByChips = amount.value === ""; });

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
      if (any && filledByChips) {
        amount.value = dollars(total).replace(/,/g, "");
      }
      if (!said) return;
      const typed = /^\$?[0-9,]*(\.[0-9]{1,2})?$/.test(amount.value) ? Math.round(Number(amount.value.replace(/[$,]/g, "")) * 100) : NaN;
      if (!any) {
        said.textContent = said.dataset.chipsTotal;
        said.classList.remove("field-error");
        said.classList.add("muted");
      } else if (!filledByChips && typed !== total) {
        said.textContent = "The chips add up to $" + dollars(total) + ", not the $" + amount.value.replace(/^\$/, "") + " typed: correct the amount or the chips.";
        said.classList.add("field-error");
        said.classList.remove("muted");
      } else {
        said.textContent = "The chips add up to $" + dollars(total) + ".";
        said.classList.remove("field-error");
        said.classList.add("muted");
      }
    }
    amount.addEventListener("input", update);

    rows.forEach(function (row) { row.addEventListener("input", update); });
    update();
  }

  function start() { document.querySelectorAll("form").forEach(setUp); }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
