import { test } from 'node:test';
import assert from 'node:assert/strict';
import { atBottom, logChanges } from '../js/chat-log.js';

test('new lines are appended; the rows drawn are not touched', () => {
  assert.deepEqual(logChanges(['1', '2'], ['1', '2', '3', '4']), { remove: [], add: [{ key: '3', before: null }, { key: '4', before: null }] });
  assert.deepEqual(logChanges(['1', '2'], ['1', '2']), { remove: [], add: [] });
  assert.deepEqual(logChanges([], ['1']), { remove: [], add: [{ key: '1', before: null }] });
});

test('lines muted go; unmuted come back in their place; the oldest drop off the top', () => {
  assert.deepEqual(logChanges(['1', '2', '3'], ['1', '3']), { remove: ['2'], add: [] });
  assert.deepEqual(logChanges(['1', '3'], ['1', '2', '3', '4']), {
    remove: [],
    add: [{ key: '2', before: '3' }, { key: '4', before: null }],
  });
  assert.deepEqual(logChanges(['1', '2', '3'], ['2', '3', '4']), { remove: ['1'], add: [{ key: '4', before: null }] });
  // A row that now shows otherwise (its Mute button) is replaced where it is.
  assert.deepEqual(logChanges(['1m', '2m'], ['1', '2m']), { remove: ['1m'], add: [{ key: '1', before: '2m' }] });
  // Another table: all new.
  assert.deepEqual(logChanges(['1', '2'], ['7']), { remove: ['1', '2'], add: [{ key: '7', before: null }] });
});

test('the log follows the newest line only when the reader was at the bottom', () => {
  assert.ok(atBottom({ scrollHeight: 500, scrollTop: 300, clientHeight: 200 }));
  assert.ok(atBottom({ scrollHeight: 500, scrollTop: 290, clientHeight: 200 }));
  assert.ok(!atBottom({ scrollHeight: 500, scrollTop: 100, clientHeight: 200 }), 'reading older lines');
  assert.ok(atBottom({ scrollHeight: 0, scrollTop: 0, clientHeight: 0 }), 'too short to scroll (or not shown)');
});
