// "How to play" a game, as data: what a match is, one drawn with real cards, what scores, the
// race (or the turns), how the game ends — every word from the game's description in `welcome`
// (games.js: its rule sentence, its words for a match, its settings and their words, its flags)
// and its example match (games.js GAME_CARDS, drawn by deck-cards.js). No rule of its own: a
// game the server describes and this page has no example for is explained without the cards.
// Pure: how-to-view.js draws it.

import { gameInfo } from './games.js';
import { exampleCards } from './deck-cards.js';
import { entryLabel } from './card-element.js';

const NUMBER_WORDS = ['no', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten'];

/** "three" for 3 (the number itself beyond ten). */
function numberWord(n) {
  return NUMBER_WORDS[n] ?? String(n);
}

/** The text with its first letter a capital. */
function capital(text) {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** "a, b and c" (or "a, b or c"). */
export function listText(items, last = 'and') {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} ${last} ${items.at(-1)}`;
}

/** What a match is: its size, and the other sizes a new table may ask for. */
export function matchText(game) {
  const info = gameInfo(game);
  const text = `${capital(info.a)} is ${numberWord(info.matchSize)} cards.`;
  const setting = info.settings.find((s) => s.name === 'matchSize');
  const others = (setting?.choices ?? []).filter((c) => c.form && c.value !== info.matchSize);
  return others.length === 0 ? text : `${text} A new table may ask for ${listText(others.map((c) => c.text), 'or')} instead.`;
}

/** The words of a setting's choice `value` in a form ('' when it has none). */
function choiceText(setting, value) {
  return setting.choices.find((c) => c.value === value)?.text ?? '';
}

/** What scores: the scoring alone and with others, in the setting's own words, and the other
 * scorings a new table may pick. */
export function scoringLines(game) {
  const scoring = gameInfo(game).settings.find((s) => s.name === 'scoring');
  if (scoring === undefined) return [];
  const alone = choiceText(scoring, scoring.default);
  const withOthers = choiceText(scoring, scoring.defaultWithOthers);
  const lines = [];
  if (alone === withOthers) {
    if (alone !== '') lines.push(`Scoring: ${alone}.`);
  } else {
    if (alone !== '') lines.push(`Playing alone: ${alone}.`);
    if (withOthers !== '') lines.push(`With others: ${withOthers}.`);
  }
  const offered = scoring.choices.filter((c) => c.form);
  if (offered.length >= 2) lines.push(`A new table may pick its scoring: ${listText(offered.map((c) => c.text), 'or')}.`);
  lines.push('The most points wins.');
  return lines;
}

/** The race with others, or the turns; hints and the chain, where the game has them. */
export function raceLines(game) {
  const info = gameInfo(game);
  const lines = [];
  if (info.turnBased) {
    lines.push('Players take turns: only the player whose turn it is turns up cards, and the table shows whose turn it is.');
    const clock = info.settings.find((s) => s.name === 'turnSeconds');
    const words = clock === undefined ? '' : (clock.choices.find((c) => c.value === clock.defaultWithOthers)?.summary ?? '');
    if (clock !== undefined && clock.defaultWithOthers !== 0 && words !== '') {
      lines.push(`With others a turn has a time limit (${words} unless the table says otherwise); a turn left idle passes.`);
    }
  } else {
    lines.push(
      `With others it is a race: everyone plays at once, and whoever completes ${info.a} first takes its cards ` +
        `and its points — the same cards in anyone else's picks are let go.`,
    );
  }
  if (info.faceDown) {
    lines.push(`The cards lie face down: choosing one turns it up, and cards that are not ${info.a} turn back down.`);
  }
  if (info.chain) {
    const chain = [info.texts.chainStart, info.texts.chainRule].filter((t) => t !== '');
    if (chain.length > 0) lines.push(`${chain.join(' ')} The chain shows above the board.`);
  }
  if (info.hints) lines.push(`Playing alone, Hint outlines one card of ${info.a}; ask again for a second.`);
  return lines;
}

/** How the game ends. */
export function endLines(game) {
  const info = gameInfo(game);
  const [one] = info.match;
  const what = info.chain ? `${one} the chain allows` : one;
  if (info.step > 0) {
    return [
      `The cards of ${info.a} taken are replaced from the deck; while the board holds no ${what}, ` +
        `${numberWord(info.step)} more cards are dealt.`,
      `The game ends when the deck is empty and no ${what} is left on the board.`,
    ];
  }
  const lines = [];
  if (info.faceDown) lines.push(`Cards matched stay face up, out of play.`);
  lines.push(`The game ends when nothing left on the board can make ${info.a}.`);
  return lines;
}

/**
 * How to play `game`: {title, rules, match, example: {text, cards, caption} | null, sections:
 * [{heading, lines}]}. `example.cards` are board entries to draw (card-element.js), with their
 * names in words in `caption`.
 */
export function howToPlay(game) {
  const info = gameInfo(game);
  const cards = exampleCards(game);
  const example =
    cards.length === 0
      ? null
      : {
          text: `For example, these ${numberWord(cards.length)} cards are ${info.a}:`,
          cards,
          caption: `${capital(listText(cards.map(entryLabel)))}.`,
        };
  return {
    title: `How to play ${info.title}`,
    rules: info.rules,
    match: matchText(game),
    example,
    sections: [
      { heading: 'What scores', lines: scoringLines(game) },
      { heading: info.turnBased ? 'Turns' : 'The race', lines: raceLines(game) },
      { heading: 'The end', lines: endLines(game) },
    ].filter((s) => s.lines.length > 0),
  };
}
