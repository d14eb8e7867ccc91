import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Pinch, TAP_AFTER_PINCH_MS } from '../js/pinch.js';
import { pinchScale } from '../js/feedback.js';

test('two fingers moving apart scale the board from the scale it had', () => {
  const pinch = new Pinch();
  pinch.down(1, 0, 0, 1.5);
  assert.equal(pinch.move(1, 0, 0, 10), null, 'one finger is not a pinch');
  pinch.down(2, 100, 0, 1.5);
  assert.equal(pinch.move(2, 200, 0, 20), pinchScale(1.5, 100, 200));
  assert.equal(pinch.move(9, 0, 0, 30), null, 'a pointer that never came down');
  pinch.up(2);
  assert.equal(pinch.move(1, 5, 5, 40), null, 'one finger left');
});

test('a tap right after a pinch is part of it', () => {
  const pinch = new Pinch();
  assert.equal(pinch.swallowsTap(0), false, 'never pinched');
  pinch.down(1, 0, 0, 1);
  pinch.down(2, 10, 0, 1);
  pinch.move(2, 50, 0, 1000);
  assert.equal(pinch.swallowsTap(1000 + TAP_AFTER_PINCH_MS - 1), true);
  assert.equal(pinch.swallowsTap(1000 + TAP_AFTER_PINCH_MS), false);
});
