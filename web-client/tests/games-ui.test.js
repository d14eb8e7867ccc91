// The pure parts behind the new games' screens: settings form → message fields, the settings
// line, turns and their clock, history rows and updates, the game-over summary, lost races,
// pinch zoom, and playing-card / emoji status runs.
import test from 'node:test';
import assert from 'node:assert/strict';

import { settingsFields, settingsForm, settingsText } from '../js/table-settings.js';
import { clockText, turnFraction, turnSecondsLeft, turnText } from '../js/turns.js';
import { formatAt, gameSummary, historyRow, historyUpdate, mistakesBySeat, playAgainText, pointsOf } from '../js/history.js';
import { lostRaceText, matchPop, pinchScale } from '../js/feedback.js';
import { applyDiff, applySnapshot } from '../js/table-state.js';
import { plainText, statusParts } from '../js/status-runs.js';
import * as messages from '../js/messages.js';

test('settings form values become top-level message fields', () => {
  assert.deepEqual(settingsFields('set', { scoring: 'classic', boardSize: '15' }), { scoring: 'classic', boardSize: 15 });
  assert.deepEqual(settingsFields('matchismo', { matchSize: '3', boardSize: '30' }), { matchSize: 3, boardSize: 30 });
  // Concentration's board is offered in pairs (the server's words for its sizes); the theme goes
  // by index; turn seconds as a number (0: no limit).
  assert.deepEqual(settingsForm('concentration').boardSize.options.slice(0, 2), [[8, '4 pairs'], [10, '5 pairs']]);
  assert.deepEqual(settingsFields('concentration', { boardSize: '12', theme: '3', turnSeconds: '20' }, 2), {
    boardSize: 12,
    theme: 3,
    turnSeconds: 20,
  });
  // Alone there are no turns to pass: a solo table leaves the turn clock out (issue 21: the form
  // is sent as shown, and its clock is for tables of players).
  assert.deepEqual(settingsFields('concentration', { boardSize: '12', theme: '3', turnSeconds: '20' }, 1), { boardSize: 12, theme: 3 });
  assert.equal(settingsForm('concentration', 1).turnSeconds, undefined);
  // What the form does not offer is left out (the server's default applies).
  assert.deepEqual(settingsFields('set', { scoring: 'weird', boardSize: '13' }), {});
  assert.deepEqual(settingsFields('set', { scoring: 'custom' }), {}, 'custom needs constants a small form does not ask');
  assert.deepEqual(settingsFields('concentration', { boardSize: '22' }), {});
  assert.deepEqual(settingsForm('concentration').theme.options.map(([, name]) => name), ['Animals', 'Food', 'Sports', 'Travel', 'Weather', 'Music']);
  assert.equal(settingsForm('set', 1).scoring.default, 'course');
  assert.equal(settingsForm('set', 4).scoring.default, 'classic');
  assert.deepEqual(settingsForm('concentration').boardSize.options.map(([v]) => v), [8, 10, 12, 14, 16, 18, 20]);
  // A setting with one value (Set's three cards, Concentration's one scoring) is not a choice.
  assert.equal(settingsForm('set', 1).matchSize, undefined);
  assert.equal(settingsForm('concentration', 4).scoring, undefined);
  assert.equal(settingsForm('concentration', 4).showSelections, undefined);
  assert.deepEqual(Object.keys(settingsForm('matchismo', 4)), ['matchSize', 'boardSize', 'showSelections']);
});

test('playSolo and createTable carry the settings at the top level', () => {
  assert.deepEqual(messages.playSolo(7, 'set', { scoring: 'classic', boardSize: 15 }), {
    type: 'playSolo', id: 7, game: 'set', scoring: 'classic', boardSize: 15,
  });
  assert.deepEqual(messages.createTable(8, { game: 'concentration', seats: 2, private: true, settings: { boardSize: 8, theme: 1 } }), {
    type: 'createTable', id: 8, game: 'concentration', seats: 2, private: true, boardSize: 8, theme: 1,
  });
  // Settings cannot overwrite the message's own fields.
  assert.equal(messages.playSolo(9, 'set', { type: 'x', id: 1, game: 'y' }).type, 'playSolo');
});

