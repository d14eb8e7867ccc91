// Arenas (docs/PROTOCOL.md, "Arenas"): timed events in which everyone plays many short games ("sprints")
// of one game. Pure: the `arenas` list and an `arena` snapshot read and checked, `arenaStandings`
// applied to the arena kept, the list grouped, times and standings in words, and the arena bar
// at an arena's table. What the Arenas tab and the arena dialog show is arena-model.js's; the
// controller's part is control-arenas.js.
//
// Times come twice on the wire; this client counts down from the relative ones (`startsIn`,
// `endsIn`: its own clock may be wrong), kept as deadlines in ms of its clock (`startsAt`,
// `endsAt`: the arrival time plus the seconds), as table-state.js keeps a countdown.
//
// State (controller.arenas) = {open (the Arenas tab shows), status: idle | loading | ready |
//   error, list: [Summary], error (said in place of the list), problem (an arena request refused,
//   in words, or null), shown: Arena | null (the last `arena` snapshot, kept up to date by
//   `arenaStandings`), follow: null | {arena, table} (the featured game followed as a spectator)}
// Summary = {id, name, game, phase, startsAt, endsAt (ms, or null), ends (Unix s, or null),
//   seats, players, private, leader, winner, joined, code (private arenas), featured (a table id;
//   null: none; undefined: not said, as in the list)}
// Arena = Summary + {sprint: {sets, seconds}, standings: [Row], games: [{table, players}], live
//   (its standings come: joined or watched)}
// Row = {rank, name, points, played, won, onFire, left, playing, you}

import { formatAt } from './history.js';
import { matchesText } from './games.js';
import { ordinal } from './daily.js';

export const ARENA_PHASES = Object.freeze(['upcoming', 'running', 'finished']);

/** How often the open Arenas tab asks for the list again. */
export const ARENAS_REFRESH_MS = 15_000;

/** The controller's arenas before anything is asked. */
export function initialArenas() {
  return { open: false, status: 'idle', list: [], error: null, problem: null, shown: null, follow: null };
}

/** The refusals of arena requests, in words (shown wherever errors are: the toast, and the
 * Arenas tab's problem line). */
export const ARENA_ERRORS = Object.freeze({
  unknownArena: 'No arena has that code.',
  alreadyJoined: 'You are already in that arena.',
  arenaOver: 'That arena is over.',
  notInArena: 'You are not in that arena.',
  tooManyGuesses: 'Too many wrong codes: wait a few seconds, then try again.',
  arenaRule: 'The next game comes from the arena.',
});

/** The words of an arena refusal, or null for another code. */
export function arenaErrorText(code) {
  return Object.hasOwn(ARENA_ERRORS, code) ? ARENA_ERRORS[code] : null;
}

const text = (v, fallback = null) => (typeof v === 'string' && v !== '' ? v : fallback);
const count = (v, fallback = 0) => (Number.isInteger(v) && v >= 0 ? v : fallback);
const seconds = (v) => (typeof v === 'number' && Number.isFinite(v) ? v : null);
const deadline = (v, now) => (seconds(v) === null ? null : now + v * 1000);

/** One arena of the `arenas` list (or the base of an `arena` snapshot) received at `now` (ms).
 * Throws TypeError without an id. */
export function readSummary(raw, now) {
  if (raw === null || typeof raw !== 'object' || typeof raw.id !== 'string' || raw.id === '') throw new TypeError('arena.id');
  return {
    id: raw.id,
    name: text(raw.name, raw.id),
    game: text(raw.game),
    phase: ARENA_PHASES.includes(raw.phase) ? raw.phase : 'upcoming',
    startsAt: deadline(raw.startsIn, now),
    endsAt: deadline(raw.endsIn, now),
    ends: seconds(raw.ends),
    seats: count(raw.seats, 2) || 2,
    players: count(raw.players),
    private: raw.private === true,
    leader: text(raw.leader),
    winner: text(raw.winner),
    joined: raw.joined === true,
    code: text(raw.code),
    featured: raw.featured === undefined ? undefined : text(raw.featured),
  };
}

/** The `arenas` answer: its arenas (unreadable ones left out). Throws TypeError without a list. */
export function readArenas(message, now) {
  if (message === null || typeof message !== 'object' || !Array.isArray(message.arenas)) throw new TypeError('arenas');
  return message.arenas.flatMap((raw) => {
    try {
      return [readSummary(raw, now)];
    } catch {
      return [];
    }
  });
}

