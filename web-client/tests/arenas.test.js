// Arenas, pure (docs/PROTOCOL.md, "Arenas"): the list and a snapshot read, standings applied, the groups,
// the times and standings in words, the arena bar at an arena's table, the Arenas tab and the
// dialog as data, and the create form's rules.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  ARENA_ERRORS, applyStandings, arenaBar, arenaErrorText, clockUntil, groupArenas, initialArenas, readArena, readArenas,
  readSummary, readTableArena, standingsRows, timeText, winnerText, withArenaInList, withKnownCodes, youText,
} from '../js/arenas.js';
import { arenaCode, arenaDialogView, arenaGameChoices, arenasListView, arenaTimes, readArenaForm } from '../js/arena-model.js';
import { applySnapshot } from '../js/table-state.js';
import { tableModel } from '../js/table-model.js';
import { learnGames, resetGames, DEFAULT_GAMES } from '../js/games.js';

const NOW = 1_000_000;
const UTC = { locale: 'en-GB', timeZone: 'UTC' };
const summary = (extra = {}) => ({
  id: 'a1', name: 'Set arena 12:00', game: 'set', phase: 'running', starts: 1795003200, ends: 1795003800,
  startsIn: -122.5, endsIn: 477.5, seats: 2, players: 14, private: false, leader: 'Ann', winner: null, joined: true, ...extra,
});
const ROWS = [
  { rank: 1, name: 'Ann', points: 6, played: 3, won: 3, onFire: true, left: false, playing: true },
  { rank: 2, name: 'Ada', points: 4, played: 3, won: 2, onFire: false, left: false, playing: false, you: true },
  { rank: 3, name: 'Bo', points: 1, played: 2, won: 0, onFire: false, left: true, playing: false },
];
const snapshot = (extra = {}, joined = true) => ({
  type: 'arena', replyTo: 3, joined,
  arena: { ...summary(), sprint: { sets: 5, seconds: 180 }, standings: ROWS, games: [{ table: 't3', players: ['Ann', 'Bo'] }], featured: 't3', ...extra },
});

test('a summary keeps its times as deadlines from when it arrived', () => {
  const a = readSummary(summary(), NOW);
  assert.equal(a.startsAt, NOW - 122_500);
  assert.equal(a.endsAt, NOW + 477_500);
  assert.deepEqual([a.id, a.name, a.game, a.phase, a.players, a.leader, a.winner, a.joined, a.private, a.code], ['a1', 'Set arena 12:00', 'set', 'running', 14, 'Ann', null, true, false, null]);
  assert.equal(a.featured, undefined, 'the list does not say');
  assert.throws(() => readSummary({ name: 'x' }, NOW), TypeError);
  assert.equal(readSummary({ id: 'a2', phase: 'odd' }, NOW).phase, 'upcoming');
  // A list with an unreadable arena keeps the others; no list at all is unreadable.
  assert.deepEqual(readArenas({ arenas: [summary(), null, { id: 'a2' }] }, NOW).map((x) => x.id), ['a1', 'a2']);
  assert.throws(() => readArenas({}, NOW), TypeError);
});

test('the list in three groups: running ending first, upcoming starting first, the latest finished first', () => {
  const list = readArenas({ arenas: [
    summary({ id: 'r2', endsIn: 600 }), summary({ id: 'r1', endsIn: 60 }),
    summary({ id: 'u2', phase: 'upcoming', startsIn: 900 }), summary({ id: 'u1', phase: 'upcoming', startsIn: 30 }),
    summary({ id: 'p1', phase: 'finished', endsIn: -900 }), summary({ id: 'p2', phase: 'finished', endsIn: -60 }),
  ] }, NOW);
  const groups = groupArenas(list);
  assert.deepEqual(Object.fromEntries(Object.entries(groups).map(([k, v]) => [k, v.map((a) => a.id)])), {
    running: ['r1', 'r2'], upcoming: ['u1', 'u2'], past: ['p2', 'p1'],
  });
});

