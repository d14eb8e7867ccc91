import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DEFAULT_SEATS, changedSettings, inviteTitle, pickedGame, seatsOf, settingValue } from '../js/lobby-form.js';
import { MAX_SEATS } from '../js/seats.js';

test('a game this client does not know (stored long ago, or made up) is Set', () => {
  assert.equal(pickedGame('concentration'), 'concentration');
  assert.equal(pickedGame('matchismo'), 'matchismo');
  assert.equal(pickedGame('poker'), 'set');
  assert.equal(pickedGame(null), 'set');
});

test('seats: 1 to MAX_SEATS as chosen, anything else the default', () => {
  assert.equal(seatsOf('1'), 1);
  assert.equal(seatsOf(String(MAX_SEATS)), MAX_SEATS);
  for (const raw of ['0', String(MAX_SEATS + 1), '', 'four', undefined]) assert.equal(seatsOf(raw), DEFAULT_SEATS, raw);
});

test('only the settings the player changed are sent; the others keep the server defaults', () => {
  const touched = new Set(['pairs']);
  const values = { pairs: '6', theme: '2', turnSeconds: '30' };
  assert.deepEqual(changedSettings('concentration', touched, values, 2), { boardSize: 12 });
  assert.deepEqual(changedSettings('concentration', new Set(), values, 2), {});
});

test('a redrawn select keeps the value the player chose, else follows the default', () => {
  const field = { default: 8 };
  const kept = new Map([['pairs', '6']]);
  assert.equal(settingValue('pairs', new Set(['pairs']), kept, field), '6');
  assert.equal(settingValue('pairs', new Set(), kept, field), '8');
  assert.equal(settingValue('pairs', new Set(['pairs']), new Map(), field), '8', 'another game: nothing kept');
});

test('the invite dialog says which game when the link names it (issue 21)', () => {
  assert.equal(inviteTitle('set'), 'You are invited to a game of Set');
  assert.equal(inviteTitle('concentration'), 'You are invited to a game of Concentration');
  assert.equal(inviteTitle(null), 'You are invited to a game');
  assert.equal(inviteTitle('poker'), 'You are invited to a game');
});
