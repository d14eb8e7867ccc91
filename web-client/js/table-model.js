// Pure: what the table screen shows, as data (table-view.js and scoreboard-view.js only put it on
// the page): my numbers, which buttons show and what they say, the scoreboard's rows, and the
// parts that count down (the phase line, the countdown, the turn clock, "reconnecting… 27s").

import { isHost, isSpectator, mayChoose, myPlayer, secondsLeft } from './table-state.js';
import { awayText, phaseText, redealLabel, showsInvite, spectatorsText, startingText, voteLabel } from './seats.js';
import { gameInfo, matchesHeading, matchesText, unsupportedText } from './games.js';
import { settingsText } from './table-settings.js';
import { playAgainText } from './history.js';
import { clockText, turnFraction, turnSecondsLeft, turnText } from './turns.js';
import { shownRating } from './ratings.js';

/** The table screen of `state` (a table is shown) apart from its clocks (clockModel). */
export function tableModel(state) {
  const table = state.table;
  const spectator = isSpectator(state);
  const solo = table.seats === 1;
  const me = myPlayer(state);
  const faceDown = table.settings?.faceDown === true || me?.flips !== undefined;
  const live = table.phase === 'playing' || table.phase === 'finished';
  const voted = table.vote !== null && table.you !== null && table.vote.seats.includes(table.you);
  const vote = voteLabel(table.vote);
  const gameoverVote = solo ? '' : playAgainText(table.vote);
  const gameOver = table.over && Array.isArray(table.standings);
  const info = gameInfo(table.game);
  // At an arena's table the next game is the arena's: no re-deal, no playing again.
  const arena = table.arena != null;
  // The daily puzzle is one deal, played once and without help: nothing offered is refused.
  const daily = table.daily != null;
  return {
    // Concentration is turn-based: the board waits while another seat has the turn.
    boardDisabled: !mayChoose(state),
    notMyTurn: Number.isInteger(table.turn) && table.turn !== table.you && !spectator,
    spectator,
    score: String(me?.score ?? 0),
    matches: String(me?.matches ?? 0),
    matchesHeading: matchesHeading(table.game),
    landmark: `${info.title} table`,
    deck: String(table.deckCount),
    deckHidden: faceDown && table.deckCount === 0,
    flips: String(me?.flips ?? 0),
    flipsHidden: spectator || me?.flips === undefined,
    settingsText: settingsText(table.game, table.settings, table.turnSeconds),
    // An arena pairs its players: nobody is invited to its tables.
    inviteHidden: !showsInvite(table) || arena,
    spectators: spectatorsText(table.spectators),
    startHidden: !(table.phase === 'waiting' && isHost(state)),
    // A computer player offered to the host waiting alone (PROTOCOL.md, `computerOffer`).
    offerHidden: !(table.computerOffer && table.phase === 'waiting' && isHost(state)),
    // Hints: alone, where the game offers them (the server refuses them elsewhere).
    hintHidden: !solo || spectator || !info.hints || daily,
    hintTitle: `Show one card of ${info.a}`,
    chainTexts: info.texts,
    // A game this page was not told of: said so, never drawn as another game.
    unsupported: unsupportedText(table.game),
    hintDisabled: table.over || table.phase !== 'playing',
    // Re-deal is a vote at every multiplayer table (the host's too); alone it is at will. Once
    // the game is over, the game-over box's "play again" is that button (issue 21: both showed).
    redealHidden: spectator || !live || gameOver || arena || daily,
    redealText: redealLabel({ host: solo, voted }),
    redealDisabled: !solo && voted,
    vote,
    playAgainHidden: spectator || arena || daily,
    playAgainText: solo ? 'Play again' : voted ? 'Voted to play again' : 'Vote to play again',
    playAgainDisabled: !solo && voted,
    gameoverVote,
    gameOver,
    ticking:
      table.countdownUntil !== null || table.turnUntil !== null || table.players.some((p) => p.awayUntil !== null) || (arena && !table.over),
  };
}

/** Whether the board takes the keyboard now: a game that starts (or that we arrive at while it
 * runs; `drawnPhase` is the phase drawn before), for a player, unless a dialog has it. */
export function takesKeyboard(state, drawnPhase, dialogOpen) {
  return state.table.phase === 'playing' && drawnPhase !== 'playing' && !isSpectator(state) && !dialogOpen;
}

/** What counts down at `now` (ms): the phase line, the countdown, the waiting box, whose turn and
 * its clock (turn: null when none is shown), and each seat's "reconnecting… 27s" (seat → text). */
export function clockModel(state, now) {
  const table = state.table;
  const toStart = secondsLeft(table.countdownUntil, now);
  const text = table.phase === 'playing' ? turnText(table) : '';
  const left = text === '' ? null : turnSecondsLeft(table, now);
  return {
    phase: phaseText(table, toStart),
    countdown: table.phase === 'countdown' ? startingText(toStart ?? 0) : null,
    waiting:
      table.phase !== 'waiting'
        ? null
        : {
            text: phaseText(table, null),
            help: isHost(state)
              ? 'Share the invite code or link, then start — or wait until every seat is taken.'
              : 'The game starts when the host says so, or when every seat is taken.',
            inviteHidden: !showsInvite(table) || table.arena != null,
            code: table.code ?? '',
          },
    turn:
      text === ''
        ? null
        : {
            text,
            mine: table.turn === table.you,
            seat: table.turn,
            clock: clockText(left),
            clockOn: left !== null,
            fraction: turnFraction(table, now) ?? 1,
          },
    away: new Map(table.players.map((p) => [p.seat, p.connected ? '' : awayText(secondsLeft(p.awayUntil, now))])),
  };
}

/** "3 sets", or at a face-down table "2 pairs · 7 flips". */
export function seatDetail(game, player) {
  const flips = player.flips === undefined ? '' : ` · ${player.flips} ${player.flips === 1 ? 'flip' : 'flips'}`;
  return matchesText(game, player.matches) + flips;
}

/** The scoreboard: one row per occupied seat, the open seats' line ('' when none), and whether it
 * is hidden (a solo table). */
export function scoreboardModel(table) {
  const open = Math.max(0, table.seats - table.players.length);
  return {
    rows: table.players.map((p) => ({
      seat: p.seat,
      name: p.name,
      // The rating beside the name (null: none shown).
      rating: shownRating(p.rating),
      score: String(p.score),
      detail: seatDetail(table.game, p),
      host: p.seat === table.host,
      you: p.seat === table.you,
      // A computer's level (null: a person).
      bot: p.bot ?? null,
      away: !p.connected,
      turn: table.turn === p.seat,
      connected: p.connected,
    })),
    openSeats: open > 0 ? `${open} open ${open === 1 ? 'seat' : 'seats'}` : '',
    hidden: table.seats === 1 && table.players.length <= 1,
  };
}

/** The replay's scoreboard at one step: each player, and whose turn it is while the game runs. */
export function replayScoreboard(table) {
  return table.players.map((p) => ({
    seat: p.seat,
    name: p.name,
    score: String(p.score),
    detail: seatDetail(table.game, p),
    turn: table.turn === p.seat && !table.over,
  }));
}