test('the settings line at the table', () => {
  assert.equal(settingsText('set', { scoring: 'classic', boardSize: 15 }), 'Classic scoring · 15 cards');
  assert.equal(settingsText('matchismo', { matchSize: 3, boardSize: 24, scoring: 'course' }), '3-card matches · 24 cards');
  assert.equal(settingsText('concentration', { boardSize: 16 }, 30), '8 pairs · Animals · 30 s turns');
  assert.equal(settingsText('set', { scoring: 'custom', boardSize: 12, showSelections: false }), 'Custom scoring · 12 cards · opponents’ picks hidden');
  // A board size of the range that is no choice of the form: the number and the unit.
  assert.equal(settingsText('matchismo', { matchSize: 2, boardSize: 13, scoring: 'course' }), '2-card matches · 13 cards');
  assert.equal(settingsText('concentration', { boardSize: 8, theme: 5 }, null), '4 pairs · Music · no turn limit');
  // What a choice costs, where it costs anything (issue 34, point 5).
  assert.equal(settingsText('matchismo', { matchSize: 2, boardSize: 24, scoring: 'course', costToChoose: 1 }), '2-card matches · 24 cards · a choice costs 1');
  assert.equal(settingsText('set', { scoring: 'classic', boardSize: 12, costToChoose: 0 }), 'Classic scoring · 12 cards');
});

function concentration(now) {
  return applySnapshot(
    {
      id: 't1', version: 3, game: 'concentration', you: 0, seats: 2, phase: 'playing',
      board: [{ id: 0, faceUp: false }, { id: 1, faceUp: false }],
      players: [{ seat: 0, name: 'Ann', flips: 0 }, { seat: 1, name: 'Bob', flips: 0 }],
      turn: 0, turnSeconds: 30, turnLeft: 12,
    },
    now,
  );
}

test('turns: whose turn, and a countdown that each turn event restarts at turnSeconds', () => {
  let state = concentration(1000);
  assert.equal(turnText(state.table), 'Your turn');
  assert.equal(turnSecondsLeft(state.table, 1000), 12);
  assert.equal(turnSecondsLeft(state.table, 1000 + 2500), 10); // 9.5 s left shows 10
  assert.equal(clockText(turnSecondsLeft(state.table, 1000 + 2500)), '0:10');
  ({ state } = applyDiff(state, { type: 'diff', table: 't1', version: 4, events: [{ kind: 'turn', seat: 1 }] }, 20000));
  assert.equal(turnText(state.table), "Bob's turn");
  assert.equal(turnSecondsLeft(state.table, 20000), 30);
  assert.equal(turnSecondsLeft(state.table, 20000 + 31000), 0);
  assert.equal(turnFraction(state.table, 20000 + 15000), 0.5);
  // No clock: no seconds, but still whose turn.
  const solo = applySnapshot({ id: 's', version: 0, game: 'concentration', you: 0, board: [], players: [{ seat: 0, name: 'A' }], turn: 0 }, 0);
  assert.equal(turnSecondsLeft(solo.table, 5), null);
  assert.equal(turnText(solo.table), 'Your turn');
  assert.equal(turnText(applySnapshot({ id: 'x', version: 0, board: [], players: [] }, 0).table), '');
});

const RUNS = [{ text: 'Ann matched ' }, { card: 3, text: 'Q♥', color: '#c62828', label: 'queen of hearts' }];

