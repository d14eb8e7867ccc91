import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  DEFAULT_PAGE_SIZE,
  SORT_COLUMNS,
  ariaSort,
  captionText,
  emptyText,
  formatDuration,
  formatEnded,
  initialQuery,
  pageCount,
  pageSizeOf,
  pageText,
  readScores,
  scoreRows,
  scoreText,
  scoresView,
  withAnsweredList,
  withGame,
  withLatestList,
  withList,
  withMine,
  withPage,
  withSort,
} from '../js/scores.js';
import { listChoices, listOf, listText } from '../js/score-lists.js';

// The answer of PROTOCOL.md's example.
const ANSWER = {
  type: 'scores', replyTo: 7, game: 'set', list: 'multiplayer.classic',
  lists: [
    { id: 'solo.classic', kind: 'solo', scoring: 'classic', total: 14 },
    { id: 'solo.course', kind: 'solo', scoring: 'course', total: 3 },
    { id: 'multiplayer.classic', kind: 'multiplayer', scoring: 'classic', total: 2 },
  ],
  sort: 'score', order: 'desc', page: 0, pageSize: 20, total: 2,
  games: [
    {
      id: 'g2', endedAt: '2026-11-24T07:12:40Z', seconds: 312.4, seats: 2, score: 9, mine: true,
      players: [
        { name: 'Ada', score: 9, matches: 9, rank: 1, you: true },
        { name: 'Bob', score: 6, matches: 6, rank: 2 },
      ],
    },
    {
      id: 'g1', endedAt: '2026-11-24T06:58:02Z', seconds: 401.0, seats: 2, score: 1, mine: false,
      players: [
        { name: 'Cy', score: 1, matches: 2, rank: 1 },
        { name: 'Di', score: -3, matches: 1, rank: 2 },
      ],
    },
  ],
  best: { id: 'g2', score: 9 },
  shortest: { id: 'g2', seconds: 312.4 },
};

const UTC = { locale: 'en-US', timeZone: 'UTC' };

test('the first query: the newest games, everyone\'s, a page of the default size', () => {
  assert.deepEqual(initialQuery('concentration'), {
    game: 'concentration', list: null, sort: 'date', order: 'desc', page: 0, pageSize: DEFAULT_PAGE_SIZE, mine: false,
  });
  assert.equal(initialQuery('set', 3).pageSize, 3);
  assert.deepEqual(SORT_COLUMNS.map((c) => c.sort), ['date', 'score', 'duration']);
});

test('a page size from the address is taken only when the server would take it', () => {
  assert.equal(pageSizeOf('3'), 3);
  assert.equal(pageSizeOf(' 50 '), 50);
  assert.equal(pageSizeOf(1), 1);
  for (const bad of ['0', '51', '2.5', 'x', '', null, undefined, -1, '1e1']) {
    assert.equal(pageSizeOf(bad), DEFAULT_PAGE_SIZE, String(bad));
  }
});

test('clicking the active sort flips its order; another sort starts at its own default', () => {
  let q = { ...initialQuery('set'), page: 2 };
  q = withSort(q, 'date');
  assert.deepEqual([q.sort, q.order, q.page], ['date', 'asc', 0]);
  q = withSort(q, 'date');
  assert.equal(q.order, 'desc');
  q = withSort(q, 'duration');
  assert.deepEqual([q.sort, q.order], ['duration', 'asc'], 'shortest first');
  q = withSort(q, 'score');
  assert.deepEqual([q.sort, q.order], ['score', 'desc'], 'highest first');
  q = withSort(q, 'score');
  assert.equal(q.order, 'asc');
  assert.equal(withSort(q, 'name'), q, 'an unknown column changes nothing');
});

