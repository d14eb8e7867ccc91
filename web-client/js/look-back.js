// The look back at a finished game (PROTOCOL.md, "The look back"): what the server sends at the
// game's end (the `lookBack` event) and with a record, read and checked, and what the game-over
// box and the replay show of it, as data. Pure: look-back-view.js draws it.
//
// LookBack = {boardSeen, found: [{seat, cards, at, seconds}], missed: [{cards, from, until, seconds}],
//             players: [{seat, found, fastest, mean}], daily: Compare | null}
// Compare (a daily puzzle's game against everyone's that day) = {day, place, total, quickerThan,
//   fewerMistakesThan, moreMatchesThan, fasterPaceThan (0–100 or null: nobody else), pace,
//   median: {seconds, mistakes, matches, pace}}

import { formatAt } from './history.js';
import { gameInfo } from './games.js';
import { ordinal } from './daily.js';
import { gameDeckCards } from './deck-cards.js';

/** A look back, checked and copied, or null when there is none or it cannot be read. */
export function readLookBack(value) {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return null;
  if (!Array.isArray(value.found) || !Array.isArray(value.missed) || !Array.isArray(value.players)) return null;
  const number = (n) => (typeof n === 'number' && Number.isFinite(n) && n >= 0 ? n : null);
  const cards = (list) => (Array.isArray(list) ? list.filter(Number.isInteger) : []);
  return {
    boardSeen: value.boardSeen === true,
    found: value.found
      .filter((f) => f !== null && typeof f === 'object' && Number.isInteger(f.seat))
      .map((f) => ({ seat: f.seat, cards: cards(f.cards), at: number(f.at) ?? 0, seconds: number(f.seconds) ?? 0 })),
    missed: value.missed
      .filter((m) => m !== null && typeof m === 'object')
      .map((m) => ({ cards: cards(m.cards), from: number(m.from) ?? 0, until: number(m.until) ?? 0, seconds: number(m.seconds) ?? 0 })),
    players: value.players
      .filter((p) => p !== null && typeof p === 'object' && Number.isInteger(p.seat))
      .map((p) => ({ seat: p.seat, found: Number.isInteger(p.found) ? p.found : 0, fastest: number(p.fastest), mean: number(p.mean) })),
    daily: readDailyCompare(value.daily ?? null),
  };
}

/** A daily puzzle's comparison with the day (`lookBack.daily`, or the `daily` answer's
 * `compare`), checked and copied, or null. */
export function readDailyCompare(value) {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return null;
  if (typeof value.day !== 'string' || !Number.isInteger(value.place) || !Number.isInteger(value.total)) return null;
  const share = (n) => (Number.isInteger(n) && n >= 0 && n <= 100 ? n : null);
  const number = (n) => (typeof n === 'number' && Number.isFinite(n) && n >= 0 ? n : null);
  const median = value.median !== null && typeof value.median === 'object' ? value.median : {};
  return {
    day: value.day,
    place: value.place,
    total: value.total,
    quickerThan: share(value.quickerThan),
    fewerMistakesThan: share(value.fewerMistakesThan),
    moreMatchesThan: share(value.moreMatchesThan),
    fasterPaceThan: share(value.fasterPaceThan),
    pace: number(value.pace),
    median: { seconds: number(median.seconds), mistakes: number(median.mistakes), matches: number(median.matches), pace: number(median.pace) },
  };
}