test('history: snapshot entries, appended events, cleared by a re-deal', () => {
  let { table } = applySnapshot({
    id: 't1', version: 1, you: 0, board: [], players: [{ seat: 0, name: 'Ann' }, { seat: 1, name: 'Bob' }],
    history: [{ n: 1, at: 41.2, seat: 0, kind: 'match', points: 12, runs: RUNS }, { n: 2, kind: 'bogus' }],
  });
  assert.equal(table.history.length, 1);
  let state = { table, awaitingSnapshot: false };
  const entry = { n: 2, at: 65, seat: 1, kind: 'mismatch', penalty: 2, runs: [{ text: 'miss' }] };
  ({ state } = applyDiff(state, { table: 't1', version: 2, events: [{ kind: 'history', entry }] }));
  assert.deepEqual(state.table.history.map((e) => e.n), [1, 2]);
  const row = historyRow(state.table.history[1], state.table.players, 0);
  assert.deepEqual([row.n, row.time, row.points, row.sign, row.who], [2, '1:05', '−2', 'loss', 'Bob']);
  assert.deepEqual(pointsOf(state.table.history[0]), { text: '+12', sign: 'gain' });
  assert.equal(historyRow(state.table.history[0], state.table.players, 0).who, 'You');
  // A malformed entry asks for a snapshot rather than being guessed at.
  assert.equal(applyDiff(state, { table: 't1', version: 3, events: [{ kind: 'history', entry: { n: 3 } }] }).resync, true);
  ({ state } = applyDiff(state, { table: 't1', version: 3, events: [{ kind: 'redeal', board: [], deckCount: 0 }] }));
  assert.deepEqual(state.table.history, []);
});

test('history view updates append, and start again after a re-deal', () => {
  const h = [{ n: 1 }, { n: 2 }, { n: 3 }];
  assert.deepEqual(historyUpdate(0, null, h), { reset: false, append: h });
  assert.deepEqual(historyUpdate(2, 1, h), { reset: false, append: [{ n: 3 }] });
  assert.deepEqual(historyUpdate(3, 1, h).append, []);
  assert.equal(historyUpdate(3, 1, [{ n: 1 }]).reset, true); // shorter: cleared and restarted
  assert.equal(historyUpdate(2, 7, h).reset, true); // another game's rows
  assert.equal(formatAt(0), '0:00');
  assert.equal(formatAt(725.9), '12:05');
  assert.equal(formatAt(null), '');
});

test('game-over summary: standings, matches, mistakes from the history, time played', () => {
  const standings = [
    { seat: 1, name: 'Bob', score: 9, matches: 3, rank: 1 },
    { seat: 0, name: 'Ann', score: 4, matches: 1, rank: 2 },
  ];
  const history = [
    { n: 1, at: 10, seat: 0, kind: 'mismatch', penalty: 2 },
    { n: 2, at: 20, seat: 1, kind: 'match', points: 3 },
    { n: 3, at: 95.5, seat: 0, kind: 'mismatch', penalty: 2 },
  ];
  const s = gameSummary({ game: 'set', standings, history, you: 0 });
  assert.deepEqual(s.rows.map((r) => [r.rank, r.name, r.score, r.matches, r.mistakes]), [
    [1, 'Bob', 9, 3, 0],
    [2, 'Ann', 4, 1, 2],
  ]);
  assert.equal(s.rows[1].detail, '1 set · 2 mistakes');
  assert.equal(s.timeText, 'Time played 1:35');
  // Without history: no mistakes column, the client's own clock.
  const bare = gameSummary({ game: 'concentration', standings, elapsedSeconds: 61 });
  assert.equal(bare.rows[0].mistakes, null);
  assert.equal(bare.rows[0].detail, '3 pairs');
  assert.equal(bare.time, '1:01');
  assert.deepEqual([...mistakesBySeat(history)], [[0, 2]]);
  assert.equal(playAgainText({ seats: [0, 2], needed: 3 }), '2 of 3 want to play again');
  assert.equal(playAgainText(null), '');
});