test('time texts count down locally: "starts in 4:12", "ends in 0:59", "ended 12:05"', () => {
  const up = readSummary(summary({ phase: 'upcoming', startsIn: 252 }), NOW);
  assert.equal(timeText(up, NOW), 'starts in 4:12');
  assert.equal(timeText(up, NOW + 1_000), 'starts in 4:11');
  assert.equal(timeText(up, NOW + 252_000), 'starting…');
  const running = readSummary(summary({ endsIn: 58.2 }), NOW);
  assert.equal(timeText(running, NOW), 'ends in 0:59');
  assert.equal(timeText(running, NOW + 60_000), 'last games finishing');
  const over = readSummary(summary({ phase: 'finished', ends: Date.UTC(2026, 10, 27, 12, 5) / 1000 }), NOW);
  assert.equal(timeText(over, NOW, UTC), 'ended 12:05');
  assert.equal(clockUntil(NOW + 3_600_000, NOW), '60:00');
});

test('an arena snapshot: sprint, standings, games, featured; the rows as the table shows them', () => {
  const a = readArena(snapshot({ private: true, code: 'K7Q2M9XW4P' }), NOW);
  assert.deepEqual(a.sprint, { sets: 5, seconds: 180 });
  assert.equal(a.featured, 't3');
  assert.equal(a.code, 'K7Q2M9XW4P');
  assert.deepEqual(a.games, [{ table: 't3', players: ['Ann', 'Bo'] }]);
  assert.equal(a.joined, true);
  assert.equal(readArena(snapshot({}, false), NOW).joined, false, 'the message says');
  const rows = standingsRows(a);
  assert.deepEqual(rows.map((r) => [r.rankText, r.name, r.pointsText, r.you, r.left, r.playing]), [
    ['1', 'Ann', '6', false, false, true], ['2', 'Ada', '4', true, false, false], ['3', 'Bo', '1', false, true, false],
  ]);
  assert.equal(rows[0].fire, 'on a streak: wins count double');
  assert.equal(rows[1].fire, '');
  assert.equal(youText(a), 'You: 2nd · 4 points');
  assert.equal(youText({ ...a, standings: ROWS.slice(0, 1) }), '');
  assert.throws(() => readArena({ type: 'arena' }, NOW), TypeError);
});

test('arenaStandings update the arena kept (another arena\'s are ignored), and its end names the winner', () => {
  const a = readArena(snapshot(), NOW);
  assert.equal(applyStandings(a, { type: 'arenaStandings', arena: 'a9', standings: [] }, NOW), a);
  assert.equal(applyStandings(null, { arena: 'a1' }, NOW), null);
  const later = applyStandings(a, {
    type: 'arenaStandings', arena: 'a1', phase: 'running', players: 15, endsIn: 301.2,
    standings: [{ ...ROWS[1], rank: 1, points: 8 }, { ...ROWS[0], rank: 2 }], games: [], featured: null, winner: null,
  }, NOW + 10_000);
  assert.equal(later.endsAt, NOW + 10_000 + 301_200);
  assert.equal(later.players, 15);
  assert.equal(later.leader, 'Ada');
  assert.equal(later.featured, null);
  assert.equal(youText(later), 'You: 1st · 8 points');
  assert.equal(winnerText(later), '');
  const over = applyStandings(later, { arena: 'a1', phase: 'finished', winner: 'Ada' }, NOW);
  assert.equal(winnerText(over), 'Ada wins the arena');
  assert.equal(winnerText({ ...over, winner: null }), 'Nobody played: no winner');
  assert.equal(over.standings, later.standings, 'standings not sent stay');
});

