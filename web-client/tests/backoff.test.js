import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BASE_DELAY_MS, MAX_DELAY_MS, reconnectDelay } from '../js/backoff.js';

test('delays grow exponentially, with jitter between half and all of the ceiling', () => {
  assert.equal(reconnectDelay(0, () => 0), BASE_DELAY_MS / 2);
  assert.equal(reconnectDelay(0, () => 0.999999), BASE_DELAY_MS);
  assert.equal(reconnectDelay(1, () => 0), BASE_DELAY_MS);
  assert.equal(reconnectDelay(3, () => 0.5), Math.round(BASE_DELAY_MS * 8 * 0.75));
});

test('delays are capped and never negative', () => {
  for (const attempt of [10, 50, 1e9, Infinity]) {
    assert.ok(reconnectDelay(attempt, () => 0.999999) <= MAX_DELAY_MS);
    assert.ok(reconnectDelay(attempt, () => 0) >= MAX_DELAY_MS / 2);
  }
  assert.equal(reconnectDelay(-3, () => 0), BASE_DELAY_MS / 2);
});
