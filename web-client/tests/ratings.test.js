// Ratings beside names (ratings.js): read from snapshots, lobby rows and high scores, shown with
// a provisional mark, `seatRatings` applied to the right table, and a game's change.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  applySeatRatings, changeDirection, changeText, gamesText, keepRatingChanges, ratingChange, ratingText, ratingTitle,
  readListedRating, readRating, readScoreRating, replayRatingsText, scoreRatingShown, shownRating, standingsRatings,
} from '../js/ratings.js';
import { applyDiff, applySnapshot } from '../js/table-state.js';
import { scoreboardModel } from '../js/table-model.js';
import { readScores, scoreRows } from '../js/scores.js';
import { table } from './controller-fixtures.js';

const NEW = { rating: 1500, games: 0, provisional: true };

test('a rating is read from the wire, rounded; anything else is none', () => {
  assert.deepEqual(readRating({ rating: 1532, games: 1, provisional: true }), { rating: 1532, games: 1, provisional: true });
  assert.deepEqual(readRating({ rating: 1611.5, games: 14, provisional: false }), { rating: 1612, games: 14, provisional: false });
  assert.deepEqual(readRating({ rating: 1500 }), { rating: 1500, games: null, provisional: false });
  for (const bad of [null, undefined, 1500, 'x', [], {}, { rating: '1500' }, { rating: Infinity }]) assert.equal(readRating(bad), null);
  // A lobby row's player carries the number and `provisional` beside it.
  assert.deepEqual(readListedRating({ name: 'Ada', rating: 1532, provisional: true }), { rating: 1532, games: null, provisional: true });
  assert.equal(readListedRating({ name: 'Ada' }), null);
  // A high-score player's rating after that game, with its change.
  assert.deepEqual(readScoreRating({ rating: 1468, change: -32, games: 1, provisional: true }), { rating: 1468, games: 1, provisional: true, change: -32 });
  assert.deepEqual(readScoreRating({ rating: 1468 }), { rating: 1468, games: null, provisional: false, change: null });
  assert.equal(readScoreRating(null), null);
});

test('a provisional rating is marked, and its title and spoken words say why', () => {
  assert.equal(ratingText({ rating: 1532, games: 1, provisional: true }), '1532?');
  assert.equal(ratingText({ rating: 1611, games: 14, provisional: false }), '1611');
  assert.equal(ratingText(null), '');
  assert.equal(ratingTitle({ rating: 1532, games: 1, provisional: true }), 'provisional rating: 1 rated game');
  assert.equal(ratingTitle(NEW), 'provisional rating: no rated games yet');
  assert.equal(ratingTitle({ rating: 1611, games: 14, provisional: false }), 'rating: 14 rated games');
  assert.equal(ratingTitle({ rating: 1611, games: null, provisional: true }), 'provisional rating');
  assert.equal(ratingTitle(null), '');
  assert.deepEqual(shownRating({ rating: 1532, games: 1, provisional: true }), {
    text: '1532?', title: 'provisional rating: 1 rated game', label: 'provisional rating 1532, 1 rated game',
  });
  assert.equal(shownRating({ rating: 1611, games: 3, provisional: false }).label, 'rating 1611, 3 rated games');
  assert.equal(shownRating(null), null);
  assert.equal(shownRating(undefined), null);
  assert.deepEqual([gamesText(0), gamesText(1), gamesText(2)], ['no rated games yet', '1 rated game', '2 rated games']);
});

test('a change is signed with a real minus sign, and coloured by its direction', () => {
  assert.deepEqual([changeText(32), changeText(-32), changeText(0), changeText(null), changeText(1.5)], ['+32', '−32', '±0', '', '']);
  assert.deepEqual([changeDirection(32), changeDirection(-1), changeDirection(0), changeDirection(undefined)], ['up', 'down', 'even', '']);
});

test('a game\'s change is the new rounded rating less the one shown, once it counts one more game', () => {
  assert.equal(ratingChange(NEW, { rating: 1532, games: 1, provisional: true }), 32);
  assert.equal(ratingChange(NEW, { rating: 1468, games: 1, provisional: true }), -32);
  // A draw between equals counts a game and changes nothing: ±0, not "no change known".
  assert.equal(ratingChange(NEW, { rating: 1500, games: 1, provisional: true }), 0);
  // The same ratings told again (someone sat down, a hello), or told late: no change.
  assert.equal(ratingChange({ rating: 1532, games: 1 }, { rating: 1532, games: 1 }), null);
  assert.equal(ratingChange(null, { rating: 1532, games: 1 }), null);
  assert.equal(ratingChange(NEW, null), null);
  // Without the games on either side, a different number is a change.
  assert.equal(ratingChange({ rating: 1500, games: null }, { rating: 1516, games: 3 }), 16);
  assert.equal(ratingChange({ rating: 1500, games: null }, { rating: 1500, games: 3 }), null);
});

