// The client learns each game from the server's welcome (`games`) and keeps no rule or text of
// its own about any: a welcome that words Set otherwise is what the page says; a game only the
// welcome describes (Twins) is offered, set up and drawn with no code of its own; a game it was not
// told of is "not supported by this page", never Set.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DEFAULT_GAMES, gameIds, gameLabel, resetGames } from '../js/games.js';
import { tableModel } from '../js/table-model.js';
import { applySnapshot } from '../js/table-state.js';
import { settingsFields, settingsForm, settingsText } from '../js/table-settings.js';
import { gameSummary } from '../js/history.js';
import { lostRaceText } from '../js/feedback.js';
import { replayHeading } from '../js/replay.js';
import { gameLabel as lobbyLabel } from '../js/lobby-state.js';
import { inviteTitle, pickedGame } from '../js/lobby-form.js';
import { listOf, listText } from '../js/score-lists.js';
import { seated, setUp, toasts, diff, table } from './controller-fixtures.js';
import { TWINS } from './games-fixtures.js';

/** Set as a server might word it: every text differs from the defaults. */
const WORDED = {
  ...DEFAULT_GAMES[0],
  title: 'Set (served)',
  rules: 'Find a trio.',
  match: { one: 'trio', many: 'trios', a: 'a trio' },
  settings: [
    { name: 'boardSize', label: 'Cards on show', default: 12, choices: [{ value: 12, text: 'a dozen' }, { value: 15, text: 'fifteen', summary: '15 up' }] },
  ],
  texts: { hintOne: 'One card of a trio.', hintTwo: 'Two cards of a trio.', hintNone: 'No trio here.', kept: { 3: 'Not a trio: your last card stays.' } },
};

/** A controller welcomed with `games`; returns it with the welcome's effects. */
function welcomedWith(games, extra = {}) {
  const t = seated(extra);
  const fx = t.send({ type: 'message', message: { type: 'welcome', resumed: true, games } });
  return { ...t, fx };
}

test('a welcome\'s games are learnt, and the page is told to redraw its games', () => {
  resetGames();
  const { fx } = welcomedWith([WORDED, TWINS]);
  assert.ok(fx.some((e) => e.type === 'games'));
  assert.deepEqual(gameIds(), ['set', 'twins']);
  // The same games again: nothing to redraw.
  const { fx: again } = welcomedWith([WORDED, TWINS]);
  assert.ok(!again.some((e) => e.type === 'games'));
  resetGames();
});

test('the words at the table, in the form, the summary and the hint are the welcome\'s', () => {
  resetGames();
  const { send, controller } = welcomedWith([WORDED]);
  const m = tableModel(controller.state);
  assert.equal(m.matchesHeading, 'Trios');
  assert.equal(m.hintTitle, 'Show one card of a trio');
  assert.equal(m.settingsText, 'a dozen');
  assert.deepEqual(settingsForm('set', 1), { boardSize: { label: 'Cards on show', options: [[12, 'a dozen'], [15, 'fifteen']], default: 12 } });
  assert.deepEqual(settingsFields('set', { boardSize: '15', scoring: 'classic' }), { boardSize: 15 });
  assert.equal(settingsText('set', { boardSize: 15 }), '15 up');
  // The hint's words.
  send({ type: 'message', message: { type: 'welcome', resumed: true, games: [WORDED] } });
  const seatedAlone = welcomedWith([WORDED], { seats: 1 });
  seatedAlone.send({ type: 'hint' });
  const shown = seatedAlone.send({ type: 'message', message: { type: 'hint', replyTo: 2, cards: [0, 1, 2] } });
  assert.deepEqual(toasts(shown), ['One card of a trio.']);
  seatedAlone.send({ type: 'hint' });
  assert.deepEqual(toasts(seatedAlone.send({ type: 'message', message: { type: 'hint', replyTo: 3, cards: [] } })), ['No trio here.']);
  // A course-scored miss that keeps my last card.
  const kept = seatedAlone.send(diff(21, [
    { kind: 'select', seat: 1, card: 4 },
    { kind: 'mismatch', seat: 1, cards: [0, 1, 4], penalty: 2 },
  ]));
  assert.deepEqual(toasts(kept), ['Not a trio: your last card stays.']);
  // The game over, a lost race, a replay's heading, the lobby.
  const summary = gameSummary({ game: 'set', standings: [{ seat: 0, name: 'Bo', score: 3, matches: 1, rank: 1 }] });
  assert.equal(summary.rows[0].detail, '1 trio');
  const raced = { ...controller.state.table, lastMatch: { seat: 0, at: 0 } };
  assert.equal(lostRaceText(raced, 1000), 'Bo took that trio');
  assert.match(replayHeading({ game: 'set', players: [] }).title, /^Replay: Set \(served\)$/);
  assert.equal(lobbyLabel('set'), 'Set (served)');
  assert.equal(inviteTitle('set'), 'You are invited to a game of Set (served)');
  resetGames();
});

test('a game only the welcome describes is offered, set up and shown with no code of its own', () => {
  resetGames();
  const { controller } = welcomedWith([...DEFAULT_GAMES, TWINS], { seats: 1, game: 'twins', settings: { boardSize: 8 }, board: [{ id: 0, number: 1 }, { id: 1, number: 1 }] });
  assert.ok(gameIds().includes('twins'));
  assert.equal(pickedGame('twins'), 'twins');
  assert.equal(gameLabel('twins'), 'Twins');
  // The form offers what the description does: one board size is no choice; picks only with others.
  assert.deepEqual(Object.keys(settingsForm('twins', 1)), []);
  assert.deepEqual(Object.keys(settingsForm('twins', 2)), ['showSelections']);
  const m = tableModel(controller.state);
  assert.equal(m.unsupported, null);
  assert.equal(m.hintHidden, false, 'alone, and Twins offers hints');
  assert.equal(m.matchesHeading, 'Twin pairs');
  assert.equal(m.settingsText, '8 cards');
  assert.equal(listText(listOf('solo.custom.8x2'), 'twins'), 'Solo · 8 cards, 2-card matches · custom scoring');
  resetGames();
});

test('a game the page was not told of renders as not supported by this page, never as Set', () => {
  resetGames();
  const { send, controller } = setUp();
  send({ type: 'hello' });
  send({ type: 'message', message: { type: 'welcome', resumed: false, games: DEFAULT_GAMES } });
  send({ type: 'message', message: { type: 'snapshot', table: table({ game: 'poker', board: [{ id: 0, rank: 12, suit: '♥', faceUp: true }] }) } });
  const m = tableModel(controller.state);
  assert.match(m.unsupported, /^poker is not supported by this page/);
  assert.equal(m.hintHidden, true);
  assert.notEqual(m.matchesHeading, 'Sets');
  assert.equal(m.settingsText, '');
  assert.equal(lobbyLabel('poker'), 'poker (not supported by this page)');
  assert.equal(replayHeading({ game: 'poker', players: [] }).title, 'Replay: poker (not supported by this page)');
  assert.equal(inviteTitle('poker'), 'You are invited to a game');
  // A game the server stopped describing is not supported any more, even one this page once knew.
  send({ type: 'message', message: { type: 'welcome', resumed: true, games: [TWINS] } });
  const state = applySnapshot(table({ game: 'set' }), 0);
  assert.match(tableModel(state).unsupported, /^set is not supported by this page/);
  resetGames();
});
