// "How to play" each game the server describes (welcome's `games`: DEFAULT_GAMES is what the
// server sends, held equal by e2e/test_games_described.py), in the words of its description.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DEFAULT_GAMES, learnGames, resetGames } from '../js/games.js';
import { endLines, howToPlay, listText, raceLines, scoringLines } from '../js/how-to-play.js';
import { entryLabel } from '../js/card-element.js';
import { TWINS } from './games-fixtures.js';

const all = (view) => [view.title, view.rules, view.match, view.example?.text ?? '', ...view.sections.flatMap((s) => [s.heading, ...s.lines])].join('\n');

test('every game: its rule, what a match is, an example with real cards named in words, what scores, the race, the end', () => {
  for (const game of DEFAULT_GAMES) {
    const view = howToPlay(game.name);
    assert.equal(view.title, `How to play ${game.title}`);
    assert.equal(view.rules, game.rules);
    assert.ok(view.match.startsWith(`${game.match.a.charAt(0).toUpperCase()}${game.match.a.slice(1)} is `), view.match);
    assert.equal(view.example.cards.length, game.matchSize, game.name);
    assert.ok(view.example.text.endsWith(`are ${game.match.a}:`), view.example.text);
    // The caption names every card in words, as the cards' own labels do.
    for (const card of view.example.cards) assert.ok(view.example.caption.toLowerCase().includes(entryLabel(card)), view.example.caption);
    assert.deepEqual(view.sections.map((s) => s.heading), ['What scores', game.turnBased ? 'Turns' : 'The race', 'The end']);
    // What scores: the scoring's own words, alone and with others.
    const scoring = game.settings.find((s) => s.name === 'scoring');
    const text = (value) => scoring.choices.find((c) => c.value === value).text;
    const scores = view.sections[0].lines.join(' ');
    assert.ok(scores.includes(text(scoring.default)), scores);
    assert.ok(scores.includes(text(scoring.defaultWithOthers ?? scoring.default)), scores);
    assert.ok(!scores.includes('Custom (your own constants)'), 'a scoring the form does not offer is not offered');
    // The words are the game's: nothing of another game's.
    const words = all(view);
    if (game.match.one !== 'set') assert.ok(!/\bsets?\b/.test(words.replace(game.rules, '')), `${game.name}: ${words}`);
  }
});

test('the race, the turns, the chain, the hints and the end follow the description', () => {
  const race = (game) => raceLines(game).join(' ');
  assert.match(race('set'), /race: everyone plays at once, and whoever completes a set first takes its cards/);
  assert.match(race('set'), /Hint outlines one card of a set/);
  assert.match(race('ultraSet'), /whoever completes an UltraSet first/);
  assert.match(race('setChain'), /The first set starts the chain\. Each set: one card of the chain and two of the table\./);
  assert.match(race('matchismo'), /face down: choosing one turns it up/);
  assert.doesNotMatch(race('matchismo'), /Hint/);
  // Turns: whose turn it is, and the clock with others (the setting's words).
  assert.match(race('concentration'), /take turns: only the player whose turn it is/);
  assert.match(race('concentration'), /30 s turns/);
  assert.doesNotMatch(race('concentration'), /race/);
  assert.match(endLines('set').join(' '), /three more cards are dealt.*deck is empty and no set is left/);
  assert.match(endLines('setChain').join(' '), /no set the chain allows/);
  assert.match(endLines('concentration').join(' '), /stay face up.*nothing left on the board can make a pair/);
  assert.deepEqual(scoringLines('concentration'), ['Scoring: A point a pair.', 'The most points wins.']);
  assert.match(howToPlay('matchismo').match, /^A match is two cards\. A new table may ask for 3 cards instead\.$/);
  assert.equal(howToPlay('matchismo').example.caption, 'Queen of spades and queen of hearts.');
  assert.equal(listText(['a', 'b', 'c'], 'or'), 'a, b or c');
});

test('a game only the server knows is explained from its description, without cards', () => {
  try {
    learnGames([...DEFAULT_GAMES, TWINS], 'v-twins');
    const view = howToPlay('twins');
    assert.equal(view.title, 'How to play Twins');
    assert.equal(view.match, 'A twin pair is two cards.');
    assert.equal(view.example, null);
    assert.match(all(view), /whoever completes a twin pair first/);
    assert.match(all(view), /nothing left on the board can make a twin pair/);
    assert.deepEqual(view.sections.map((s) => s.heading), ['The race', 'The end']);
  } finally {
    resetGames();
  }
});
