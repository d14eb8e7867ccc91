// Seats at a multiplayer table: each seat's colour, and the short texts the table view shows
// about seats, phases and votes. Pure.
//
// Colours: seat n is drawn in the CSS custom property `--seat-<n>` (css/app.css; SEAT_COLORS are
// the same values, for tests and for anything drawn outside CSS). They are chosen to be told
// apart from each other and from the three Set colours (red, green, purple) on the cards, from my
// own selection's yellow and from the hint's blue.

/** How many seats a table can have. */
export const MAX_SEATS = 8;

/** The seat colours, seat 0 first (the defaults of --seat-0 … --seat-7). */
export const SEAT_COLORS = Object.freeze([
  '#1e63d6', // blue
  '#f07800', // orange
  '#009e9e', // teal
  '#e040b8', // pink
  '#8a5a2b', // brown
  '#9cc200', // lime
  '#222831', // charcoal
  '#8e99a6', // steel
]);

/** The colour index of a seat: its number, wrapping after MAX_SEATS. */
/** Whether leaving `table` (a client table, or null) throws away a game in progress: a seated
 * player, play under way and not over. Then the Leave button asks first. */
export function leaveNeedsConfirmation(table) {
  return table !== null && table.you !== null && table.phase === 'playing' && !table.over;
}

/** What leaving a game in progress at `table` does, in the leave dialog's words: a solo game
 * ends with its player, an arena's game is lost, a seat at another table goes to whoever comes. */
export function leaveWarning(table) {
  if (table?.arena) return 'The game is still being played. If you leave, you lose it (you stay in the arena).';
  if (table?.seats === 1) return 'The game is still being played. If you leave, it ends: a solo game closes when its player leaves.';
  return 'The game is still being played. If you leave, your seat goes to the next player who joins.';
}

/** Whether the table's header offers its invite code and link: only where others can sit (a
 * solo table has nobody to invite). */
export function showsInvite(table) {
  return table !== null && table.code !== null && table.seats !== 1;
}

export function seatColorIndex(seat) {
  const n = Math.trunc(Number(seat));
  if (!Number.isFinite(n) || n < 0) return 0;
  return n % MAX_SEATS;
}

/** The CSS custom property that holds a seat's colour: "--seat-3". */
export function seatColorVar(seat) {
  return `--seat-${seatColorIndex(seat)}`;
}

/** A seat's colour as a hex value. */
export function seatColor(seat) {
  return SEAT_COLORS[seatColorIndex(seat)];
}

/** The phase line: "Waiting for players (2/4)", "Starting in 3…", "Playing", "Game over". */
export function phaseText(table, secondsToStart) {
  switch (table.phase) {
    case 'waiting':
      return `Waiting for players (${table.players.length}/${table.seats})`;
    case 'countdown':
      return startingText(secondsToStart ?? table.countdown ?? 0);
    case 'finished':
      return 'Game over';
    default:
      return 'Playing';
  }
}

/** The countdown before a game: "Starting in 3…". */
export function startingText(seconds) {
  return `Starting in ${Math.max(0, seconds)}…`;
}

/** A disconnected player's marker: "reconnecting… 27s" (without a number when unknown). */
export function awayText(seconds) {
  return seconds === null || seconds === undefined ? 'reconnecting…' : `reconnecting… ${seconds}s`;
}

/** The vote state: "2 of 3 votes" (empty when no vote is open). */
export function voteLabel(vote) {
  if (vote === null || vote === undefined || !Array.isArray(vote.seats) || vote.seats.length === 0) return '';
  const n = vote.seats.length;
  return `${n} of ${vote.needed} ${vote.needed === 1 ? 'vote' : 'votes'}`;
}

/** What the re-deal button says: the host (or a solo player) re-deals; anyone else votes. */
export function redealLabel({ host, voted }) {
  if (host) return 'Re-deal';
  return voted ? 'Voted to re-deal' : 'Vote to re-deal';
}

/** How many are watching: "1 watching", "3 watching", "" for nobody. */
export function spectatorsText(count) {
  return count > 0 ? `${count} watching` : '';
}
