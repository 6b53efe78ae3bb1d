// The display board: refresh the panel without reloading the page, and fit it to the screen.
// On a failed fetch the last good panel stays on screen and the board says it is reconnecting.
//
// A TV cannot scroll, so every jackpot of the room shares one screen: layout() picks the columns and
// rows that give the amounts the largest type for this screen and this many cards; fit() then sizes
// each card's amount to the card's width in one line, and lowers the card's --fit (every other size in
// the card is a share of its height times --fit) until nothing overflows the card.
(function () {
  "use strict";
  const panel = document.getElementById("panel");
  if (!panel) return;
  const url = panel.dataset.panelUrl;
  const every = Number(panel.dataset.refreshMs) || 5000;
  // The amount's height as a share of its card's (display.css lets it take 30%; a High Hand's leaves room
  // for the hands), and a digit's width per pixel of type (DejaVu Sans Bold's figures are about 0.7 em;
  // "$", "," and "." less).
  const AMOUNT_SHARE = 0.3;
  const HIGH_HAND_AMOUNT_SHARE = 0.18;
  const CHARACTER_EM = 0.66;
  const SMALLEST_FIT = 0.35;

  function longestAmount(cards) {
    return cards.reduce((longest, card) => {
      const amount = card.querySelector(".amount");
      return Math.max(longest, amount ? amount.textContent.trim().length : 0);
    }, 4);
  }

  function layout(grid) {
    const cards = Array.from(grid.children);
    const count = cards.length;
    if (!count) return;
    const style = getComputedStyle(grid);
    const gap = parseFloat(style.columnGap) || 0;
    const width = grid.clientWidth;
    const height = grid.clientHeight;
    const characters = longestAmount(cards);
    let best = { score: -1, cols: 1, rows: count };
    for (let cols = 1; cols <= count; cols += 1) {
      const rows = Math.ceil(count / cols);
      const cardWidth = (width - gap * (cols - 1)) / cols;
      const cardHeight = (height - gap * (rows - 1)) / rows;
      const share = grid.querySelector(".high-hand .leader, .high-hand .last") ? HIGH_HAND_AMOUNT_SHARE : AMOUNT_SHARE;
      const score = Math.min(cardHeight * share, (cardWidth * 0.9) / (characters * CHARACTER_EM));
      // More columns must win by a tenth: within that, the wider cards (fewer columns) read better from
      // afar, the High Hand's cards and words above all (two tall narrow cards side by side on a
      // portrait screen gave amounts 5% larger and hands half as wide).
      if (score > best.score * 1.1) best = { score, cols, rows };
    }
    grid.style.setProperty("--cols", best.cols);
    grid.style.setProperty("--rows", best.rows);
  }

  function overflows(card) {
    if (card.scrollHeight > card.clientHeight + 1 || card.scrollWidth > card.clientWidth + 1) return true;
    return Array.from(card.querySelectorAll("*")).some((element) => element.scrollWidth > element.clientWidth + 1);
  }

  function amountFit(card) {
    const amount = card.querySelector(".amount");
    if (!amount || amount.closest(".empty")) return;
    amount.style.fontSize = "";
    const room = card.clientWidth * 0.92;
    const needed = amount.scrollWidth;
    if (needed > room) {
      const size = parseFloat(getComputedStyle(amount).fontSize);
      amount.style.fontSize = `${Math.floor((size * room) / needed)}px`;
    }
  }

  // Smaller details first (down to 65%), then the amount (down to 60%), then the details again.
  function fit(card) {
    let details = 1;
    let amount = 1;
    const apply = () => {
      card.style.setProperty("--fit", details);
      card.style.setProperty("--amount-fit", amount);
      amountFit(card);
    };
    apply();
    while (overflows(card)) {
      if (details > 0.65) details -= 0.05;
      else if (amount > 0.6) amount -= 0.05;
      else if (details > SMALLEST_FIT) details -= 0.05;
      else break;
      details = Math.round(details * 100) / 100;
      amount = Math.round(amount * 100) / 100;
      apply();
    }
  }

  function arrange() {
    const grid = panel.querySelector(".jackpots");
    if (!grid) return;
    layout(grid);
    Array.from(grid.children).forEach(fit);
    document.body.dataset.fitted = String(Date.now());
  }

  async function refresh() {
    try {
      const response = await fetch(url, { cache: "no-store", headers: { "HX-Request": "true" } });
      if (!response.ok) throw new Error(response.status);
      panel.innerHTML = await response.text();
      arrange();
      document.body.classList.remove("stale");
    } catch (error) {
      document.body.classList.add("stale");
    }
  }

  let resizing = null;
  window.addEventListener("resize", () => {
    clearTimeout(resizing);
    resizing = setTimeout(arrange, 100);
  });
  if (document.fonts && document.fonts.ready) document.fonts.ready.then(arrange);
  arrange();
  setInterval(refresh, every);
})();
