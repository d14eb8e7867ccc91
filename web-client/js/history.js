// The history of a game (matches and mismatches, oldest first) and the game-over summary drawn
// from it. Pure: history-view.js turns these into DOM.

import { gameInfo } from './games.js';

/** "m:ss" for seconds into the game ("0:41", "12:05"); '' when unknown. */
export function formatAt(seconds) {
  if (typeof seconds !== 'number' || !Number.isFinite(seconds) || seconds < 0) return '';
  const s = Math.floor(seconds);
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}

/** The points of an entry as shown: {text: "+12" | "−2" | "0", sign: 'gain' | 'loss' | 'none'}. */
export function pointsOf(entry) {
  if (entry.kind === 'match') {
    return entry.points > 0 ? { text: `+${entry.points}`, sign: 'gain' } : { text: String(entry.points), sign: entry.points < 0 ? 'loss' : 'none' };
  }
  return entry.penalty > 0 ? { text: `−${entry.penalty}`, sign: 'loss' } : { text: '0', sign: 'none' };
}

/** One history row as data: {n, time, runs, points, sign, kind, seat, who}. `players` names seats. */
export function historyRow(entry, players = [], you = null) {
  const { text, sign } = pointsOf(entry);
  const player = players.find((p) => p.seat === entry.seat);
  const who = entry.seat === null ? '' : entry.seat === you ? 'You' : (player?.name ?? `Seat ${entry.seat + 1}`);
  return { n: entry.n, time: formatAt(entry.at), runs: entry.runs, points: text, sign, kind: entry.kind, seat: entry.seat, who };
}

/**
 * What a history view holding `drawn` rows must do to show `history`: append the rows after them,
 * or start again (a re-deal cleared the history, or it is another game's). Returns
 * {reset: boolean, append: [Entry]}. `drawnFirst` is the `n` of the first row drawn (null: none).
 */
export function historyUpdate(drawnCount, drawnFirst, history) {
  const first = history[0]?.n ?? null;
  if (history.length < drawnCount || (drawnCount > 0 && first !== drawnFirst)) {
    return { reset: true, append: history };
  }
  return { reset: false, append: history.slice(drawnCount) };
}

/** Mistakes (mismatches) per seat, counted from the history: Map(seat → count). */
export function mistakesBySeat(history) {
  const counts = new Map();
  for (const entry of history ?? []) {
    if (entry.kind === 'mismatch' && entry.seat !== null) counts.set(entry.seat, (counts.get(entry.seat) ?? 0) + 1);
  }
  return counts;
}

/**
 * The game-over summary: {rows: [{seat, rank, name, score, matches, mistakes | null, you}], time,
 * line}. Mistakes come from the history (null when there is none to count from). The time played
 * is the last history entry's `at`, else `elapsedSeconds` (the client's own clock), else ''.
 */
export function gameSummary({ game, standings, history = [], you = null, elapsedSeconds = null }) {
  const counted = history.length > 0;
  const mistakes = mistakesBySeat(history);
  const [one, many] = gameInfo(game).match;
  const rows = (standings ?? []).map((s) => ({
    seat: s.seat,
    rank: s.rank,
    name: s.name,
    score: s.score,
    matches: s.matches,
    mistakes: counted ? (mistakes.get(s.seat) ?? 0) : null,
    you: s.seat === you,
    detail:
      `${s.matches} ${s.matches === 1 ? one : many}` +
      (counted ? ` · ${mistakes.get(s.seat) ?? 0} ${(mistakes.get(s.seat) ?? 0) === 1 ? 'mistake' : 'mistakes'}` : ''),
  }));
  const lastAt = [...history].reverse().find((e) => e.at !== null)?.at ?? null;
  const seconds = lastAt ?? elapsedSeconds;
  const time = seconds === null || seconds === undefined ? '' : formatAt(seconds);
  return { rows, time, timeText: time === '' ? '' : `Time played ${time}` };
}

/** The vote line at the end: "2 of 3 want to play again" ('' when nobody has voted). */
export function playAgainText(vote) {
  if (vote === null || vote === undefined || !Array.isArray(vote.seats) || vote.seats.length === 0) return '';
  return `${vote.seats.length} of ${vote.needed} want to play again`;
}
