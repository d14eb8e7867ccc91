import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DEFAULT_SEATS, inviteTitle, pickedGame, seatsOf, settingValue, shownSettings } from '../js/lobby-form.js';
import { settingsForm } from '../js/table-settings.js';
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

test('every button sends the settings the form shows, changed or not (issue 21: solo ignored them)', () => {
  // What the form shows with 4 seats chosen and nothing changed: the defaults for 4.
  const shown = (game, seats) =>
    Object.fromEntries(Object.entries(settingsForm(game, seats)).map(([name, field]) => [name, String(field.default)]));
  const form = shown('set', 4);
  assert.equal(form.scoring, 'classic');
  // Play solo sends them for one seat: the classic scoring shown, not the server's solo default.
  assert.deepEqual(shownSettings('set', form, 1), { scoring: 'classic', boardSize: 12 });
  // Quick match and Create private send them for the seats chosen.
  assert.deepEqual(shownSettings('set', form, 4), { scoring: 'classic', boardSize: 12, showSelections: true });
  // A changed value goes as changed.
  assert.deepEqual(shownSettings('set', { ...form, scoring: 'course' }, 1), { scoring: 'course', boardSize: 12 });
  const concentration = { boardSize: '12', theme: '2', turnSeconds: '30' };
  assert.deepEqual(shownSettings('concentration', concentration, 2), { boardSize: 12, theme: 2, turnSeconds: 30 });
  // A value the form does not offer is left out: the server's default applies.
  assert.deepEqual(shownSettings('set', { scoring: 'made-up', boardSize: '13' }, 1), {});
});

test('a redrawn select keeps the value the player chose, else follows the default', () => {
  const field = { default: 8 };
  const kept = new Map([['boardSize', '6']]);
  assert.equal(settingValue('boardSize', new Set(['boardSize']), kept, field), '6');
  assert.equal(settingValue('boardSize', new Set(), kept, field), '8');
  assert.equal(settingValue('boardSize', new Set(['boardSize']), new Map(), field), '8', 'another game: nothing kept');
});

test('the invite dialog says which game when the link names it (issue 21)', () => {
  assert.equal(inviteTitle('set'), 'You are invited to a game of Set');
  assert.equal(inviteTitle('concentration'), 'You are invited to a game of Concentration');
  assert.equal(inviteTitle(null), 'You are invited to a game');
  assert.equal(inviteTitle('poker'), 'You are invited to a game');
});