const snapshot = (extra = {}) => applySnapshot(table(extra), 0);
const seatRatings = (seats, id = 't7') => ({ type: 'seatRatings', table: id, seats });

test('a snapshot\'s players carry their ratings; a player without one shows none', () => {
  const s = snapshot({
    players: [
      { seat: 0, name: 'Bo', score: 0, matches: 0, selection: [], rating: { rating: 1500, games: 0, provisional: true } },
      { seat: 1, name: 'Ada', score: 0, matches: 0, selection: [] },
    ],
  });
  assert.deepEqual(s.table.players[0].rating, NEW);
  assert.equal(Object.hasOwn(s.table.players[1], 'rating'), false);
  assert.deepEqual(s.table.ratingChanges, {});
  const rows = scoreboardModel(s.table).rows;
  assert.deepEqual(rows.map((r) => r.rating?.text ?? null), ['1500?', null]);
  assert.equal(rows[0].rating.title, 'provisional rating: no rated games yet');
  // A bad rating is none, not a failed snapshot.
  assert.equal(Object.hasOwn(snapshot({ players: [{ seat: 0, name: 'Bo', rating: 'top' }] }).table.players[0], 'rating'), false);
});

test('seatRatings replaces every seat\'s rating at our table, whatever the version, and changes nothing else', () => {
  const s = snapshot();
  const next = applySeatRatings(s, seatRatings([{ seat: 0, rating: 1500, games: 0, provisional: true }, { seat: 1, rating: 1532, games: 1, provisional: true }]));
  assert.notEqual(next, s);
  assert.deepEqual(next.table.players.map((p) => p.rating), [NEW, { rating: 1532, games: 1, provisional: true }]);
  assert.equal(next.table.version, s.table.version, 'not a versioned diff');
  assert.deepEqual(next.table.ratingChanges, {}, 'no change while the game runs');
  assert.equal(s.table.players[0].rating, undefined, 'the state given is not modified');
  // A seat it does not list shows none any more; an entry that is not a rating is none.
  const fewer = applySeatRatings(next, seatRatings([{ seat: 1, rating: 1540, games: 2, provisional: true }, { seat: 0, rating: 'x' }, null, { rating: 1 }]));
  assert.deepEqual(fewer.table.players.map((p) => p.rating?.rating ?? null), [null, 1540]);
  // Even while a snapshot is awaited (it will carry them itself).
  const waiting = { ...next, awaitingSnapshot: true };
  assert.equal(applySeatRatings(waiting, seatRatings([])).awaitingSnapshot, true);
  // Another table's, no table, or not a seatRatings at all: the same state.
  assert.equal(applySeatRatings(s, seatRatings([{ seat: 0, rating: 1, games: 1 }], 't8')), s);
  assert.equal(applySeatRatings(s, { type: 'seatRatings', seats: [] }), s);
  assert.equal(applySeatRatings(s, seatRatings('all')), s);
  const none = { table: null, awaitingSnapshot: false };
  assert.equal(applySeatRatings(none, seatRatings([])), none);
});