test('an arena\'s news goes into its entry of the list; a new one is added', () => {
  const list = readArenas({ arenas: [summary({ joined: false }), summary({ id: 'a2' })] }, NOW);
  const a = readArena(snapshot(), NOW);
  const next = withArenaInList(list, a);
  assert.equal(next[0].joined, true);
  assert.equal(next[1], list[1]);
  assert.deepEqual(withArenaInList([], a).map((x) => x.id), ['a1']);
});

test('a new list keeps the codes of private arenas learnt from their snapshots', () => {
  const shown = readArena(snapshot({ id: 'p1', private: true, code: 'K7Q2M9XW4P' }), NOW);
  const list = readArenas({ arenas: [summary({ id: 'p1', private: true }), summary({ id: 'a2' })] }, NOW);
  assert.deepEqual(withKnownCodes(list, [], shown).map((a) => a.code), ['K7Q2M9XW4P', null]);
  const kept = withKnownCodes(list, [{ ...list[0], code: 'ABCD234XYZ' }]);
  assert.equal(kept[0].code, 'ABCD234XYZ');
  assert.equal(withKnownCodes(list, [])[0].code, null);
});

test('the refusals in words', () => {
  assert.equal(arenaErrorText('unknownArena'), 'No arena has that code.');
  assert.equal(arenaErrorText('arenaOver'), 'That arena is over.');
  assert.equal(arenaErrorText('cardNotOnTable'), null);
  assert.deepEqual(Object.keys(ARENA_ERRORS).sort(), ['alreadyJoined', 'arenaOver', 'arenaRule', 'notInArena', 'tooManyGuesses', 'unknownArena']);
});

const tableAt = (extra = {}) => applySnapshot({
  id: 't7', game: 'set', version: 1, board: [], you: 1, seats: 2, host: 0, phase: 'playing', deckCount: 60,
  players: [{ seat: 0, name: 'Ann', score: 0, matches: 0 }, { seat: 1, name: 'Ada', score: 0, matches: 0 }],
  arena: { id: 'a1', name: 'Set arena 12:00', sets: 5, endsIn: 161 }, ...extra,
}, NOW);

test('the arena bar: the arena, its sprint\'s rule and clock, my points and place', () => {
  const { table } = tableAt();
  assert.deepEqual(table.arena, { id: 'a1', name: 'Set arena 12:00', sets: 5, endsAt: NOW + 161_000 });
  const arenas = { ...initialArenas(), shown: readArena(snapshot(), NOW) };
  const bar = arenaBar(table, arenas, NOW);
  assert.equal(bar.main, 'Arena: Set arena 12:00 · first to 5 sets · 2:41 left');
  assert.equal(bar.you, 'you: 4 pts, 2nd');
  assert.deepEqual([bar.seated, bar.following, bar.next], [true, false, '']);
  assert.equal(arenaBar(table, arenas, NOW + 60_000).main, 'Arena: Set arena 12:00 · first to 5 sets · 1:41 left');
  // Another arena kept: no place of mine. Not an arena's table: no bar.
  assert.equal(arenaBar(table, { ...arenas, shown: { ...arenas.shown, id: 'a9' } }, NOW).you, '');
  assert.equal(arenaBar(applySnapshot({ ...tableAt().table, arena: undefined, players: [] }, NOW).table, arenas, NOW), null);
  assert.equal(readTableArena({ name: 'x' }, NOW), null);
});

test('at an arena table\'s game over: no play again, the next game comes (unless the arena is over)', () => {
  const state = tableAt({ over: true, phase: 'finished' });
  const m = tableModel(state);
  assert.equal(m.playAgainHidden, true);
  assert.equal(m.redealHidden, true);
  const kept = readArena(snapshot(), NOW);
  assert.equal(arenaBar(state.table, { ...initialArenas(), shown: kept }, NOW).next, 'Next game in a moment…');
  assert.equal(arenaBar(state.table, { ...initialArenas(), shown: kept }, NOW + 600_000).next, 'The arena’s time is up: the last games are finishing.');
  assert.equal(arenaBar(state.table, { ...initialArenas(), shown: { ...kept, phase: 'finished', winner: 'Ann' } }, NOW).next, 'The arena is over. Ann wins the arena.');
  assert.equal(arenaBar(state.table, initialArenas(), NOW).main, 'Arena: Set arena 12:00 · first to 5 sets', 'no clock once over');
  // Not an arena's table: play again as ever.
  assert.equal(tableModel(tableAt({ arena: undefined, over: true, phase: 'finished' })).playAgainHidden, false);
});

