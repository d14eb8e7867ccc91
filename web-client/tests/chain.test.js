// Set-Chain on the client: the chain in the table's state (snapshot, `chain` event, re-deal), the
// sets a hint may show (chain sets only, once a chain shows) and the choices the rule refuses.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { applyDiff, applySnapshot } from '../js/table-state.js';
import { allCards, cardFromId, findChainSets, isSet, thirdCard } from '../js/set-cards.js';
import { chainChoiceProblem, isChained, takeableSets } from '../js/chain.js';
import { GAME_IDS, gameInfo } from '../js/games.js';
import { settingsForm } from '../js/table-settings.js';
import { diff, seated, sent, toasts } from './controller-fixtures.js';

const cards = (ids) => ids.map(cardFromId);
// 0, 27, 54: one, two, three solid red diamonds (a set): the chain after the first set.
const CHAIN = [0, 27, 54];
// 54 with 13 needs 53 (the one chain set); 13, 14, 12 are a set of the board alone; 1 and 3 fill.
const BOARD = [13, 53, 14, 12, 1, 3];

function chainTable(extra = {}) {
  return {
    id: 't9', game: 'setChain', version: 3, you: 0, over: false, deckCount: 66, settings: { boardSize: 12 },
    board: cards(BOARD), chain: cards(CHAIN),
    players: [{ seat: 0, name: 'Ada', score: 9, matches: 1, selection: [], connected: true }],
    status: [], phase: 'playing', seats: 1, ...extra,
  };
}

test('the fixtures are what they say', () => {
  assert.ok(isSet(...cards(CHAIN)));
  assert.ok(isSet(...cards([54, 13, 53])));
  assert.ok(isSet(...cards([13, 14, 12])));
});

test('the chain sets are one chain card and two board cards, never three board cards', () => {
  const sets = findChainSets(cards(CHAIN), cards(BOARD)).map((set) => set.map((c) => c.id));
  assert.ok(sets.length >= 1);
  for (const set of sets) {
    assert.ok(CHAIN.includes(set[0]));
    assert.ok(BOARD.includes(set[1]) && BOARD.includes(set[2]));
    assert.ok(isSet(...cards(set)));
  }
  assert.deepEqual(sets[0], [54, 13, 53]);
  assert.ok(!sets.some((set) => set.every((id) => BOARD.includes(id))));
  // Brute force over the whole deck: every chain set of a random chain and board is found.
  const deck = allCards();
  const chain = [deck[5], deck[33], thirdCard(deck[5], deck[33])];
  const board = deck.filter((c) => !chain.some((x) => x.id === c.id)).filter((_, i) => i % 6 === 0);
  let expected = 0;
  for (const anchor of chain) {
    for (let i = 0; i < board.length; i += 1) {
      for (let j = i + 1; j < board.length; j += 1) if (isSet(anchor, board[i], board[j])) expected += 1;
    }
  }
  assert.equal(findChainSets(chain, board).length, expected);
  assert.ok(expected > 0);
});

test('a hint takes a chain set once a chain shows, any set before', () => {
  const { table } = applySnapshot(chainTable());
  assert.ok(isChained(table));
  assert.deepEqual(takeableSets(table)[0].map((c) => c.id), [54, 13, 53]);
  const first = applySnapshot(chainTable({ chain: [] })).table;
  assert.ok(takeableSets(first).some((set) => set.map((c) => c.id).join() === '13,14,12'));
  const set = applySnapshot(chainTable({ game: 'set', chain: undefined })).table;
  assert.ok(!isChained(set));
});

test('the rule: one card of the chain, two of the table', () => {
  const { table } = applySnapshot(chainTable());
  assert.equal(chainChoiceProblem(table, [], 0), null);
  assert.equal(chainChoiceProblem(table, [], 13), null);
  assert.equal(chainChoiceProblem(table, [13], 53), null);
  assert.equal(chainChoiceProblem(table, [13, 53], 54), null);
  assert.match(chainChoiceProblem(table, [0], 27), /one card of the chain/);
  assert.match(chainChoiceProblem(table, [0, 13], 54), /one card of the chain/);
  assert.match(chainChoiceProblem(table, [13, 14], 12), /choose a card of the chain/);
  // Un-choosing is always allowed; before the first set there is no rule beyond Set's.
  assert.equal(chainChoiceProblem(table, [0], 0), null);
  assert.equal(chainChoiceProblem(applySnapshot(chainTable({ chain: [] })).table, [13, 14], 12), null);
  assert.equal(chainChoiceProblem(applySnapshot(chainTable({ chain: undefined })).table, [0], 27), null);
});

test('the chain in the state: from the snapshot, a chain event, emptied by a re-deal', () => {
  let state = applySnapshot(chainTable());
  assert.deepEqual(state.table.chain.map((c) => c.id), CHAIN);
  let result = applyDiff(state, {
    type: 'diff', table: 't9', version: 4, events: [
      { kind: 'match', seat: 0, cards: [13, 53, 54], points: 12 },
      { kind: 'chain', cards: cards([54, 13, 53]) },
    ],
  });
  assert.equal(result.resync, false);
  state = result.state;
  assert.deepEqual(state.table.chain.map((c) => c.id), [54, 13, 53]);
  result = applyDiff(state, { type: 'diff', table: 't9', version: 5, events: [{ kind: 'redeal', board: cards(BOARD), deckCount: 69 }] });
  assert.deepEqual(result.state.table.chain, []);
  // Other games keep no chain through a re-deal.
  const set = applySnapshot(chainTable({ game: 'set', chain: undefined }));
  assert.equal(set.table.chain, null);
  const after = applyDiff(set, { type: 'diff', table: 't9', version: 4, events: [{ kind: 'redeal', board: cards(BOARD), deckCount: 69 }] });
  assert.equal(after.state.table.chain, null);
  // A malformed chain event asks for a snapshot.
  assert.equal(applyDiff(state, { type: 'diff', table: 't9', version: 5, events: [{ kind: 'chain' }] }).resync, true);
});

test('the controller: a refused choice is not sent, a chain card is, the hint shows the chain card', () => {
  const { send } = seated(chainTable({ id: 't7', version: 20 }));
  const chosen = send({ type: 'choose', card: 0 });
  assert.deepEqual(sent(chosen).map((m) => m.card), [0]);
  send(diff(21, [{ kind: 'select', seat: 0, card: 0 }]));
  const second = send({ type: 'choose', card: 27 });
  assert.deepEqual(sent(second), []);
  assert.match(toasts(second)[0], /one card of the chain/);
  const hint = send({ type: 'hint' });
  const flash = hint.find((e) => e.type === 'flash');
  assert.deepEqual(flash.cards, [54]);
  const more = send({ type: 'hint' });
  assert.deepEqual(more.find((e) => e.type === 'flash').cards, [54, 13]);
});

test('Set-Chain in the lobby: a title, its rule, its settings', () => {
  assert.deepEqual(GAME_IDS, ['set', 'setJunior', 'ultraSet', 'setChain', 'matchismo', 'concentration']);
  assert.equal(gameInfo('setChain').title, 'Set-Chain');
  assert.equal(gameInfo('setChain').hint, true);
  assert.match(gameInfo('setChain').lede, /one card of the set before/);
  assert.deepEqual(settingsForm('setChain', 1).boardSize.options.map(([n]) => n), [9, 12, 15, 18]);
  assert.equal(settingsForm('setChain', 2).scoring.default, 'classic');
  assert.equal(settingsForm('setChain', 1).scoring.default, 'course');
});
