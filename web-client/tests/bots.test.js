import { test } from 'node:test';
import assert from 'node:assert/strict';
import { botBadge, botCount, botLevel, levelChoices, pickedLevel } from '../js/bots.js';
import { BOT_LEVELS, addComputer, playBot } from '../js/messages.js';
import { applySnapshot } from '../js/table-state.js';
import { applyEvent } from '../js/table-events.js';
import { scoreboardModel, tableModel } from '../js/table-model.js';
import { gameInfo } from '../js/games.js';

test('the lobby offers the four levels, slowest first, in the game’s words', () => {
  const choices = levelChoices(gameInfo('ultraSet'));
  assert.deepEqual(choices.map(([level]) => level), ['beginner', 'casual', 'good', 'expert']);
  assert.equal(choices[0][1], 'Beginner: an UltraSet in about 20 s, one claim in 5 wrong');
  assert.equal(choices[3][1], 'Expert: an UltraSet in about 2.5 s, never wrong');
  // Face down, a level is how fast it turns cards and how soon it forgets.
  assert.equal(levelChoices(gameInfo('concentration'))[0][1], 'Beginner: turns a card in about 2 s, forgets faces soon');
  assert.deepEqual([pickedLevel('good'), pickedLevel('grandmaster'), pickedLevel(undefined)], ['good', 'casual', 'casual']);
  assert.deepEqual(['1', '3', '0', '4', 'x'].map(botCount), [1, 3, 1, 1, 1]);
});

test('playBot carries the game, level, count and settings; a level or count that is none throws', () => {
  assert.deepEqual(playBot(4, { game: 'ultraSet', level: 'expert', bots: 2, settings: { scoring: 'classic' } }), {
    scoring: 'classic', type: 'playBot', id: 4, game: 'ultraSet', level: 'expert', bots: 2,
  });
  assert.deepEqual(playBot(5), { type: 'playBot', id: 5, game: 'set', level: 'casual', bots: 1 });
  assert.throws(() => playBot(6, { level: 'grandmaster' }), RangeError);
  assert.throws(() => playBot(6, { bots: 4 }), RangeError);
  assert.deepEqual(BOT_LEVELS, ['beginner', 'casual', 'good', 'expert']);
});

test('the server says which games computers play: every game it describes', () => {
  const playing = ['set', 'setJunior', 'ultraSet', 'setChain', 'matchismo', 'concentration'].filter((g) => gameInfo(g).computers);
  assert.deepEqual(playing, ['set', 'setJunior', 'ultraSet', 'setChain', 'matchismo', 'concentration']);
  assert.equal(gameInfo('poker').computers, false);
});

test('a computer’s seat keeps its level from a snapshot or a join, and the scoreboard marks it', () => {
  const { table } = applySnapshot({
    id: 't', game: 'set', version: 1, board: [], seats: 3, host: 1, phase: 'waiting', you: 1, deckCount: 69,
    players: [
      { seat: 0, name: 'Computer 1 (expert)', bot: { level: 'expert' } },
      { seat: 1, name: 'Ada' },
    ],
  }, 0);
  applyEvent(table, { kind: 'join', seat: 2, name: 'Computer 3 (good)', bot: { level: 'good' } }, 0);
  const rows = scoreboardModel(table).rows;
  assert.deepEqual(rows.map((r) => r.bot), ['expert', null, 'good']);
  assert.deepEqual(botBadge('expert'), { text: 'computer', label: 'computer player, expert' });
  assert.deepEqual([botLevel(null), botLevel({}), botLevel({ level: 'casual' })], [null, 'computer', 'casual']);
});

test('a computer offered to the host waiting alone: shown to the host only, withdrawn by its event', () => {
  const snapshot = (extra) => applySnapshot({
    id: 't', game: 'set', version: 4, board: [], seats: 4, host: 0, phase: 'waiting', you: 0, deckCount: 81,
    players: [{ seat: 0, name: 'Ada' }], ...extra,
  }, 0);
  const offered = snapshot({ computerOffer: true });
  assert.equal(offered.table.computerOffer, true);
  assert.equal(tableModel(offered).offerHidden, false);
  // Not the host, or a spectator: nothing to take.
  assert.equal(tableModel(snapshot({ computerOffer: true, you: null })).offerHidden, true);
  assert.equal(tableModel(snapshot({})).offerHidden, true);
  applyEvent(offered.table, { kind: 'computerOffer', open: false }, 0);
  assert.equal(tableModel(offered).offerHidden, true);
  applyEvent(offered.table, { kind: 'computerOffer', open: true }, 0);
  assert.equal(tableModel(offered).offerHidden, false);
  assert.throws(() => applyEvent(offered.table, { kind: 'computerOffer' }, 0), TypeError);
  assert.deepEqual(addComputer(3, 'good'), { type: 'addComputer', id: 3, level: 'good' });
  assert.throws(() => addComputer(3, 'grandmaster'), RangeError);
});
