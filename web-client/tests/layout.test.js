import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chooseGrid } from '../js/layout.js';

const ASPECT = 7 / 5;

function fits(grid, { count, width, height, gap }) {
  assert.ok(grid.columns * grid.rows >= count);
  assert.ok(grid.columns * grid.cardWidth + (grid.columns - 1) * gap <= width + 0.01, 'fits the width');
  assert.ok(grid.rows * grid.cardWidth * ASPECT + (grid.rows - 1) * gap <= height + 0.01, 'fits the height');
}

test('12 to 21 cards fit a desktop board area without scrolling', () => {
  const box = { width: 1240, height: 740, gap: 12, aspect: ASPECT };
  for (let count = 12; count <= 21; count += 1) {
    const grid = chooseGrid({ ...box, count });
    fits(grid, { ...box, count });
    assert.ok(grid.cardWidth >= 120, `${count} cards are ${grid.cardWidth}px wide`);
  }
});

test('12 to 21 cards fit a phone board area and stay tappable', () => {
  const box = { width: 370, height: 660, gap: 6, aspect: ASPECT };
  for (let count = 12; count <= 21; count += 1) {
    const grid = chooseGrid({ ...box, count });
    fits(grid, { ...box, count });
    assert.ok(grid.cardWidth >= 60, `${count} cards are ${grid.cardWidth}px wide`);
  }
});

test('the chosen column count gives the biggest cards', () => {
  const box = { width: 900, height: 500, gap: 10, aspect: ASPECT, count: 15 };
  const grid = chooseGrid(box);
  for (let columns = 1; columns <= 15; columns += 1) {
    const rows = Math.ceil(15 / columns);
    const w = Math.min((900 - 10 * (columns - 1)) / columns, (500 - 10 * (rows - 1)) / rows / ASPECT);
    assert.ok(grid.cardWidth >= Math.floor(w) - 1, `${columns} columns would give ${w}`);
  }
  assert.deepEqual([grid.columns, grid.rows, grid.cardWidth], [5, 3, 114]);
});

test('cards never grow past the maximum, and fall back to scrolling below the minimum', () => {
  assert.equal(chooseGrid({ count: 3, width: 2000, height: 2000, gap: 10, aspect: ASPECT, maxCardWidth: 190 }).cardWidth, 190);
  const tiny = chooseGrid({ count: 21, width: 300, height: 100, gap: 4, aspect: ASPECT, minCardWidth: 54 });
  assert.equal(tiny.columns, 5);
  assert.equal(tiny.rows, 5);
  assert.ok(tiny.cardWidth >= 54);
});