test('aria-sort says which column sorts and which way', () => {
  const q = withSort(initialQuery('set'), 'duration');
  assert.equal(ariaSort(q, 'duration'), 'ascending');
  assert.equal(ariaSort(q, 'date'), 'none');
  assert.equal(ariaSort(initialQuery('set'), 'date'), 'descending');
  assert.equal(captionText(q), 'Finished Set games, shortest first');
  assert.equal(captionText({ ...initialQuery('matchismo'), mine: true }), 'My finished Matchismo games, newest first');
  assert.equal(captionText(withSort(withSort(initialQuery('set'), 'score'), 'score')), 'Finished Set games, lowest score first');
});

test('pages: counted, named, kept within the games there are', () => {
  assert.equal(pageCount(0, 10), 1, 'an empty list is one empty page');
  assert.equal(pageCount(10, 10), 1);
  assert.equal(pageCount(11, 10), 2);
  assert.equal(pageText(0, 7, 3), 'Page 1 of 3');
  const q = initialQuery('set', 3);
  assert.equal(withPage(q, 1, 7).page, 1);
  assert.equal(withPage(q, 5, 7).page, 2);
  assert.equal(withPage(q, -1, 7), q);
  assert.equal(withPage({ ...q, page: 2 }, 0, 0).page, 0);
});

test('another game or "only mine" starts from the first page; the sort stays', () => {
  const q = { ...withSort(initialQuery('set'), 'score'), page: 3 };
  assert.deepEqual(withGame(q, 'matchismo'), { ...q, game: 'matchismo', page: 0 });
  // Another game starts at its latest game's list.
  assert.deepEqual(withGame({ ...q, list: 'solo.classic' }, 'matchismo'), { ...q, game: 'matchismo', list: null, page: 0 });
  assert.equal(withGame(q, 'set'), q);
  assert.deepEqual(withMine(q, true), { ...q, mine: true, page: 0 });
  assert.equal(withMine(q, false), q);
});

test('an answer is read and checked', () => {
  const answer = readScores(ANSWER);
  assert.equal(answer.total, 2);
  assert.deepEqual(answer.best, { id: 'g2', score: 9 });
  assert.deepEqual(answer.shortest, { id: 'g2', seconds: 312.4 });
  assert.deepEqual(answer.games[1].players, [
    { name: 'Cy', score: 1, matches: 2, rank: 1, you: false },
    { name: 'Di', score: -3, matches: 1, rank: 2, you: false },
  ]);
  assert.equal(answer.games[0].players[0].you, true);
  // No games at all: best and shortest are null.
  const none = readScores({ type: 'scores', games: [], total: 0, best: null, shortest: null });
  assert.deepEqual([none.best, none.shortest, none.total], [null, null, 0]);
  assert.throws(() => readScores({ type: 'scores' }), TypeError);
  assert.throws(() => readScores({ type: 'scores', games: [{ score: 3 }] }), TypeError);
  assert.throws(() => readScores(null), TypeError);
});

test('ended dates and durations for people', () => {
  assert.deepEqual(formatEnded('2026-11-24T07:12:40Z', UTC), {
    date: 'Nov 24, 2026', time: '7:12 AM', full: 'Nov 24, 2026, 7:12 AM', iso: '2026-11-24T07:12:40Z',
  });
  assert.equal(formatEnded('2026-11-24T07:12:40Z', { locale: 'en-GB', timeZone: 'Europe/Berlin' }).full, '24 Nov 2026, 08:12');
  assert.equal(formatEnded('yesterday'), null);
  assert.equal(formatEnded(undefined), null);
  assert.equal(formatDuration(312.4), '5:12');
  assert.equal(formatDuration(59.99), '0:59');
  assert.equal(formatDuration(3725), '62:05');
  assert.equal(formatDuration(null), '');
  assert.equal(scoreText(-3), '−3');
  assert.equal(scoreText(0), '0');
});