test('following the featured game: said so, and the next one is "next featured game"', () => {
  const { table } = tableAt({ you: undefined });
  const arenas = { ...initialArenas(), follow: { arena: 'a1', table: 't7' } };
  const bar = arenaBar(table, arenas, NOW);
  assert.equal(bar.main, 'Featured game of Set arena 12:00 — follows the leader · 2:41 left');
  assert.deepEqual([bar.seated, bar.following, bar.you], [false, true, '']);
  assert.equal(arenaBar({ ...table, over: true }, arenas, NOW).next, 'Next featured game in a moment…');
  // A spectator of another table is not following.
  assert.equal(arenaBar(table, { ...arenas, follow: { arena: 'a1', table: 't9' } }, NOW).following, false);
});

test('the Arenas tab as data: groups, rows and their buttons, codes, loading and errors', () => {
  const list = readArenas({ arenas: [
    summary({ joined: false }),
    summary({ id: 'a2', name: 'Private', phase: 'upcoming', startsIn: 252, private: true, code: 'K7Q2M9XW4P', leader: null }),
    summary({ id: 'a3', name: 'Old', phase: 'finished', winner: 'Bo', ends: Date.UTC(2026, 10, 27, 12, 5) / 1000 }),
    summary({ id: 'a4', name: 'Empty', phase: 'finished', winner: null }),
  ] }, NOW);
  const view = arenasListView({ ...initialArenas(), open: true, status: 'ready', list }, NOW, UTC);
  assert.equal(view.empty, null);
  const [running, upcoming, past] = view.groups;
  assert.deepEqual([running.title, upcoming.title, past.title], ['Running', 'Upcoming', 'Finished']);
  const r = running.rows[0];
  assert.deepEqual([r.id, r.name, r.game, r.players, r.time, r.who], ['a1', 'Set arena 12:00', 'Set', '14 players', 'ends in 7:58', 'Leader: Ann']);
  assert.deepEqual([r.join, r.leave, r.watch, r.featured, r.code], [true, false, true, true, null]);
  const u = upcoming.rows[0];
  assert.deepEqual([u.time, u.code, u.join, u.leave, u.featured, u.who], ['starts in 4:12', 'K7Q2M9XW4P', false, true, false, '']);
  assert.deepEqual(past.rows.map((p) => [p.who, p.join, p.leave, p.featured]), [['Winner: Bo', false, false, false], ['No winner', false, false, false]]);
  assert.equal(past.rows[0].time, 'ended 12:05');
  assert.equal(arenaTimes({ list }, NOW + 1000).get('a2'), 'starts in 4:11');
  // Loading before the first answer; an error in place of the groups.
  assert.equal(arenasListView({ ...initialArenas(), status: 'loading' }, NOW).empty, 'Loading arenas…');
  const failed = arenasListView({ ...initialArenas(), status: 'error', error: 'This server holds no arenas.' }, NOW);
  assert.deepEqual([failed.empty, failed.groups], ['This server holds no arenas.', []]);
  // An arena said to have no featured game offers none.
  assert.equal(arenasListView({ ...initialArenas(), status: 'ready', list: [{ ...list[0], featured: null }] }, NOW).groups[0].rows[0].featured, false);
});

