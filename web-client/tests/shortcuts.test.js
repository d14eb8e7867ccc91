import { test } from 'node:test';
import assert from 'node:assert/strict';
import { shortcut } from '../js/shortcuts.js';

const CLOSED = { help: false, settings: false, confirmRedeal: false, confirmLeave: false };
const AT_TABLE = {
  replayShown: false, tableShown: true, dialogs: CLOSED, boardLength: 12, showingHistory: false, canRedeal: true, canHint: true,
};
const press = (key, more = {}) => ({ key, ctrlKey: false, metaKey: false, altKey: false, repeat: false, inField: false, ...more });
const at = (more) => ({ ...AT_TABLE, ...more });

test('at the table: card keys choose, Escape and Backspace un-choose, r and i only when their buttons are there', () => {
  assert.deepEqual(shortcut(press('3'), AT_TABLE), { prevent: true, command: { do: 'choose', index: 2 } });
  assert.deepEqual(shortcut(press('Escape'), AT_TABLE).command, { do: 'event', event: { type: 'unchoose', all: true } });
  assert.deepEqual(shortcut(press('Backspace'), AT_TABLE).command, { do: 'event', event: { type: 'unchoose', all: false } });
  assert.deepEqual(shortcut(press('r'), AT_TABLE).command, { do: 'event', event: { type: 'askRedeal' } });
  assert.deepEqual(shortcut(press('r'), at({ canRedeal: false })), { prevent: true, command: null });
  assert.deepEqual(shortcut(press('i'), AT_TABLE).command, { do: 'event', event: { type: 'hint' } });
  assert.deepEqual(shortcut(press('i'), at({ canHint: false })).command, null);
  assert.deepEqual(shortcut(press('h'), AT_TABLE).command, { do: 'history' });
});

test('in the history view a card key does nothing and Escape goes back to the board', () => {
  assert.deepEqual(shortcut(press('3'), at({ showingHistory: true })), { prevent: true, command: null });
  assert.deepEqual(shortcut(press('Escape'), at({ showingHistory: true })).command, { do: 'closeHistory' });
});

test('with the chat panel open the game\'s keys are off: Escape closes it, a character goes to its input', () => {
  const chat = at({ showingChat: true });
  assert.deepEqual(shortcut(press('Escape'), chat), { prevent: true, command: { do: 'closeChat' } });
  assert.deepEqual(shortcut(press('Escape', { inField: true }), chat), { prevent: true, command: { do: 'closeChat' } }, 'from its input too');
  assert.equal(shortcut(press('Escape', { inField: true, composing: true }), chat), null, 'an input method cancels first');
  for (const key of ['3', 'a', 'r', 'h', 'i', 'm', '?', 'é']) {
    assert.equal(shortcut(press(key, { inField: true }), chat), null, `${key} typed in the input is the input's`);
    assert.deepEqual(shortcut(press(key), chat), { prevent: false, command: { do: 'focusChat' } }, `${key} typed elsewhere in the panel`);
  }
  for (const key of ['Backspace', 'Enter', 'ArrowLeft', 'Tab']) assert.equal(shortcut(press(key), chat), null, key);
  assert.equal(shortcut(press('a', { ctrlKey: true }), chat), null);
  assert.equal(shortcut(press('Escape'), at({ showingChat: true, dialogs: { ...CLOSED, help: true } })), null, 'a dialog keeps its keys');
});

test('? opens help anywhere but over another dialog; m toggles sound but not under a dialog', () => {
  const lobby = at({ tableShown: false, boardLength: 0 });
  assert.deepEqual(shortcut(press('?'), lobby), { prevent: true, command: { do: 'help' } });
  assert.deepEqual(shortcut(press('?'), at({ dialogs: { ...CLOSED, help: true } })).command, { do: 'help' }, 'closes it again');
  assert.equal(shortcut(press('?'), at({ dialogs: { ...CLOSED, settings: true } })), null);
  assert.deepEqual(shortcut(press('m'), lobby), { prevent: false, command: { do: 'mute' } });
  assert.equal(shortcut(press('m'), at({ dialogs: { ...CLOSED, confirmLeave: true } })), null);
  assert.equal(shortcut(press('3'), at({ dialogs: { ...CLOSED, help: true } })), null);
  assert.equal(shortcut(press('3'), lobby), null, 'no table: the key is not ours');
});

test('the replay steps with ← → Home End; typing in a field or a modifier is left alone', () => {
  const replay = at({ replayShown: true, tableShown: false, boardLength: 0 });
  assert.deepEqual(shortcut(press('ArrowRight'), replay), { prevent: true, command: { do: 'event', event: { type: 'replayStep', how: 'next' } } });
  assert.deepEqual(shortcut(press('Home'), replay).command.event.how, 'first');
  assert.equal(shortcut(press('ArrowRight', { inField: true }), replay), null);
  assert.equal(shortcut(press('ArrowRight'), at({ ...replay, dialogs: { ...CLOSED, help: true } })), null);
  assert.equal(shortcut(press('3', { ctrlKey: true }), AT_TABLE), null);
  assert.equal(shortcut(press('3', { inField: true }), AT_TABLE), null);
});

test('the arena dialog keeps the keyboard: no card, no help over it', () => {
  const arena = at({ dialogs: { ...CLOSED, arena: true } });
  assert.equal(shortcut(press('3'), arena), null);
  assert.equal(shortcut(press('r'), arena), null);
  assert.equal(shortcut(press('?'), arena), null);
  assert.equal(shortcut(press('Escape'), at({ showingChat: true, dialogs: { ...CLOSED, arena: true } })), null);
});

// Issue 34 (WCAG 2.2, 2.1.4): every single-key shortcut can be turned off; the named keys stay.
test('with single-key shortcuts off, no letter, digit or sign does anything; Escape, Backspace and the arrows still do', () => {
  const off = at({ shortcutsOff: true });
  for (const key of ['3', 'a', 'r', 'i', 'h', '?', 'm', 'R']) assert.equal(shortcut(press(key), off), null, key);
  assert.equal(shortcut(press('?'), { ...off, tableShown: false }), null);
  assert.deepEqual(shortcut(press('Escape'), off).command, { do: 'event', event: { type: 'unchoose', all: true } });
  assert.deepEqual(shortcut(press('Backspace'), off).command, { do: 'event', event: { type: 'unchoose', all: false } });
  assert.equal(shortcut(press('ArrowRight'), { ...off, replayShown: true, tableShown: false }).command.event.type, 'replayStep');
  // With them on, as before.
  assert.deepEqual(shortcut(press('3'), at({ shortcutsOff: false })).command, { do: 'choose', index: 2 });
});

test('with "How to play" open, the board\'s keys and help wait for it', () => {
  const open = at({ dialogs: { ...CLOSED, howTo: true } });
  assert.equal(shortcut(press('3'), open), null);
  assert.equal(shortcut(press('?'), open), null);
});
