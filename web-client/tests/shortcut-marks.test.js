import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isSingleKey, markShortcut } from '../js/shortcut-marks.js';

// A stand-in element: attributes and a dataset, as the DOM has them.
function element() {
  const attributes = new Map();
  return {
    dataset: {},
    getAttribute: (name) => attributes.get(name) ?? null,
    setAttribute: (name, value) => attributes.set(name, value),
    removeAttribute: (name) => attributes.delete(name),
  };
}

test('single keys are announced only while single-key shortcuts are on; named keys always', () => {
  assert.deepEqual(['3', 'h', '?', 'Escape', 'PageUp', ''].map(isSingleKey), [true, true, true, false, false, false]);
  const card = element();
  markShortcut(card, '3', false);
  assert.equal(card.getAttribute('aria-keyshortcuts'), null);
  assert.equal(card.dataset.keyshortcuts, '3');
  markShortcut(card, '3', true);
  assert.equal(card.getAttribute('aria-keyshortcuts'), '3');
  assert.equal(card.dataset.keyshortcuts, undefined);
  const back = element();
  markShortcut(back, 'Escape', false);
  assert.equal(back.getAttribute('aria-keyshortcuts'), 'Escape');
});