test('the arena dialog as data: standings, my place, the top game and who may watch it, the code', () => {
  const none = arenaDialogView(initialArenas(), null, NOW);
  assert.equal(none.shown, false);
  const kept = { ...readArena(snapshot({ private: true, code: 'K7Q2M9XW4P' }), NOW), live: true };
  const view = arenaDialogView({ ...initialArenas(), shown: kept }, null, NOW);
  assert.deepEqual([view.title, view.meta, view.clock, view.you, view.code], ['Set arena 12:00', 'Set · Running · 14 players', 'ends in 7:58', 'You: 2nd · 4 points', 'K7Q2M9XW4P']);
  assert.equal(view.rows.length, 3);
  assert.equal(view.caption, 'Standings of Set arena 12:00, most points first');
  assert.deepEqual(view.featured, { text: 'Top game: Ann vs Bo' });
  assert.deepEqual(view.games, [{ table: 't3', text: 'Ann vs Bo', featured: true }]);
  assert.deepEqual([view.join, view.leave, view.watchFeatured, view.winner], [false, true, true, '']);
  assert.match(view.rules, /first to 5 sets, or 3:00/);
  // Playing a game of this arena, or already watching its top game: no Watch.
  assert.equal(arenaDialogView({ ...initialArenas(), shown: kept }, tableAt().table, NOW).watchFeatured, false);
  assert.equal(arenaDialogView({ ...initialArenas(), shown: kept }, { ...tableAt({ you: undefined }).table, id: 't3' }, NOW).watchFeatured, false);
  // Over: the winner, nothing to join or leave.
  const over = arenaDialogView({ ...initialArenas(), shown: { ...kept, phase: 'finished', winner: 'Ann' } }, null, NOW);
  assert.deepEqual([over.winner, over.join, over.leave, over.watchFeatured, over.featured], ['Ann wins the arena', false, false, false, null]);
  const empty = arenaDialogView({ ...initialArenas(), shown: { ...kept, standings: [], joined: false } }, null, NOW);
  assert.deepEqual([empty.empty, empty.join, empty.you], ['Nobody has played yet.', true, '']);
});

test('the create form: the games arenas deal (the description says, else all), 1–60 minutes, the start', () => {
  resetGames();
  assert.deepEqual(arenaGameChoices('matchismo').filter((c) => c.selected).map((c) => c.value), ['matchismo']);
  assert.equal(arenaGameChoices('poker').find((c) => c.selected).value, 'set', 'a game it does not deal: the first');
  assert.deepEqual(readArenaForm({ game: 'set', minutes: ' 10 ', startsIn: '300' }), { game: 'set', minutes: 10, startsIn: 300 });
  assert.deepEqual(readArenaForm({ game: 'set', minutes: '0', startsIn: '0' }).field, 'arena-minutes');
  assert.deepEqual(readArenaForm({ game: 'set', minutes: '61', startsIn: '0' }).problem, 'An arena lasts 1 to 60 minutes.');
  assert.deepEqual(readArenaForm({ game: 'set', minutes: '2.5', startsIn: '0' }).field, 'arena-minutes');
  assert.deepEqual(readArenaForm({ game: 'set', minutes: '5', startsIn: '7' }).field, 'arena-starts-in');
  assert.deepEqual(readArenaForm({ game: 'poker', minutes: '5', startsIn: '0' }).field, 'arena-game');
  // A server that says which games arenas deal.
  learnGames(DEFAULT_GAMES.map((g) => ({ ...g, arenas: g.name !== 'concentration' })), 'v-arenas');
  assert.ok(!arenaGameChoices('set').some((c) => c.value === 'concentration'));
  assert.equal(readArenaForm({ game: 'concentration', minutes: '5', startsIn: '0' }).field, 'arena-game');
  resetGames();
});

test('an arena code as typed', () => {
  assert.equal(arenaCode(' k7q2-m9xw 4p '), 'K7Q2M9XW4P');
  assert.equal(arenaCode(''), null);
  assert.equal(arenaCode('K7Q!'), null);
});