test('after the game, the new ratings give each seat its change for the standings; a re-deal clears them', () => {
  let s = snapshot({
    players: [
      { seat: 0, name: 'Bo', score: 0, matches: 0, selection: [], rating: NEW },
      { seat: 1, name: 'Ada', score: 0, matches: 0, selection: [], rating: NEW },
    ],
  });
  // Told before the end: no change.
  s = applySeatRatings(s, seatRatings([{ seat: 0, ...NEW }, { seat: 1, ...NEW }]));
  const standings = [{ seat: 1, name: 'Ada', score: 27, matches: 27, rank: 1 }, { seat: 0, name: 'Bo', score: 0, matches: 0, rank: 2 }];
  s = applyDiff(s, { table: 't7', version: 21, events: [{ kind: 'over', standings }, { kind: 'phase', phase: 'finished' }] }, 0).state;
  assert.equal(standingsRatings(s.table).size, 0, 'nothing to show before the new ratings');
  const after = seatRatings([{ seat: 0, rating: 1468, games: 1, provisional: true }, { seat: 1, rating: 1532, games: 1, provisional: true }]);
  s = applySeatRatings(s, after);
  assert.deepEqual(s.table.ratingChanges, { 0: -32, 1: 32 });
  const shown = standingsRatings(s.table);
  assert.deepEqual(shown.get(1), { rating: { text: '1532?', title: 'provisional rating: 1 rated game', label: 'provisional rating 1532, 1 rated game' }, change: '+32', direction: 'up' });
  assert.deepEqual([shown.get(0).change, shown.get(0).direction, shown.get(0).rating.text], ['−32', 'down', '1468?']);
  // Told again: the changes stay (not ±0).
  s = applySeatRatings(s, after);
  assert.deepEqual(s.table.ratingChanges, { 0: -32, 1: 32 });
  // A resync of the same finished game keeps them; of another table, or a game that runs, not.
  const resynced = applySnapshot(table({ over: true, phase: 'finished', version: 22 }), 0);
  assert.deepEqual(keepRatingChanges(s, resynced).table.ratingChanges, { 0: -32, 1: 32 });
  const other = applySnapshot(table({ id: 't8', over: true, phase: 'finished' }), 0);
  assert.equal(keepRatingChanges(s, other), other);
  const running = applySnapshot(table(), 0);
  assert.equal(keepRatingChanges(s, running), running);
  assert.equal(keepRatingChanges({ table: null }, running), running);
  // Play again: a new game, no changes shown.
  s = applyDiff(s, { table: 't7', version: 22, events: [{ kind: 'redeal', board: [], deckCount: 81 }] }, 0).state;
  assert.deepEqual(s.table.ratingChanges, {});
  assert.equal(standingsRatings(s.table).size, 0);
  assert.deepEqual(s.table.players.map((p) => p.rating.rating), [1468, 1532], 'the ratings stay beside the names');
});

test('the high scores show each player\'s rating after the game and its change, where the game was rated', () => {
  const answer = readScores({
    type: 'scores', game: 'set', list: 'multiplayer.classic', page: 0, pageSize: 20, total: 1,
    games: [{
      id: 'g14', endedAt: '2026-11-27T03:22:48Z', seconds: 100, seats: 2, score: 27, mine: true,
      players: [
        { name: 'Ada', score: 27, matches: 27, rank: 1, you: true, rating: { rating: 1532, change: 32, games: 1, provisional: true } },
        { name: 'Bob', score: 0, matches: 0, rank: 2, rating: { rating: 1468, change: -32, games: 1, provisional: true } },
        { name: 'Cy', score: 0, matches: 0, rank: 2 },
      ],
    }],
  });
  assert.deepEqual(answer.games[0].players[0].rating, { rating: 1532, games: 1, provisional: true, change: 32 });
  assert.equal(Object.hasOwn(answer.games[0].players[2], 'rating'), false);
  const [row] = scoreRows(answer, { locale: 'en-US', timeZone: 'UTC' });
  assert.deepEqual(row.players.map((p) => p.rating), [
    { text: '1532?', change: '+32', direction: 'up', title: 'rating after this game: 1532 (+32), provisional' },
    { text: '1468?', change: '−32', direction: 'down', title: 'rating after this game: 1468 (−32), provisional' },
    null,
  ]);
  assert.equal(scoreRatingShown({ rating: 1600, games: 20, provisional: false, change: null }).title, 'rating after this game: 1600');
});

test('a replay says what a rated game did to each rating; an unrated game says nothing', () => {
  const players = [
    { seat: 0, name: 'Ada', score: 25, rating: { rating: 1532, change: 32, games: 1, provisional: true } },
    { seat: 1, name: 'Bob', score: 0, rating: { rating: 1468, change: -32, games: 1, provisional: true } },
    { seat: 2, name: 'Cy', score: 0 },
  ];
  assert.equal(replayRatingsText(players), 'Rated: Ada 1532? (+32) · Bob 1468? (−32)');
  const established = [{ name: 'Dee', rating: { rating: 1710.4, change: 0, games: 30, provisional: false } }];
  assert.equal(replayRatingsText(established), 'Rated: Dee 1710 (±0)');
  for (const none of [[], [{ name: 'Ada', score: 3 }], undefined, null, [null, 'x']]) assert.equal(replayRatingsText(none), '');
});