test('a lost race names who took the cards, only just after their match', () => {
  let state = concentration(0);
  state = { ...state, table: { ...state.table, game: 'set' } };
  ({ state } = applyDiff(state, { table: 't1', version: 4, events: [{ kind: 'match', seat: 1, cards: [0, 1], points: 1 }] }, 1000));
  assert.equal(lostRaceText(state.table, 2000), 'Bob took that set');
  assert.equal(lostRaceText(state.table, 10000), null);
  ({ state } = applyDiff(state, { table: 't1', version: 5, events: [{ kind: 'match', seat: 0, cards: [0, 1], points: 1 }] }, 3000));
  assert.equal(lostRaceText(state.table, 3500), null); // my own match
  assert.equal(matchPop(12), '+12');
  assert.equal(matchPop(0), null);
});

test('pinch zoom scale', () => {
  assert.equal(pinchScale(1, 100, 200), 2);
  assert.equal(pinchScale(2, 100, 50), 1);
  assert.equal(pinchScale(1, 100, 1000), 3);
  assert.equal(pinchScale(1, 100, 10), 1);
  assert.equal(pinchScale(1.5, 0, 10), 1.5);
});

test('playing-card and emoji status runs are cards, not text', () => {
  const parts = statusParts([
    { text: 'Ann matched ' },
    { card: 4, text: '10♦', color: '#c62828', label: 'ten of diamonds' },
    { text: ' ' },
    { card: 9, text: 'K♠', color: '#1b1b1b', label: 'king of spades' },
    { card: 2, text: '🦊', label: 'fox' },
    { card: 5, text: '☀️', label: 'sun' },
    { card: 6, text: 'Q♥ <b>', label: 'not a card' },
  ]);
  assert.deepEqual(parts[1], { kind: 'playing', card: 4, rank: '10', suit: '♦', red: true, label: 'ten of diamonds' });
  assert.equal(parts[3].red, false);
  assert.deepEqual(parts[4], { kind: 'emoji', card: 2, emoji: '🦊', label: 'fox' });
  assert.equal(parts[5].kind, 'emoji');
  assert.equal(parts[6].kind, 'text');
  assert.equal(plainText(RUNS), 'Ann matched Q♥');
});

test('face-down games: a flip counts for its seat, a match keeps the cards on the board, dimmed', () => {
  let state = concentration(0);
  const flip = (version, id, emoji) => ({ table: 't1', version, events: [{ kind: 'flip', seat: 0, card: { id, faceUp: true, emoji } }] });
  ({ state } = applyDiff(state, flip(4, 0, '🦊')));
  ({ state } = applyDiff(state, flip(5, 1, '🦊')));
  assert.deepEqual(state.table.players.map((p) => p.flips), [2, 0]);
  ({ state } = applyDiff(state, { table: 't1', version: 6, events: [{ kind: 'match', seat: 0, cards: [0, 1], points: 1 }] }));
  assert.deepEqual(state.table.board.map((c) => c.matched === true), [true, true]);
  assert.equal(state.table.board[0].emoji, '🦊');
});

test('with others, Set and Matchismo can hide the opponents’ picks; Concentration and solo cannot', () => {
  assert.equal(settingsForm('set', 4).showSelections.default, true);
  assert.deepEqual(settingsForm('set', 4).showSelections.options, [[true, 'shown'], [false, 'hidden']]);
  assert.equal(settingsForm('matchismo', 2).showSelections.default, true);
  assert.equal(settingsForm('set', 1).showSelections, undefined);
  assert.equal(settingsForm('concentration', 4).showSelections, undefined);
  assert.deepEqual(settingsFields('set', { showSelections: 'false' }, 4), { showSelections: false });
  assert.deepEqual(settingsFields('matchismo', { showSelections: 'true' }, 3), { showSelections: true });
  // Alone there is nobody to hide them from: the field is not sent.
  assert.deepEqual(settingsFields('set', { showSelections: 'false' }, 1), {});
  assert.deepEqual(settingsFields('concentration', { showSelections: 'false' }, 4), {});
  assert.equal(
    settingsText('set', { scoring: 'classic', boardSize: 12, showSelections: false }),
    'Classic scoring · 12 cards · opponents’ picks hidden',
  );
});
