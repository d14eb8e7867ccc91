import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PendingRequests } from '../js/requests.js';

test('a request is waited on until its answer takes it', () => {
  const requests = new PendingRequests();
  requests.add(4, 'choose', { card: 7 });
  assert.deepEqual(requests.peek(4), { kind: 'choose', card: 7 });
  assert.deepEqual(requests.take(4), { kind: 'choose', card: 7 });
  assert.equal(requests.take(4), null, 'answered once');
  assert.equal(requests.peek(undefined), null, 'a message without replyTo answers nothing');
});

test('takeIf takes only a request of the kind named', () => {
  const requests = new PendingRequests();
  requests.add(1, 'scores');
  assert.equal(requests.takeIf(1, 'choose'), null);
  assert.deepEqual(requests.takeIf(1, 'scores'), { kind: 'scores' });
  assert.equal(requests.count('scores'), 0);
});

test('replace keeps only the newest request of a kind: an older answer finds nothing', () => {
  const requests = new PendingRequests();
  requests.add(1, 'choose', { card: 0 });
  requests.replace(2, 'scores');
  requests.replace(3, 'scores');
  assert.equal(requests.peek(2), null);
  assert.equal(requests.idOf('scores'), 3);
  assert.equal(requests.count('choose'), 1, 'other kinds stay');
});

test('drop forgets every request of a kind; ofKind lists them oldest first', () => {
  const requests = new PendingRequests();
  requests.add(1, 'choose', { card: 0 });
  requests.add(2, 'join', { code: 'ABCD234XYZ' });
  requests.add(3, 'choose', { card: 5 });
  assert.deepEqual(requests.ofKind('choose').map(([id, e]) => [id, e.card]), [[1, 0], [3, 5]]);
  requests.drop('choose');
  assert.equal(requests.count('choose'), 0);
  assert.equal(requests.idOf('choose'), null);
  assert.equal(requests.idOf('join'), 2);
});
