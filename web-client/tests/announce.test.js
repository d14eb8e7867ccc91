import { test } from 'node:test';
import assert from 'node:assert/strict';
import { announcement } from '../js/announce.js';

// Issue 34, "Playing without sight": others' moves are announced politely, at most one
// announcement per move, none while the player is in the middle of choosing.
const CARD = { card: 17, text: '◆◆', symbol: 'diamond', count: 2, color: '#d6204e', alpha: 0.35, stroke: 1, label: 'two striped red diamonds' };
const chose = (seat, name) => ({ type: 'diff', seat, events: [{ kind: 'select', seat, card: 17 }], status: [{ text: name, seat }, { text: ' chose ' }, CARD] });
const matched = (seat, name) => ({
  type: 'diff', seat, events: [{ kind: 'match', seat, cards: [17, 40, 63], points: 3 }],
  status: [{ text: name, seat }, { text: ' matched ' }, CARD, { text: ' for ' }, { text: '+3', color: '#1a7f37' }, { text: '.' }],
});

test("another player's move is said once, in words", () => {
  assert.equal(announcement(chose(1, 'Bob'), 0, false), 'Bob chose two striped red diamonds');
  assert.equal(announcement(matched(1, 'Bob'), 0, false), 'Bob matched two striped red diamonds for +3.');
});

test('nothing while I am choosing; my own picks are not said, what judged them is', () => {
  assert.equal(announcement(chose(1, 'Bob'), 0, true), null);
  assert.equal(announcement(matched(1, 'Bob'), 0, true), null);
  assert.equal(announcement(chose(0, 'Ada'), 0, true), null);
  assert.equal(announcement(chose(0, 'Ada'), 0, false), null);
  assert.equal(announcement(matched(0, 'Ada'), 0, false), 'Ada matched two striped red diamonds for +3.');
});

test('the end of the game is said even mid-choice; a watcher hears every move; no line, nothing', () => {
  const over = { type: 'diff', events: [{ kind: 'over', standings: [] }], status: [{ text: 'Game over: ' }, { text: 'Bob', seat: 1 }, { text: ' wins with 9.' }] };
  assert.equal(announcement(over, 0, true), 'Game over: Bob wins with 9.');
  assert.equal(announcement(chose(0, 'Ada'), null, false), 'Ada chose two striped red diamonds');
  assert.equal(announcement({ type: 'diff', seat: 1, events: [] }, 0, false), null);
  assert.equal(announcement({ type: 'diff', seat: 1, events: [], status: [{ text: '  ' }] }, 0, false), null);
  assert.equal(announcement(null, 0, false), null);
});
