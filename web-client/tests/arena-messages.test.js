import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as a from '../js/arena-messages.js';
import { encode } from '../js/messages.js';

test('the arena messages are the JSON of docs/PROTOCOL.md, "Arenas", checked before they go', () => {
  assert.equal(encode(a.arenas(1)), '{"type":"arenas","id":1}');
  assert.equal(encode(a.createArena(2, { game: 'set', minutes: 10, startsIn: 30 })), '{"type":"createArena","id":2,"game":"set","minutes":10,"startsIn":30}');
  assert.deepEqual(a.createArena(2), { type: 'createArena', id: 2, game: 'set', minutes: 10, startsIn: 0 });
  assert.deepEqual(a.joinArena(3, { arena: 'a1' }), { type: 'joinArena', id: 3, arena: 'a1' });
  assert.deepEqual(a.joinArena(3, { code: 'K7Q2M9XW4P' }), { type: 'joinArena', id: 3, code: 'K7Q2M9XW4P' });
  assert.deepEqual(a.leaveArena(4, 'a1'), { type: 'leaveArena', id: 4, arena: 'a1' });
  assert.deepEqual(a.watchArena(5, 'a1'), { type: 'watchArena', id: 5, arena: 'a1' });
  assert.deepEqual(a.watchFeatured(6, 'a1'), { type: 'watchFeatured', id: 6, arena: 'a1' });
  for (const minutes of [0, 61, 2.5, '10']) assert.throws(() => a.createArena(1, { minutes }), RangeError);
  for (const startsIn of [-1, 3601, 0.5]) assert.throws(() => a.createArena(1, { startsIn }), RangeError);
  assert.deepEqual(a.createArena(1, { minutes: 60, startsIn: 3600 }).minutes, 60);
  assert.throws(() => a.createArena(1, { game: '' }), TypeError);
  assert.throws(() => a.joinArena(1, {}), TypeError);
  assert.throws(() => a.leaveArena(1, ''), TypeError);
  assert.throws(() => a.watchFeatured(1), TypeError);
});
