// "Your rating" (rating-history.js): the `ratings` answer read and what the panel shows.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { RATED_NOTE, initialMyRating, myRatingView, readRatings, summaryText } from '../js/rating-history.js';

const ANSWER = {
  type: 'ratings', replyTo: 9, game: 'set', rating: 1516, games: 2, provisional: true,
  history: [
    { id: 'g13', endedAt: '2026-11-26T10:00:00Z', rank: 1, rating: 1532, change: 32, games: 1, provisional: true },
    { id: 'g14', endedAt: '2026-11-27T03:22:48Z', rank: 2, rating: 1516, change: -16, games: 2, provisional: true },
    { id: 'g15', rank: 1 },
    null,
  ],
};
const ZONE = { locale: 'en-US', timeZone: 'UTC' };

test('an answer is read, newest game first; entries that are not games are dropped', () => {
  const answer = readRatings(ANSWER);
  assert.deepEqual(answer.rating, { rating: 1516, games: 2, provisional: true });
  assert.equal(answer.game, 'set');
  assert.deepEqual(answer.history.map((h) => [h.id, h.rank, h.rating.rating, h.change]), [['g14', 2, 1516, -16], ['g13', 1, 1532, 32]]);
  const nobody = readRatings({ type: 'ratings', game: 'set', rating: 1500, games: 0, provisional: true, history: [] });
  assert.deepEqual(nobody.history, []);
  assert.deepEqual(readRatings({ rating: 1500, games: 0, provisional: true }).history, [], 'no history field: none');
  assert.throws(() => readRatings({ type: 'ratings', game: 'set' }), TypeError);
  assert.throws(() => readRatings(null), TypeError);
});

test('the panel: the rating (provisional, games counted), the games newest first, each with its replay', () => {
  const view = myRatingView({ status: 'ready', answer: readRatings(ANSWER), error: null }, 'set', ZONE);
  assert.equal(view.title, 'Your Set rating');
  assert.equal(view.summary, '1516? · provisional, 2 rated games');
  assert.equal(view.rating.title, 'provisional rating: 2 rated games');
  assert.equal(view.busy, false);
  assert.equal(view.empty, null);
  assert.equal(view.note, RATED_NOTE);
  assert.match(view.note, /solo and private games do not/);
  assert.deepEqual(view.rows.map((r) => [r.id, r.ended.date, r.rank, r.rating, r.change, r.direction]), [
    ['g14', 'Nov 27, 2026', '2nd place', '1516?', '−16', 'down'],
    ['g13', 'Nov 26, 2026', '1st place', '1532?', '+32', 'up'],
  ]);
  assert.equal(view.rows[0].replayLabel, 'Replay the game that ended Nov 27, 2026, 3:22 AM, 2nd place, rating −16');
});

test('summaries: a settled rating has no mark; no games yet says so', () => {
  assert.equal(summaryText({ rating: 1610, games: 14, provisional: false }), '1610 · 14 rated games');
  assert.equal(summaryText({ rating: 1500, games: 0, provisional: true }), '1500? · provisional, no rated games yet');
  const none = readRatings({ type: 'ratings', game: 'set', rating: 1500, games: 0, provisional: true, history: [] });
  const view = myRatingView({ status: 'ready', answer: none, error: null }, 'set', ZONE);
  assert.equal(view.empty, 'No rated games yet: play a quick match with other people.');
  assert.deepEqual(view.rows, []);
});

test('loading, refused, or another game\'s answer: said in place of the history', () => {
  assert.deepEqual(initialMyRating(), { status: 'idle', answer: null, error: null });
  const loading = myRatingView({ status: 'loading', answer: null, error: null }, 'matchismo');
  assert.deepEqual([loading.title, loading.summary, loading.rating, loading.busy, loading.empty], ['Your Matchismo rating', '', null, true, 'Loading your rating…']);
  const set = readRatings(ANSWER);
  const other = myRatingView({ status: 'ready', answer: set, error: null }, 'matchismo');
  assert.deepEqual([other.summary, other.rows, other.empty], ['', [], 'Loading your rating…'], "Set's rating is not shown as Matchismo's");
  const off = myRatingView({ status: 'unavailable', answer: null, error: 'This server keeps no records.' }, 'set');
  assert.deepEqual([off.summary, off.rows, off.empty], ['', [], 'This server keeps no records.']);
  assert.equal(myRatingView({ status: 'unavailable', answer: null, error: null }, 'set').empty, 'This server keeps no ratings.');
  assert.equal(myRatingView({ status: 'error', answer: set, error: 'unknownGame' }, 'set').empty, 'unknownGame');
});
