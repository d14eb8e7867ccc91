import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chooseGrid, chooseStableGrid, reservedCount } from '../js/layout.js';

const ASPECT = 7 / 5;
// The board area (#board-area minus its padding) measured in Chromium at the two viewports the
// browser tests use (1248 × 707 and 374 × 650 under a one-line status in a solo game), less 30 px
// of height for a status line that wraps or a scoreboard row; gaps as board-view.js picks them.
const DESKTOP = { width: 1248, height: 677, gap: 11, aspect: ASPECT, minCardWidth: 54, maxCardWidth: 190 };
const PHONE = { width: 374, height: 620, gap: 6, aspect: ASPECT, minCardWidth: 54, maxCardWidth: 190 };

function assertFits(grid, box, count) {
  assert.ok(grid.columns * grid.rows >= count, `${count} cards in ${grid.columns}×${grid.rows}`);
  assert.ok(grid.columns * grid.cardWidth + (grid.columns - 1) * box.gap <= box.width, `${count}: fits the width`);
  assert.ok(grid.rows * grid.cardWidth * box.aspect + (grid.rows - 1) * box.gap <= box.height, `${count}: fits the height`);
}

for (const [name, box] of [['1280×900', DESKTOP], ['390×844', PHONE]]) {
  test(`12, 15, 18 and 24 cards fit the ${name} board without scrolling`, () => {
    for (const [count, base, step] of [[12, 12, 3], [15, 12, 3], [18, 12, 3], [21, 12, 3], [24, 24, 0], [9, 12, 3]]) {
      const grid = chooseStableGrid({ ...box, count, base, step });
      assertFits(grid, box, count);
      assert.ok(grid.cardWidth >= 54, `${count} cards are ${grid.cardWidth}px wide`);
    }
  });

  test(`on ${name} a Set board keeps its card size from 12 to 15 cards (and below 12)`, () => {
    const sizes = [6, 9, 12, 15].map((count) => chooseStableGrid({ ...box, count, base: 12, step: 3 }).cardWidth);
    assert.equal(new Set(sizes).size, 1, `widths ${sizes}`);
    // …which is the size 15 cards get on their own, no smaller.
    assert.equal(sizes[0], chooseGrid({ ...box, count: 15 }).cardWidth);
  });
}

test('12 cards sized for 15 are laid out in balanced rows, not 5 + 5 + 2', () => {
  const grid = chooseStableGrid({ ...DESKTOP, count: 12, base: 12, step: 3 });
  const fifteen = chooseStableGrid({ ...DESKTOP, count: 15, base: 12, step: 3 });
  assert.equal(fifteen.rows, 3);
  assert.deepEqual([grid.columns, grid.rows], [4, 3]);
});

test('a board that never grows is sized for its own count', () => {
  const stable = chooseStableGrid({ ...DESKTOP, count: 24, base: 24, step: 0 });
  const plain = chooseGrid({ ...DESKTOP, count: 24 });
  assert.deepEqual([stable.columns, stable.rows, stable.cardWidth], [plain.columns, plain.rows, plain.cardWidth]);
  assert.equal(stable.reserve, 24);
});

test('the reserve is one step past the usual size, then the count itself', () => {
  assert.deepEqual([9, 12, 15, 18, 21].map((n) => reservedCount(n, 12, 3)), [15, 15, 15, 18, 21]);
  assert.equal(reservedCount(20, 24, 0), 20);
});