test('the rows of a page: position, players, best and shortest marked, a label for Replay', () => {
  const rows = scoreRows(readScores(ANSWER), UTC);
  assert.equal(rows.length, 2);
  const [first, second] = rows;
  assert.deepEqual([first.position, second.position], [1, 2]);
  assert.deepEqual(first.players, [{ name: 'Ada', score: '9', you: true, bot: null, rating: null }, { name: 'Bob', score: '6', you: false, bot: null, rating: null }]);
  assert.equal(first.duration, '5:12');
  assert.equal(first.score, '9');
  assert.equal(second.score, '1');
  assert.deepEqual(second.players.map((p) => p.score), ['1', '−3']);
  assert.deepEqual([first.best, first.shortest, second.best, second.shortest], [true, true, false, false]);
  assert.deepEqual(first.badges, ['Best score', 'Shortest']);
  assert.deepEqual(second.badges, []);
  assert.equal(first.mine, true);
  assert.equal(first.replayLabel, 'Replay the game that ended Nov 24, 2026, 7:12 AM (Ada 9, Bob 6)');
  // Positions continue over pages.
  const later = scoreRows(readScores({ ...ANSWER, page: 2, pageSize: 3 }), UTC);
  assert.deepEqual(later.map((r) => r.position), [7, 8]);
  // Best and shortest are over all pages: a page without them marks nothing.
  const elsewhere = scoreRows(readScores({ ...ANSWER, best: { id: 'g9', score: 20 }, shortest: { id: 'g8', seconds: 3 } }), UTC);
  assert.ok(elsewhere.every((r) => !r.best && !r.shortest && r.badges.length === 0));
  assert.deepEqual(scoreRows(null), []);
});

test('what the tab says when it has no rows', () => {
  const query = initialQuery('concentration');
  const state = (extra) => ({ status: 'ready', answer: null, error: null, query, ...extra });
  assert.equal(emptyText(state({ status: 'unavailable' })), 'This server keeps no records.');
  assert.equal(emptyText(state({ status: 'unavailable', error: 'Too many questions are waiting.' })), 'Too many questions are waiting.');
  assert.equal(emptyText(state({ status: 'loading' })), 'Loading high scores…');
  assert.equal(emptyText(state({ status: 'error', error: 'sort is not one of date, score, duration' })), 'sort is not one of date, score, duration');
  const empty = readScores({ games: [], total: 0, best: null, shortest: null });
  assert.equal(emptyText(state({ answer: empty })), 'No finished Concentration games yet — play one to the end and it shows here.');
  assert.equal(emptyText(state({ answer: empty, query: { ...query, mine: true } })), 'You have not finished a Concentration game here yet.');
  assert.equal(emptyText(state({ answer: readScores(ANSWER) })), null);
  // While the next page loads, the rows shown stay.
  assert.equal(emptyText(state({ status: 'loading', answer: readScores(ANSWER) })), null);
});

test('the tab as drawn: headings, rows, pager, and nothing of another game\'s answer', () => {
  const query = { ...initialQuery('set', 1), sort: 'score' };
  const answer = { ...readScores(ANSWER), query };
  const view = scoresView({ open: true, query, status: 'ready', answer, error: null }, UTC);
  assert.equal(view.title, 'Set high scores');
  assert.equal(view.caption, 'Finished Set games, highest score first');
  assert.deepEqual(view.sorts, [
    { sort: 'date', ariaSort: 'none', mark: '' },
    { sort: 'score', ariaSort: 'descending', mark: '▼' },
    { sort: 'duration', ariaSort: 'none', mark: '' },
  ]);
  assert.deepEqual(view.rows.map((r) => r.id), ['g2', 'g1']);
  assert.deepEqual([view.empty, view.pager, view.page, view.canPrev, view.canNext, view.busy], [null, true, 'Page 1 of 2', false, true, false]);
  // The next page loading: the rows stay, marked busy.
  const loading = scoresView({ open: true, query: { ...query, page: 1 }, status: 'loading', answer, error: null }, UTC);
  assert.deepEqual([loading.busy, loading.rows.length, loading.page, loading.canPrev, loading.canNext], [true, 2, 'Page 2 of 2', true, false]);
  // Another game picked: its own list, not this one.
  const other = scoresView({ open: true, query: { ...query, game: 'matchismo' }, status: 'loading', answer, error: null }, UTC);
  assert.deepEqual([other.rows, other.empty, other.pager, other.title], [[], 'Loading high scores…', false, 'Matchismo high scores']);
  // Records unavailable: said, no rows, no pager.
  const none = scoresView({ open: true, query, status: 'unavailable', answer: null, error: null });
  assert.deepEqual([none.rows, none.empty, none.pager], [[], 'This server keeps no records.', false]);
});