/** The comparison with the day, in words: a line each (none without one). */
export function dailyCompareLines(compare, game) {
  if (compare === null) return [];
  const [one, many] = gameInfo(game).match;
  const lines = [`Daily puzzle, ${compare.day}: ${ordinal(compare.place)} of ${compare.total}.`];
  if (compare.quickerThan === null) {
    lines.push('Nobody else has finished it yet: come back later to see how you compare.');
    return lines;
  }
  lines.push(
    `Quicker than ${compare.quickerThan}% of the others, fewer mistakes than ${compare.fewerMistakesThan}%, ` +
      `more ${many} than ${compare.moreMatchesThan}%.`,
  );
  if (compare.pace !== null) {
    lines.push(
      `${secondsText(compare.pace)} a ${one} (faster than ${compare.fasterPaceThan ?? 0}%); the day's median: ` +
        `${secondsText(compare.median.pace)} a ${one}, ${formatAt(compare.median.seconds ?? 0)} in all, ` +
        `${compare.median.mistakes ?? 0} ${compare.median.mistakes === 1 ? 'mistake' : 'mistakes'}.`,
    );
  }
  return lines;
}

/** Seconds for people: "4.1 s" ('–' when there are none). */
export function secondsText(seconds) {
  return typeof seconds === 'number' && Number.isFinite(seconds) ? `${seconds.toFixed(1)} s` : '–';
}

/**
 * What the look back shows: {players: [{seat, name, found, fastest, mean, you}], found: [{n, name,
 * at, seconds, you, cards}], missedText, missedTitle, missed: [{ids, cards, from, seconds}] (the
 * longest first, at most `missedShown`), missedRest (the others, counted), note, daily: [line]}.
 * `cards` are the match's cards as board entries to draw (deck-cards.js; [] for a game whose
 * cards this page cannot draw). `names` maps seats to names; `you` is the viewer's seat (or
 * null); `daily`: a daily puzzle's comparison with the day (else the look back's own).
 */
export function lookBackView(lookBack, { game, names = new Map(), you = null, missedShown = 5, daily = null } = {}) {
  if (lookBack === null) return null;
  const nameOf = (seat) => names.get(seat) ?? `Seat ${seat + 1}`;
  const [one, many] = gameInfo(game).match;
  const missedCount = lookBack.missed.length;
  const longest = [...lookBack.missed].sort((a, b) => b.seconds - a.seconds || a.from - b.from);
  return {
    players: lookBack.players.map((p) => ({
      seat: p.seat,
      name: nameOf(p.seat),
      found: `${p.found} ${p.found === 1 ? one : many}`,
      fastest: secondsText(p.fastest),
      mean: secondsText(p.mean),
      you: p.seat === you,
    })),
    found: lookBack.found.map((f, i) => ({
      n: i + 1,
      name: nameOf(f.seat),
      at: formatAt(f.at),
      seconds: secondsText(f.seconds),
      you: f.seat === you,
      cards: gameDeckCards(game, f.cards),
    })),
    missedText: !lookBack.boardSeen
      ? ''
      : missedCount === 0
        ? `No ${one} was passed over.`
        : `${missedCount} ${missedCount === 1 ? one : many} ${missedCount === 1 ? 'was' : 'were'} on the board and left untaken` +
          ` — the longest for ${secondsText(longest[0].seconds)}.`,
    ...missedList(longest, missedShown, game, [one, many]),
    note: lookBack.boardSeen
      ? `Times: how long each ${one} had been on the board when it was taken.`
      : `Times: how long each ${one} took after the one before (the cards were face down).`,
    daily: dailyCompareLines(daily ?? lookBack.daily ?? null, game),
  };
}

/** The matches left untaken that stood longest, longest first, with their cards, and the rest
 * counted: {missedTitle, missed, missedRest}. */
function missedList(longest, shown, game, [one, many]) {
  const listed = longest.slice(0, Math.max(0, shown));
  const rest = longest.length - listed.length;
  return {
    missedTitle: listed.length === 0 ? '' : listed.length === 1 && rest === 0 ? `The ${one} left untaken:` : 'Left untaken, the longest first:',
    missed: listed.map((m) => ({
      ids: m.cards,
      cards: gameDeckCards(game, m.cards),
      from: `from ${formatAt(m.from)}`,
      seconds: secondsText(m.seconds),
    })),
    missedRest: rest === 0 ? '' : `And ${rest} more ${rest === 1 ? one : many}, none there longer.`,
  };
}
