// The look back at a finished game (PROTOCOL.md, "The look back"): what the server sends at the
// game's end (the `lookBack` event) and with a record, read and checked, and what the game-over
// box and the replay show of it, as data. Pure: look-back-view.js draws it.
//
// LookBack = {boardSeen, found: [{seat, cards, at, seconds}], missed: [{cards, from, until, seconds}],
//             players: [{seat, found, fastest, mean}]}

import { formatAt } from './history.js';
import { gameInfo } from './games.js';

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
  };
}

/** Seconds for people: "4.1 s" ('–' when there are none). */
export function secondsText(seconds) {
  return typeof seconds === 'number' && Number.isFinite(seconds) ? `${seconds.toFixed(1)} s` : '–';
}

/**
 * What the look back shows: {players: [{seat, name, found, fastest, mean, you}], found: [{n, name,
 * at, seconds, you}], missedText, missed: [{cards, from, seconds}] (the longest first, at most
 * `missedShown`), note}. `names` maps seats to names; `you` is the viewer's seat (or null).
 */
export function lookBackView(lookBack, { game, names = new Map(), you = null, missedShown = 5 } = {}) {
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
    })),
    missedText: !lookBack.boardSeen
      ? ''
      : missedCount === 0
        ? `No ${one} was passed over.`
        : `${missedCount} ${missedCount === 1 ? one : many} ${missedCount === 1 ? 'was' : 'were'} on the board and left untaken` +
          ` — the longest for ${secondsText(longest[0].seconds)}.`,
    missed: longest.slice(0, missedShown).map((m) => ({ cards: m.cards, from: formatAt(m.from), seconds: secondsText(m.seconds) })),
    note: lookBack.boardSeen
      ? `Times: how long each ${one} had been on the board when it was taken.`
      : `Times: how long each ${one} took after the one before (the cards were face down).`,
  };
}