/** One row of the standings. */
function readRow(raw, i) {
  const r = raw !== null && typeof raw === 'object' ? raw : {};
  return {
    rank: count(r.rank, i + 1) || i + 1,
    name: text(r.name, 'Player'),
    points: Number.isInteger(r.points) ? r.points : 0,
    played: count(r.played),
    won: count(r.won),
    onFire: r.onFire === true,
    left: r.left === true,
    playing: r.playing === true,
    you: r.you === true,
  };
}

const readRows = (rows) => (Array.isArray(rows) ? rows.map(readRow) : []);
const readGames = (games) =>
  (Array.isArray(games) ? games : [])
    .filter((g) => g !== null && typeof g === 'object' && typeof g.table === 'string')
    .map((g) => ({ table: g.table, players: (Array.isArray(g.players) ? g.players : []).filter((p) => typeof p === 'string') }));

/** An `arena` snapshot received at `now`: the arena whole. `joined` is the message's when it
 * says (else the summary's). Throws TypeError when it cannot be read. */
export function readArena(message, now) {
  if (message === null || typeof message !== 'object') throw new TypeError('arena');
  const raw = message.arena;
  const summary = readSummary(raw, now);
  const sprint = raw.sprint !== null && typeof raw.sprint === 'object' ? raw.sprint : {};
  return {
    ...summary,
    joined: typeof message.joined === 'boolean' ? message.joined : summary.joined,
    featured: text(raw.featured),
    sprint: { sets: count(sprint.sets, 5) || 5, seconds: seconds(sprint.seconds) > 0 ? sprint.seconds : 180 },
    standings: readRows(raw.standings),
    games: readGames(raw.games),
    live: false,
  };
}

/** `arenaStandings` applied to the arena kept (another arena's are ignored: the same arena back). */
export function applyStandings(arena, message, now) {
  if (arena === null || message?.arena !== arena.id) return arena;
  const next = { ...arena };
  if (ARENA_PHASES.includes(message.phase)) next.phase = message.phase;
  if (Number.isInteger(message.players) && message.players >= 0) next.players = message.players;
  if (seconds(message.endsIn) !== null) next.endsAt = deadline(message.endsIn, now);
  if (Array.isArray(message.standings)) {
    next.standings = readRows(message.standings);
    next.leader = next.standings[0]?.name ?? next.leader;
  }
  if (Array.isArray(message.games)) next.games = readGames(message.games);
  if ('featured' in message) next.featured = text(message.featured);
  if ('winner' in message) next.winner = text(message.winner);
  return next;
}

/** The list with `arena`'s news (joined, phase, players, leader, winner) in its entry; an arena
 * not listed yet (just created) is added. */
export function withArenaInList(list, arena) {
  const { id, phase, players, leader, winner, joined, code } = arena;
  if (!list.some((a) => a.id === id)) return [...list, { ...arena, standings: undefined, games: undefined }];
  return list.map((a) => (a.id === id ? { ...a, phase, players, leader, winner, joined, code: code ?? a.code } : a));
}

/** A new list with the codes learnt before (the list does not carry them: only an `arena`
 * snapshot does) kept for the private arenas it still holds. */
export function withKnownCodes(list, before, shown = null) {
  const known = new Map([...before, ...(shown === null ? [] : [shown])].filter((a) => a.code !== null).map((a) => [a.id, a.code]));
  return list.map((a) => (a.code === null && a.private && known.has(a.id) ? { ...a, code: known.get(a.id) } : a));
}

/** The list in three groups: running (ending first), upcoming (starting first), past (the latest
 * first). */
export function groupArenas(list) {
  const by = (key, sign) => (a, b) => sign * ((a[key] ?? 0) - (b[key] ?? 0));
  return {
    running: list.filter((a) => a.phase === 'running').sort(by('endsAt', 1)),
    upcoming: list.filter((a) => a.phase === 'upcoming').sort(by('startsAt', 1)),
    past: list.filter((a) => a.phase === 'finished').sort(by('endsAt', -1)),
  };
}

/** Whole seconds until `at` (ms) from `now`, rounded up, never below 0. */
export function secondsUntil(at, now) {
  return at === null ? null : Math.max(0, Math.ceil((at - now) / 1000));
}

/** "4:12" until `at` (ms). */
export function clockUntil(at, now) {
  return formatAt(secondsUntil(at, now) ?? 0);
}

