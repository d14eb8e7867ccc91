// Board layout: how many columns, and how wide a card, so that `count` cards of a fixed aspect
// ratio fill the available box without scrolling. Pure; board-view.js applies the result as CSS
// custom properties on a CSS grid.

/**
 * @param {object} box
 * @param {number} box.count   cards to place
 * @param {number} box.width   available width (px)
 * @param {number} box.height  available height (px)
 * @param {number} box.aspect  card height / card width
 * @param {number} box.gap     space between cards (px)
 * @param {number} [box.minCardWidth]  below this, fit the width only and let the page scroll
 * @param {number} [box.maxCardWidth]  cards never grow wider than this
 * @returns {{columns: number, rows: number, cardWidth: number}}
 */
export function chooseGrid({ count, width, height, aspect, gap, minCardWidth = 0, maxCardWidth = Infinity }) {
  const n = Math.max(1, Math.floor(count));
  let best = null;
  for (let columns = 1; columns <= n; columns += 1) {
    const rows = Math.ceil(n / columns);
    if (columns > 1 && Math.ceil(n / (columns - 1)) === rows) continue; // same rows, fewer columns is tidier
    const byWidth = (width - gap * (columns - 1)) / columns;
    const byHeight = (height - gap * (rows - 1)) / rows / aspect;
    const cardWidth = Math.min(byWidth, byHeight, maxCardWidth);
    if (best === null || cardWidth > best.cardWidth + 0.5) best = { columns, rows, cardWidth };
  }
  if (best.cardWidth < minCardWidth) {
    // Too small to use: keep cards at least minCardWidth wide, as many per row as fit.
    const columns = Math.max(1, Math.min(n, Math.floor((width + gap) / (minCardWidth + gap))));
    const cardWidth = Math.min(maxCardWidth, Math.max(minCardWidth, (width - gap * (columns - 1)) / columns));
    best = { columns, rows: Math.ceil(n / columns), cardWidth };
  }
  return { ...best, cardWidth: Math.max(0, Math.floor(best.cardWidth)) };
}

/**
 * A grid whose cards keep their size while the board grows by one step: the card width is the one
 * `reserve` cards would get (the larger of `count` and `base + step`), and the columns are the
 * fewest that hold `count` cards in the rows that width allows. Set (base 12, step 3) thus shows
 * 12 and 15 cards at one size; a board that never grows (step 0) is sized for its own count.
 *
 * @param {object} box  as chooseGrid, plus
 * @param {number} [box.base]  the usual board size (default: count)
 * @param {number} [box.step]  how many cards one extra deal adds (default 0)
 * @returns {{columns: number, rows: number, cardWidth: number, reserve: number}}
 */
export function chooseStableGrid({ count, base = count, step = 0, ...box }) {
  const n = Math.max(1, Math.floor(count));
  const reserve = Math.max(n, reservedCount(n, base, step));
  const sized = chooseGrid({ ...box, count: reserve });
  if (reserve === n) return { ...sized, reserve };
  // Same card width; the fewest columns whose rows still fit in the rows the reserve uses.
  const maxColumns = Math.max(1, Math.floor((box.width + box.gap) / (sized.cardWidth + box.gap)));
  let columns = Math.min(sized.columns, n);
  while (columns > 1 && Math.ceil(n / (columns - 1)) <= sized.rows) columns -= 1;
  columns = Math.min(columns, maxColumns);
  return { columns, rows: Math.ceil(n / columns), cardWidth: sized.cardWidth, reserve };
}

/** The count the board is sized for: one step past the usual size while the board is at most
 * that big, else its own count. */
export function reservedCount(count, base, step) {
  if (!(step > 0)) return count;
  return count <= base + step ? base + step : count;
}
