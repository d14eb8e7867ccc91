// Pure: what the lobby's Arenas tab and the arena dialog show, as data (arenas-view.js and
// arena-dialog-view.js only put it on the page), and the rules of the form that creates a
// private arena. The arenas themselves (read, grouped, in words) are arenas.js's.

import { arenaGameIds, gameInfo, gameLabel, matchesText } from './games.js';
import { cleanCode } from './messages.js';
import { ARENA_MINUTES } from './arena-messages.js';
import { formatAt } from './history.js';
import {
  groupArenas, phaseText, playersText, standingsRows, timeText, winnerText, youText,
} from './arenas.js';

/** The groups of the Arenas tab, in the order shown, and what each says when empty. */
const GROUPS = Object.freeze([
  { key: 'running', title: 'Running', empty: 'No arena is running.' },
  { key: 'upcoming', title: 'Upcoming', empty: 'No arena is coming up.' },
  { key: 'past', title: 'Finished', empty: 'No arena has finished yet.' },
]);

/** "Starts in" of the create form: seconds from now, and their words. */
export const STARTS_IN_CHOICES = Object.freeze([
  [0, 'Now'],
  [60, 'In 1 minute'],
  [300, 'In 5 minutes'],
  [900, 'In 15 minutes'],
]);

/** The length of a new arena, in minutes, before the player changes it. */
export const DEFAULT_ARENA_MINUTES = 10;

/** One arena of the list as its row shows it. */
function arenaRow(a, now, format) {
  const open = a.phase !== 'finished';
  const who = a.phase === 'finished' ? (a.winner === null ? 'No winner' : `Winner: ${a.winner}`) : a.leader === null ? '' : `Leader: ${a.leader}`;
  return {
    id: a.id,
    phase: a.phase,
    name: a.name,
    game: gameLabel(a.game),
    players: playersText(a.players),
    time: timeText(a, now, format),
    who,
    code: a.private ? a.code : null,
    joined: a.joined,
    join: open && !a.joined,
    leave: open && a.joined,
    watch: true,
    // The list does not say whether a game is featured: offered while running unless it says none.
    featured: a.phase === 'running' && a.featured !== null,
  };
}

/**
 * The Arenas tab from the controller's arenas state at `now` (ms): {busy, empty (a line in place
 * of the groups, or null), problem (an arena request refused, or ''), groups: [{key, title, rows,
 * empty}]}. `format` ({locale, timeZone}) is for the time of day an arena ended (tests).
 */
export function arenasListView(arenas, now, format = {}) {
  const groups = groupArenas(arenas.list);
  let empty = null;
  if (arenas.status === 'error') empty = arenas.error ?? 'The arenas could not be loaded.';
  else if (arenas.status !== 'ready' && arenas.list.length === 0) empty = 'Loading arenas…';
  return {
    busy: arenas.status === 'loading',
    empty,
    problem: arenas.problem ?? '',
    groups: empty !== null && arenas.status === 'error'
      ? []
      : GROUPS.map(({ key, title, empty: none }) => ({ key, title, empty: none, rows: groups[key].map((a) => arenaRow(a, now, format)) })),
  };
}

/** The time texts of the list only (the tab ticks them every second): arena id → text. */
export function arenaTimes(arenas, now, format = {}) {
  return new Map(arenas.list.map((a) => [a.id, timeText(a, now, format)]));
}

/** "Ann vs Bo". */
const gameText = (g) => (g.players.length === 0 ? 'A game' : g.players.join(' vs '));

/**
 * The arena dialog: the arena kept (`arenas.shown`) with the table the page is at (`table`, or
 * null), at `now`: {shown, title, meta, code, clock, winner, you, caption, rows, empty, games,
 * featured ({text} or null), rules, join, leave, watchFeatured}; shown false without an arena.
 */
export function arenaDialogView(arenas, table, now, format = {}) {
  const a = arenas.shown;
  if (a === null) return { shown: false };
  const open = a.phase !== 'finished';
  const featuredGame = a.featured === null ? null : (a.games.find((g) => g.table === a.featured) ?? { table: a.featured, players: [] });
  // A player in a game of this arena plays it; a spectator already at the top game watches it.
  const busy = table !== null && table.arena?.id === a.id && ((table.you !== null && !table.over) || table.id === a.featured);
  const rows = standingsRows(a);
  return {
    shown: true,
    id: a.id,
    title: a.name,
    meta: [gameLabel(a.game), phaseText(a), playersText(a.players)].join(' · '),
    code: a.private ? a.code : null,
    clock: timeText(a, now, format),
    winner: winnerText(a),
    you: youText(a),
    caption: `Standings of ${a.name}, most points first`,
    rows,
    empty: rows.length === 0 ? 'Nobody has played yet.' : null,
    games: a.games.map((g) => ({ table: g.table, text: gameText(g), featured: g.table === a.featured })),
    featured: featuredGame === null || !open ? null : { text: `Top game: ${gameText(featuredGame)}` },
    rules: rulesText(a),
    join: open && !a.joined,
    leave: open && a.joined,
    watchFeatured: a.phase === 'running' && featuredGame !== null && !busy,
  };
}

/** How the arena is played, in the game's words. */
export function rulesText(a) {
  return (
    `Each game: first to ${matchesText(a.game, a.sprint.sets)}, or ${formatAt(a.sprint.seconds)}. ` +
    'A win is 2 points, a draw 1; after two wins in a row each win counts double (🔥) until the streak breaks.'
  );
}

/** The create form's game choices: the games arenas deal, the one picked in the lobby chosen
 * when it is one of them: [{value, text, selected}]. */
export function arenaGameChoices(picked) {
  const ids = arenaGameIds();
  const chosen = ids.includes(picked) ? picked : ids[0];
  return ids.map((id) => ({ value: id, text: gameInfo(id).title, selected: id === chosen }));
}

/** The create form read: {game, minutes, startsIn} ready for `createArena`, or {problem, field}
 * (the id of the field to fix). */
export function readArenaForm({ game, minutes, startsIn }) {
  if (!arenaGameIds().includes(game)) return { problem: 'Pick a game for the arena.', field: 'arena-game' };
  const m = Number(String(minutes ?? '').trim());
  if (!Number.isInteger(m) || m < ARENA_MINUTES.min || m > ARENA_MINUTES.max) {
    return { problem: `An arena lasts ${ARENA_MINUTES.min} to ${ARENA_MINUTES.max} minutes.`, field: 'arena-minutes' };
  }
  const s = Number(startsIn);
  if (!STARTS_IN_CHOICES.some(([value]) => value === s)) return { problem: 'Pick when the arena starts.', field: 'arena-starts-in' };
  return { game, minutes: m, startsIn: s };
}

/** An arena code as typed, cleaned ("k7q2-m9xw 4p" → "K7Q2M9XW4P"), or null when it cannot be one. */
export function arenaCode(raw) {
  const code = cleanCode(raw);
  return /^[A-Z0-9]{4,16}$/.test(code) ? code : null;
}