/** The time of day an arena ended, in the reader's locale and time zone (given for tests). */
export function endedAt(arena, { locale, timeZone } = {}) {
  const ms = arena.ends !== null ? arena.ends * 1000 : arena.endsAt;
  if (ms === null) return '';
  return new Intl.DateTimeFormat(locale, { timeStyle: 'short', ...(timeZone === undefined ? {} : { timeZone }) }).format(new Date(ms));
}

/** "starts in 4:12", "ends in 7:30", "last games finishing", "ended 12:05". */
export function timeText(arena, now, format = {}) {
  if (arena.phase === 'upcoming') return arena.startsAt === null || arena.startsAt > now ? `starts in ${clockUntil(arena.startsAt, now)}` : 'starting…';
  if (arena.phase === 'running') return arena.endsAt !== null && arena.endsAt > now ? `ends in ${clockUntil(arena.endsAt, now)}` : 'last games finishing';
  const at = endedAt(arena, format);
  return at === '' ? 'ended' : `ended ${at}`;
}

/** "Upcoming", "Running", "Finished". */
export function phaseText(arena) {
  return { upcoming: 'Upcoming', running: 'Running', finished: 'Finished' }[arena.phase];
}

/** "14 players". */
export function playersText(n) {
  return `${n} ${n === 1 ? 'player' : 'players'}`;
}

/** "6 points", "1 point". */
export function pointsText(n) {
  return `${n} ${n === 1 ? 'point' : 'points'}`;
}

/** "Ann wins the arena" once it is over ("Nobody played: no winner"); '' before. */
export function winnerText(arena) {
  if (arena.phase !== 'finished') return '';
  return arena.winner === null ? 'Nobody played: no winner' : `${arena.winner} wins the arena`;
}

/** The player's own row, or null (not in the standings). */
export function myRow(arena) {
  return arena?.standings?.find((r) => r.you) ?? null;
}

/** "You: 2nd · 6 points" ('' without a row of mine): the one line whose change is announced. */
export function youText(arena) {
  const me = myRow(arena);
  return me === null ? '' : `You: ${ordinal(me.rank)} · ${pointsText(me.points)}`;
}

/** The standings as the table shows them. */
export function standingsRows(arena) {
  return (arena?.standings ?? []).map((r) => ({
    ...r,
    rankText: String(r.rank),
    pointsText: String(r.points),
    fire: r.onFire ? 'on a streak: wins count double' : '',
  }));
}

/** A snapshot's `arena` (an arena's table: {id, name, sets, endsIn}) received at `now`, with the
 * sprint's end as a deadline (`endsAt`, ms); null at another table. */
export function readTableArena(raw, now) {
  if (raw === null || typeof raw !== 'object' || typeof raw.id !== 'string' || raw.id === '') return null;
  return { id: raw.id, name: text(raw.name, raw.id), sets: count(raw.sets, 5) || 5, endsAt: deadline(raw.endsIn, now) };
}

/**
 * The arena bar at an arena's table (`table.arena`), with the arenas state (its arena kept,
 * the featured game followed): {main ("Arena: Set arena · first to 5 sets · 2:41 left", or
 * "Featured game of Set arena — follows the leader · 2:41 left"), you ("you: 6 pts, 2nd" or ''),
 * seated, following, next (at game over: what comes now)}; null at another table.
 */
export function arenaBar(table, arenas, now) {
  const a = table?.arena ?? null;
  if (a === null) return null;
  const kept = arenas?.shown?.id === a.id ? arenas.shown : null;
  const following = table.you === null && arenas?.follow?.table === table.id;
  const left = table.over || a.endsAt === null ? null : `${clockUntil(a.endsAt, now)} left`;
  const head = following ? [`Featured game of ${a.name} — follows the leader`] : [`Arena: ${a.name}`, `first to ${matchesText(table.game, a.sets)}`];
  const me = table.you === null ? null : myRow(kept);
  return {
    main: [...head, left].filter((p) => p !== null).join(' · '),
    you: me === null ? '' : `you: ${me.points} ${me.points === 1 ? 'pt' : 'pts'}, ${ordinal(me.rank)}`,
    seated: table.you !== null,
    following,
    next: table.over ? nextText(kept, now, following) : '',
  };
}

/** At an arena table's game over: the next game comes, unless the arena is over. */
function nextText(kept, now, following) {
  if (kept?.phase === 'finished') return `The arena is over. ${winnerText(kept)}.`;
  if (kept !== null && kept.endsAt !== null && kept.endsAt <= now) return 'The arena’s time is up: the last games are finishing.';
  return following ? 'Next featured game in a moment…' : 'Next game in a moment…';
}
