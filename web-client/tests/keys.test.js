import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CARD_KEYS, COMMAND_KEYS, SHORTCUTS, cardKeys, keyAction } from '../js/keys.js';

const press = (key, extra = {}) => ({ key, ctrlKey: false, metaKey: false, altKey: false, repeat: false, inField: false, ...extra });

test('cards get 1–9, 0, then letters that are not commands', () => {
  assert.deepEqual(cardKeys(12), ['1', '2', '3', '4', '5', '6', '7', '8', '9', '0', 'a', 'b']);
  assert.deepEqual(cardKeys(24).slice(10), ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'j', 'k', 'l', 'n', 'o', 'p', 'q']);
  assert.equal(CARD_KEYS.length, 32);
  assert.equal(new Set(CARD_KEYS).size, CARD_KEYS.length);
  for (const key of CARD_KEYS) assert.equal(Object.hasOwn(COMMAND_KEYS, key), false, `${key} is a command`);
  assert.equal(cardKeys(40).length, 32);
  assert.deepEqual(cardKeys(0), []);
});

test('a card key chooses the card in that slot, if there is one', () => {
  assert.deepEqual(keyAction(press('1'), 12), { type: 'card', index: 0 });
  assert.deepEqual(keyAction(press('0'), 12), { type: 'card', index: 9 });
  assert.deepEqual(keyAction(press('b'), 12), { type: 'card', index: 11 });
  assert.deepEqual(keyAction(press('B'), 12), { type: 'card', index: 11 }, 'caps lock or shift');
  assert.equal(keyAction(press('c'), 12), null, 'no 13th card');
  assert.deepEqual(keyAction(press('j'), 24), { type: 'card', index: 17 });
});

test('commands', () => {
  assert.deepEqual(keyAction(press('?', { shiftKey: true }), 12), { type: 'command', name: 'help' });
  assert.deepEqual(keyAction(press('Escape'), 12), { type: 'command', name: 'clearAll' });
  assert.deepEqual(keyAction(press('Backspace'), 12), { type: 'command', name: 'clearLast' });
  assert.deepEqual(keyAction(press('r'), 12), { type: 'command', name: 'redeal' });
  assert.deepEqual(keyAction(press('h'), 12), { type: 'command', name: 'history' });
  assert.deepEqual(keyAction(press('m'), 12), { type: 'command', name: 'mute' });
  assert.equal(keyAction(press('R'), 12), null, 'shift-r is not re-deal');
});

test('modifiers, held keys and typing in a field do nothing', () => {
  assert.equal(keyAction(press('1', { ctrlKey: true }), 12), null);
  assert.equal(keyAction(press('r', { metaKey: true }), 12), null, 'cmd-r reloads, it does not re-deal');
  assert.equal(keyAction(press('1', { altKey: true }), 12), null);
  assert.equal(keyAction(press('1', { repeat: true }), 12), null);
  assert.equal(keyAction(press('r', { repeat: true }), 12), null);
  assert.deepEqual(keyAction(press('Backspace', { repeat: true }), 12), { type: 'command', name: 'clearLast' });
  assert.equal(keyAction(press('1', { inField: true }), 12), null);
  assert.equal(keyAction(press('Enter'), 12), null, 'Enter belongs to the focused card');
  assert.equal(keyAction(press('ArrowLeft'), 12), null);
});

test('the help lists every command key', () => {
  const listed = new Set(SHORTCUTS.flatMap((s) => s.keys));
  for (const key of Object.keys(COMMAND_KEYS)) assert.ok(listed.has(key === 'Escape' ? 'Esc' : key), `${key} is not in the help`);
});
