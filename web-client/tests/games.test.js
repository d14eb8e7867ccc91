import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  DEFAULT_GAME, DEFAULT_GAMES, UNSUPPORTED, boardShape, gameIds, gameInfo, gameLabel, holdsFaces, isKnownGame, keptText,
  gamesAsked, learnGames, matchesHeading, matchesText, readGame, resetGames, unsupportedText,
} from '../js/games.js';
import { TWINS } from './games-fixtures.js';

test('before any welcome the page knows the six standard games, Set first', () => {
  resetGames();
  assert.deepEqual(gameIds(), ['set', 'setJunior', 'ultraSet', 'setChain', 'matchismo', 'concentration']);
  assert.equal(DEFAULT_GAME, gameIds()[0]);
  assert.equal(DEFAULT_GAMES.length, 6);
  for (const id of gameIds()) {
    const info = gameInfo(id);
    assert.ok(info.supported && info.title.length > 0 && info.rules.length > 20, id);
  }
  assert.equal(gameInfo('ultraSet').a, 'an UltraSet');
  assert.equal(gameInfo('setJunior').base, 9);
});

test('the board grows by the game\'s step from its board size; a board that never grows keeps its count', () => {
  resetGames();
  assert.deepEqual(boardShape('set', { boardSize: 12 }, 12), { base: 12, step: 3 });
  assert.deepEqual(boardShape('set', { boardSize: 9 }, 15), { base: 9, step: 3 });
  assert.deepEqual(boardShape('set', {}, 12), { base: 12, step: 3 });
  assert.deepEqual(boardShape('matchismo', { boardSize: 24 }, 24), { base: 24, step: 0 });
  assert.deepEqual(boardShape('concentration', {}, 20), { base: 20, step: 0 });
  assert.deepEqual(boardShape('poker', {}, 7), { base: 7, step: 0 });
});

test('words for matches come from the game\'s description', () => {
  resetGames();
  assert.equal(matchesText('set', 1), '1 set');
  assert.equal(matchesText('set', 0), '0 sets');
  assert.equal(matchesText('matchismo', 3), '3 matches');
  assert.equal(matchesText('concentration', 2), '2 pairs');
  assert.equal(matchesHeading('concentration'), 'Pairs');
  assert.equal(matchesHeading('set'), 'Sets');
  assert.equal(gameInfo('matchismo').hints, false);
  assert.match(keptText('set', 3), /^No set\. .*pick two more/);
  assert.match(keptText('matchismo', 2), /^No match\. .*pick one more/);
  assert.match(keptText('matchismo', 3), /pick two more/);
  assert.equal(holdsFaces('concentration'), true);
  assert.equal(holdsFaces('matchismo'), false);
  assert.equal(holdsFaces('set'), false);
});

test('a game this page was not told of is not supported, never Set', () => {
  resetGames();
  const poker = gameInfo('poker');
  assert.equal(poker.supported, false);
  assert.equal(poker.title, 'poker');
  assert.equal(poker.hints, false);
  assert.deepEqual(poker.settings, []);
  assert.notEqual(poker.title, gameInfo('set').title);
  assert.equal(gameLabel('poker'), `poker (${UNSUPPORTED})`);
  assert.equal(UNSUPPORTED, 'not supported by this page');
  assert.match(unsupportedText('poker'), /^poker is not supported by this page/);
  assert.equal(unsupportedText('set'), null);
  assert.equal(isKnownGame('poker'), false);
  assert.equal(gameInfo(undefined).supported, false);
  assert.equal(matchesText('poker', 2), '2 matches');
});

test('a welcome\'s games replace what the page knew, in the server\'s order', () => {
  resetGames();
  const set = { ...DEFAULT_GAMES[0], title: 'Set (served)', match: { one: 'trio', many: 'trios', a: 'a trio' } };
  assert.equal(learnGames([TWINS, set]), true);
  assert.deepEqual(gameIds(), ['twins', 'set']);
  assert.equal(gameInfo('set').title, 'Set (served)');
  assert.equal(matchesText('set', 2), '2 trios');
  assert.equal(gameLabel('twins'), 'Twins');
  assert.equal(matchesText('twins', 1), '1 twin pair');
  assert.equal(gameInfo('twins').hints, true);
  // What the server no longer deals, the page no longer knows.
  assert.equal(isKnownGame('concentration'), false);
  assert.match(gameLabel('concentration'), /not supported by this page/);
  // The same list again changes nothing; nothing readable changes nothing.
  assert.equal(learnGames([TWINS, set]), false);
  assert.equal(learnGames([]), false);
  assert.equal(learnGames(undefined), false);
  assert.equal(learnGames([{ name: 'x' }, null, 7]), false);
  assert.deepEqual(gameIds(), ['twins', 'set']);
  resetGames();
  assert.equal(gameInfo('set').title, 'Set');
});

test('a hello asks for the games until some are learnt, then names their version', () => {
  resetGames();
  assert.equal(gamesAsked(), true);
  learnGames(undefined, 'aaaa');
  assert.equal(gamesAsked(), true, 'a version without descriptions is not held');
  learnGames([TWINS], '0123456789abcdef');
  assert.equal(gamesAsked(), '0123456789abcdef');
  learnGames([TWINS], '');
  assert.equal(gamesAsked(), true);
  resetGames();
  assert.equal(gamesAsked(), true);
});

test('a description is read leniently: what cannot be read is left out, never guessed as Set', () => {
  assert.equal(readGame(null), null);
  assert.equal(readGame({ name: 'x' }), null, 'no title');
  const bare = readGame({ name: 'x', title: 'X' });
  assert.deepEqual(bare.match, ['match', 'matches']);
  assert.equal(bare.hints, false);
  assert.deepEqual(bare.settings, []);
  const odd = readGame({ ...TWINS, settings: [null, { name: 'a' }, { name: 'b', choices: [{ value: {} }, { value: 3 }] }] });
  assert.deepEqual(odd.settings.map((s) => [s.name, s.choices.map((c) => c.value)]), [['b', [3]]]);
});
