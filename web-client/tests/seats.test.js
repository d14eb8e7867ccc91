import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  MAX_SEATS,
  SEAT_COLORS,
  awayText,
  leaveNeedsConfirmation,
  showsInvite,
  phaseText,
  redealLabel,
  seatColor,
  seatColorIndex,
  seatColorVar,
  spectatorsText,
  startingText,
  voteLabel,
} from '../js/seats.js';
import { DEFAULT_PALETTE } from '../js/card-view.js';
import { readFileSync } from 'node:fs';

const rgb = (hex) => [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16));
const distance = (a, b) => Math.hypot(...rgb(a).map((v, i) => v - rgb(b)[i]));

test('each seat has its own colour variable', () => {
  assert.equal(MAX_SEATS, 8);
  assert.deepEqual([0, 1, 2, 3, 4, 5, 6, 7].map(seatColorVar), [
    '--seat-0', '--seat-1', '--seat-2', '--seat-3', '--seat-4', '--seat-5', '--seat-6', '--seat-7',
  ]);
  assert.equal(seatColorIndex(9), 1);
  assert.equal(seatColorIndex(-1), 0);
  assert.equal(seatColor(0), '#1e63d6');
  assert.equal(seatColor(3), '#e040b8');
});

test('the eight seat colours differ from each other and from the Set colours', () => {
  assert.equal(new Set(SEAT_COLORS).size, 8);
  for (let i = 0; i < 8; i += 1) {
    for (let j = i + 1; j < 8; j += 1) {
      assert.ok(distance(SEAT_COLORS[i], SEAT_COLORS[j]) > 60, `${SEAT_COLORS[i]} vs ${SEAT_COLORS[j]}`);
    }
    for (const set of Object.values(DEFAULT_PALETTE)) {
      assert.ok(distance(SEAT_COLORS[i], set) > 60, `${SEAT_COLORS[i]} vs ${set}`);
    }
  }
});

test('the stylesheet defines the same seat colours', () => {
  const css = readFileSync(new URL('../css/app.css', import.meta.url), 'utf8');
  SEAT_COLORS.forEach((hex, i) => assert.match(css, new RegExp(`--seat-${i}: ${hex};`)));
});

test('phase texts', () => {
  const players = [{ seat: 0 }, { seat: 2 }];
  assert.equal(phaseText({ phase: 'waiting', players, seats: 4 }), 'Waiting for players (2/4)');
  assert.equal(phaseText({ phase: 'countdown', players, seats: 4, countdown: 3 }), 'Starting in 3…');
  assert.equal(phaseText({ phase: 'countdown', players, seats: 4, countdown: 3 }, 1), 'Starting in 1…');
  assert.equal(phaseText({ phase: 'playing', players, seats: 4 }), 'Playing');
  assert.equal(phaseText({ phase: 'finished', players, seats: 4 }), 'Game over');
  assert.equal(startingText(2), 'Starting in 2…');
});

test('vote and re-deal labels', () => {
  assert.equal(voteLabel({ seats: [1, 2], needed: 3 }), '2 of 3 votes');
  assert.equal(voteLabel({ seats: [1], needed: 1 }), '1 of 1 vote');
  assert.equal(voteLabel({ seats: [], needed: 2 }), '');
  assert.equal(voteLabel(null), '');
  assert.equal(redealLabel({ host: true, voted: false }), 'Re-deal');
  assert.equal(redealLabel({ host: false, voted: false }), 'Vote to re-deal');
  assert.equal(redealLabel({ host: false, voted: true }), 'Voted to re-deal');
});

test('away and spectator texts', () => {
  assert.equal(awayText(27), 'reconnecting… 27s');
  assert.equal(awayText(0), 'reconnecting… 0s');
  assert.equal(awayText(null), 'reconnecting…');
  assert.equal(spectatorsText(0), '');
  assert.equal(spectatorsText(3), '3 watching');
});

test('leaving asks first only when a seated player would throw away a game in progress', () => {
  const table = { you: 0, phase: 'playing', over: false, code: 'ABCDEFGHJK', seats: 2 };
  assert.equal(leaveNeedsConfirmation(table), true);
  assert.equal(leaveNeedsConfirmation({ ...table, over: true }), false);
  assert.equal(leaveNeedsConfirmation({ ...table, phase: 'waiting' }), false);
  assert.equal(leaveNeedsConfirmation({ ...table, you: null }), false, 'a spectator just leaves');
  assert.equal(leaveNeedsConfirmation(null), false);
});

test('a solo table offers no invite', () => {
  assert.equal(showsInvite({ code: 'ABCDEFGHJK', seats: 4 }), true);
  assert.equal(showsInvite({ code: 'ABCDEFGHJK', seats: 1 }), false);
  assert.equal(showsInvite({ code: null, seats: 4 }), false);
  assert.equal(showsInvite(null), false);
});