// ---- High-score lists (issue 21: incomparable games are not ranked together) ---------------------

const LISTS = [
  { id: 'solo.classic', kind: 'solo', scoring: 'classic', total: 3 },
  { id: 'solo.course', kind: 'solo', scoring: 'course', total: 1 },
  { id: 'multiplayer.classic', kind: 'multiplayer', scoring: 'classic', total: 12 },
];

test('a list is named for people: who played, the scoring where a game has several, the board where it is the game', () => {
  assert.equal(listText(listOf('solo.classic'), 'set'), 'Solo · classic scoring');
  assert.equal(listText(listOf('multiplayer.course'), 'set'), 'Multiplayer · course scoring');
  assert.equal(listText(listOf('solo.course.24x2'), 'matchismo'), 'Solo · 24 cards, 2-card matches');
  assert.equal(listText(listOf('multiplayer.course.12x3'), 'matchismo'), 'Multiplayer · 12 cards, 3-card matches');
  assert.equal(listText(listOf('solo.custom.16x2'), 'concentration'), 'Solo · 8 pairs');
  // A scoring that is not the game's own is said.
  assert.equal(listText(listOf('solo.custom.24x2'), 'matchismo'), 'Solo · 24 cards, 2-card matches · custom scoring');
  assert.deepEqual(listOf('multiplayer.custom.16x2'), { id: 'multiplayer.custom.16x2', kind: 'multiplayer', scoring: 'custom', cards: 16, matchSize: 2, total: null });
  for (const bad of ['', 'solo', 'duo.course', 'solo.fancy', 'solo.course.024x2', 'solo.course.24x', null, 7]) {
    assert.equal(listOf(bad), null, String(bad));
  }
});

test('an answer\'s lists are read and checked; a list not offered is left out', () => {
  const answer = readScores({
    ...ANSWER,
    list: 'solo.classic',
    lists: [...LISTS, { id: 'everyone', total: 3 }, null, { id: 'solo.custom.16x2', total: -1 }],
  });
  assert.equal(answer.list, 'solo.classic');
  assert.deepEqual(answer.lists.map((l) => [l.id, l.total]), [['solo.classic', 3], ['solo.course', 1], ['multiplayer.classic', 12], ['solo.custom.16x2', 0]]);
  const { list: _, lists: __, ...before } = ANSWER;
  assert.deepEqual([readScores(before).list, readScores(before).lists], [null, []]);
  assert.equal(readScores({ ...ANSWER, list: '<b>' }).list, null);
});

test('picking a list starts from its first page; no list asked for takes the one the server chose', () => {
  const q = { ...withSort(initialQuery('set'), 'score'), page: 2 };
  assert.deepEqual(withList(q, 'solo.course'), { ...q, list: 'solo.course', page: 0 });
  assert.equal(withList({ ...q, list: 'solo.course' }, 'solo.course').page, 2, 'the same list: nothing changes');
  assert.equal(withList(q, 'not a list'), q);
  const answer = readScores({ ...ANSWER, list: 'solo.classic', lists: LISTS });
  assert.deepEqual(withAnsweredList(q, answer), { ...q, list: 'solo.classic' }, 'the page stays: it was asked for');
  assert.equal(withAnsweredList({ ...q, list: 'solo.course' }, answer).list, 'solo.course', 'a list asked for stays');
  assert.equal(withAnsweredList({ ...q, game: 'matchismo' }, answer).list, null, "another game's answer");
  assert.deepEqual(withLatestList({ ...q, list: 'solo.course' }), { ...q, list: null, page: 0 });
  assert.equal(withLatestList(q), q);
});

test('the choice of lists: every list counted, the one shown selected, an empty one asked for kept', () => {
  const query = { ...initialQuery('set'), list: 'solo.classic' };
  const answer = readScores({ ...ANSWER, list: 'solo.classic', lists: LISTS });
  assert.deepEqual(listChoices(query, answer), [
    { id: 'solo.classic', text: 'Solo · classic scoring (3 games)', selected: true },
    { id: 'solo.course', text: 'Solo · course scoring (1 game)', selected: false },
    { id: 'multiplayer.classic', text: 'Multiplayer · classic scoring (12 games)', selected: false },
  ]);
  const empty = listChoices({ ...query, list: 'multiplayer.course' }, answer);
  assert.deepEqual(empty.at(-1), { id: 'multiplayer.course', text: 'Multiplayer · course scoring (0 games)', selected: true });
  assert.deepEqual(listChoices(initialQuery('set'), readScores({ games: [], total: 0 })), [], 'no games: no choice');
  assert.deepEqual(listChoices(query, null), [{ id: 'solo.classic', text: 'Solo · classic scoring (0 games)', selected: true }]);
});

test('the tab names its list, and an answer of another list is not shown under the one picked', () => {
  const query = { ...initialQuery('set'), sort: 'score', list: 'solo.course' };
  assert.equal(captionText(query), 'Finished Set games (Solo · course scoring), highest score first');
  const answer = { ...readScores({ ...ANSWER, list: 'solo.classic', lists: LISTS }), query: { ...query, list: 'solo.classic' } };
  const other = scoresView({ open: true, query, status: 'loading', answer, error: null }, UTC);
  assert.deepEqual([other.rows, other.empty], [[], 'Loading high scores…']);
  const same = scoresView({ open: true, query: { ...query, list: 'solo.classic' }, status: 'ready', answer, error: null }, UTC);
  assert.deepEqual(same.rows.map((r) => r.id), ['g2', 'g1']);
  assert.equal(same.lists.find((l) => l.selected).id, 'solo.classic');
  // An empty list while others hold games: said, with a way out.
  const none = { ...readScores({ games: [], total: 0, list: 'multiplayer.course', lists: LISTS }), query: { ...query, list: 'multiplayer.course' } };
  const view = scoresView({ open: true, query: { ...query, list: 'multiplayer.course' }, status: 'ready', answer: none, error: null }, UTC);
  assert.equal(view.empty, 'Nobody has finished a Set game here in this list (Multiplayer · course scoring) yet — pick another list.');
  assert.equal(emptyText({ status: 'ready', answer: none, error: null, query: { ...query, list: 'multiplayer.course', mine: true } }),
    'You have not finished a Set game here in this list (Multiplayer · course scoring) yet — pick another list.');
});

test('games against the computer are a list apart, and each computer is marked in a row', () => {
  assert.equal(listText(listOf('computer.classic'), 'set'), 'Against the computer · classic scoring');
  assert.equal(listOf('computer.course').kind, 'computer');
  const answer = readScores({
    type: 'scores', list: 'computer.classic', total: 1, best: null, shortest: null,
    games: [{ id: 'g1', endedAt: '2026-11-29T09:00:00Z', seconds: 61, seats: 2, score: 12, mine: true,
      players: [{ name: 'Kim', score: 12, matches: 12, rank: 1, you: true },
        { name: 'Computer 1 (good)', score: 3, matches: 3, rank: 2, bot: { level: 'good' } }] }],
  });
  assert.deepEqual(scoreRows(answer)[0].players.map((p) => [p.name, p.bot]), [['Kim', null], ['Computer 1 (good)', 'good']]);
});

test('the daily puzzle\'s games are a list of their own, named so', () => {
  assert.equal(listText(listOf('daily.course'), 'set'), 'Daily puzzle · course scoring');
  assert.equal(listOf('daily.course').kind, 'daily');
  assert.equal(listOf('daily.fancy'), null);
});
