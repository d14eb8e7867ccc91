// DOM: the table screen — the board (board-view.js, with Concentration's held faces), my
// numbers, the header (invite, spectators), the buttons, the clocks that count down, the status
// line, the scoreboard, the game-over box, the history view, pinch zoom, a match's flash and
// points, and at an arena's table its bar (arena-bar-view.js).
// What to show is table-model.js's; this file puts it on the page.

import { mySelection, selectionsByCard } from './table-state.js';
import { shareLink } from './route.js';
import { boardShape, gameInfo, matchesHeading } from './games.js';
import { gameSummary } from './history.js';
import { matchPop } from './feedback.js';
import { shownBoard } from './face-hold.js';
import { clockModel, tableModel, takesKeyboard } from './table-model.js';
import { renderAway, renderScoreboard } from './scoreboard-view.js';
import { renderStatus } from './status-view.js';
import { BoardView } from './board-view.js';
import { ChainView } from './chain-view.js';
import { HistoryView } from './history-view.js';
import { PinchZoom } from './pinch.js';
import { readPalette } from './card-view.js';
import { byId, part, setOptions } from './dom.js';
import { lookBackView, readLookBack } from './look-back.js';
import { renderLookBack } from './look-back-view.js';
import { standingsRatings } from './ratings.js';
import { standingRating } from './ratings-view.js';
import { levelChoices, pickedLevel } from './bots.js';
import { ArenaBarView } from './arena-bar-view.js';

const TICK_MS = 250;
const POP_MS = 1100;

export class TableView {
  /** `dialogOpen()` says whether a dialog has the keyboard (a starting game then does not take it). */
  constructor({ controller, dispatch, dialogOpen }) {
    this.controller = controller;
    this.dialogOpen = dialogOpen;
    this.el = byId([
      'table', 'phase', 'invite', 'table-code', 'share-link', 'spectators', 'spectating', 'scoreboard', 'stat-score',
      'stat-matches', 'stat-matches-label', 'score', 'matches', 'deck', 'stat-deck', 'stat-flips', 'flips', 'vote', 'start',
      'computer-offer', 'offer-level', 'add-computer',
      'status', 'unsupported', 'board', 'board-area', 'chain-area', 'chain', 'chain-empty', 'waiting', 'waiting-text', 'waiting-help', 'waiting-invite', 'waiting-code',
      'countdown', 'hint', 'redeal', 'gameover', 'gameover-time', 'gameover-vote', 'standings', 'play-again',
      'look-back', 'look-back-body',
      'table-settings-text', 'turn', 'turn-text', 'turn-clock', 'turn-bar-fill', 'leave', 'back-to-lobby',
    ]);
    const { el } = this;
    el.redeal.addEventListener('click', () => dispatch({ type: 'askRedeal' }));
    el['play-again'].addEventListener('click', () => dispatch({ type: 'redeal' }));
    el.start.addEventListener('click', () => dispatch({ type: 'start' }));
    el['add-computer'].addEventListener('click', () =>
      dispatch({ type: 'addComputer', level: pickedLevel(el['offer-level'].value) }),
    );
    el.hint.addEventListener('click', () => dispatch({ type: 'hint' }));
    el['back-to-lobby'].addEventListener('click', () => dispatch({ type: 'leave' }));
    el.leave.addEventListener('click', () => dispatch({ type: 'askLeave' }));
    this.arenaBar = new ArenaBarView({ controller, dispatch });
    this.board = new BoardView(el.board, el['board-area'], {
      onChoose: (card) => dispatch({ type: 'choose', card }),
      palette: readPalette(),
    });
    this.chain = new ChainView(el['chain-area'], el.chain, el['chain-empty'], {
      onChoose: (card) => dispatch({ type: 'choose', card }),
      palette: this.board.palette,
    });
    this.zoom = new PinchZoom(el['board-area'], el.board, document.getElementById('zoom-reset'));
    this.history = new HistoryView({
      controller,
      onHide: () => requestAnimationFrame(() => this.board.layout()),
      onShow: () => dispatch({ type: 'historyShown' }),
    });
    this.tickTimer = null;
    /** The runs array last drawn, to skip redrawing an unchanged line. */
    this.drawnStatus = null;
    /** The phase last drawn, to notice a game starting. */
    this.drawnPhase = null;
    /** measureMatches → showMatches: where the matched cards were. */
    this.measured = [];
  }

  /** Whether the table is the screen shown. */
  get shown() {
    return !this.el.table.hidden;
  }

  render() {
    const state = this.controller.state;
    const table = state.table;
    if (table === null) return;
    const { el } = this;
    const m = tableModel(state);
    // The table's landmark is named for its game ("Matchismo table"), not always Set's.
    el.table.setAttribute('aria-label', m.landmark);
    this.board.setShape(boardShape(table.game, table.settings, table.board.length));
    this.board.render(shownBoard(table.board, this.controller.held, Date.now()), mySelection(state), {
      disabled: m.boardDisabled,
      selectedBy: selectionsByCard(table),
      mySeat: table.you,
    });
    this.chain.render(table.chain ?? null, mySelection(state), { disabled: m.boardDisabled, texts: m.chainTexts });
    el.unsupported.hidden = m.unsupported === null;
    el.unsupported.textContent = m.unsupported ?? '';
    el.score.textContent = m.score;
    el.matches.textContent = m.matches;
    el.deck.textContent = m.deck;
    el['stat-flips'].hidden = m.flipsHidden;
    el.flips.textContent = m.flips;
    el['stat-deck'].hidden = m.deckHidden;
    el['table-settings-text'].textContent = m.settingsText;
    el.table.classList.toggle('not-my-turn', m.notMyTurn);
    el['stat-score'].hidden = m.spectator;
    el['stat-matches'].hidden = m.spectator;
    el.table.dataset.phase = table.phase;
    el.table.classList.toggle('watching', m.spectator);
    el.spectating.hidden = !m.spectator;

    // Header: invite code and share link, spectators.
    el.invite.hidden = m.inviteHidden;
    if (table.code !== null) {
      el['table-code'].textContent = table.code;
      el['share-link'].href = shareLink(window.location, table.code, table.game);
    }
    el.spectators.textContent = m.spectators;
    el.spectators.dataset.count = String(table.spectators);
    el.spectators.hidden = table.spectators === 0;

    // Actions.
    el.start.hidden = m.startHidden;
    this.renderOffer(table, m.offerHidden);
    el.hint.hidden = m.hintHidden;
    el.hint.title = m.hintTitle;
    el['stat-matches-label'].textContent = m.matchesHeading;
    el.hint.disabled = m.hintDisabled;
    el.redeal.hidden = m.redealHidden;
    el.redeal.textContent = m.redealText;
    el.redeal.disabled = m.redealDisabled;
    el.vote.textContent = m.vote;
    el.vote.hidden = m.vote === '';
    el['play-again'].hidden = m.playAgainHidden;
    el['play-again'].textContent = m.playAgainText;
    el['play-again'].disabled = m.playAgainDisabled;
    el['gameover-vote'].textContent = m.gameoverVote;
    el['gameover-vote'].hidden = m.gameoverVote === '';

    renderScoreboard(el.scoreboard, table);
    this.renderClock();
    if (table.status !== this.drawnStatus) {
      this.drawnStatus = table.status;
      renderStatus(el.status, table.status);
    }
    this.renderGameOver(table, m.gameOver);
    this.history.render();
    if (m.ticking) this.startTicking();
    else this.stopTicking();
    if (takesKeyboard(state, this.drawnPhase, this.dialogOpen())) this.board.focusFirst();
    this.drawnPhase = table.phase;
  }

  /** Everything that shows a running clock: the phase line, the countdown, the turn, "reconnecting… Ns". */
  /** The offer of a computer player to the host waiting alone: its levels in the game's words
   * (the level chosen stays while it shows). */
  renderOffer(table, hidden) {
    const { el } = this;
    el['computer-offer'].hidden = hidden;
    if (hidden) return;
    const select = el['offer-level'];
    const chosen = pickedLevel(select.value);
    setOptions(select, levelChoices(gameInfo(table.game)));
    select.value = chosen;
  }

  renderClock() {
    const state = this.controller.state;
    if (state.table === null) return;
    const { el } = this;
    const c = clockModel(state, Date.now());
    el.phase.textContent = c.phase;
    el.phase.dataset.phase = state.table.phase;
    el.countdown.hidden = c.countdown === null;
    if (c.countdown !== null) el.countdown.textContent = c.countdown;
    el.waiting.hidden = c.waiting === null;
    if (c.waiting !== null) {
      el['waiting-text'].textContent = c.waiting.text;
      el['waiting-help'].textContent = c.waiting.help;
      el['waiting-invite'].hidden = c.waiting.inviteHidden;
      el['waiting-code'].textContent = c.waiting.code;
    }
    el.turn.hidden = c.turn === null;
    if (c.turn !== null) {
      el['turn-text'].textContent = c.turn.text;
      el.turn.dataset.mine = String(c.turn.mine);
      el.turn.dataset.seat = String(c.turn.seat);
      el['turn-clock'].textContent = c.turn.clock;
      el.turn.dataset.clock = c.turn.clockOn ? 'on' : 'off';
      el['turn-bar-fill'].style.transform = `scaleX(${c.turn.fraction})`;
    }
    renderAway(el.scoreboard, c.away);
    this.arenaBar.render();
  }

  renderGameOver(table, over) {
    const { el } = this;
    const wasHidden = el.gameover.hidden;
    el.gameover.hidden = !over;
    if (!over) {
      el['gameover-time'].textContent = '';
      return;
    }
    const since = this.controller.playingSince;
    const summary = gameSummary({
      game: table.game,
      standings: table.standings,
      history: table.history,
      you: table.you,
      elapsedSeconds: since === null ? null : (Date.now() - since) / 1000,
    });
    // The time played is fixed once shown (the client's clock would keep running).
    if (wasHidden || el['gameover-time'].textContent === '') el['gameover-time'].textContent = summary.timeText;
    const ratings = standingsRatings(table);
    el.standings.replaceChildren(
      ...summary.rows.map((s) => {
        const li = document.createElement('li');
        li.dataset.seat = String(s.seat);
        li.dataset.matches = String(s.matches);
        if (s.mistakes !== null) li.dataset.mistakes = String(s.mistakes);
        if (s.you) li.classList.add('you');
        li.append(part('rank', `${s.rank}.`), part('name', String(s.name ?? '')), part('score', `${s.score} points`), part('detail', s.detail));
        // Once the new ratings are in: the rating now and what this game did to it.
        const rated = ratings.get(s.seat);
        if (rated !== undefined) li.append(standingRating(rated));
        return li;
      }),
    );
    // Who sat there, by seat: the standings name everyone ranked, the players those still seated.
    const names = new Map([...table.players, ...(table.standings ?? [])].map((p) => [p.seat, p.name]));
    const lookBack = lookBackView(readLookBack(table.lookBack ?? null), {
      game: table.game,
      names,
      you: table.you,
      daily: table.dailyCompare ?? null,
    });
    renderLookBack(el['look-back'], el['look-back-body'], lookBack, { matchesHeading: matchesHeading(table.game) });
    if (wasHidden && !el['play-again'].hidden) el['play-again'].focus();
  }

  startTicking() {
    if (this.tickTimer === null) this.tickTimer = setInterval(() => this.renderClock(), TICK_MS);
  }

  stopTicking() {
    if (this.tickTimer !== null) clearInterval(this.tickTimer);
    this.tickTimer = null;
  }

  /** The screen is shown: fit the board. */
  show() {
    requestAnimationFrame(() => this.board.layout());
  }

  /** A different table: the history view closes. */
  tableChanged() {
    this.history.show(false);
  }

  /** No table any more: the history view closes, the zoom goes, the clocks stop, the next game
   * is noticed. */
  leftTable() {
    this.history.show(false);
    this.zoom.zoom(1);
    this.drawnPhase = null;
    this.stopTicking();
  }

  /** Before drawing: where these matched cards are on the board (slots and screen boxes). */
  measureMatches(table, matches) {
    this.measured = matches.map(({ cards, points }) => {
      const slots = cards.map((id) => table.board.findIndex((c) => c.id === id)).filter((i) => i >= 0);
      const rects = slots.map((i) => this.el.board.children[i]?.getBoundingClientRect()).filter(Boolean);
      return { slots, rects, points };
    });
  }

  /** After drawing: the cards now in those slots flash, and the points rise from where they were. */
  showMatches() {
    for (const { slots, rects, points } of this.measured) this.showMatch(slots, rects, points);
    this.measured = [];
  }

  showMatch(slots, rects, points) {
    const { el } = this;
    const ids = slots.map((i) => Number(el.board.children[i]?.dataset.cardId)).filter(Number.isInteger);
    this.board.flash(ids, 'found', 700);
    const text = matchPop(points);
    if (text === null || rects.length === 0) return;
    const area = el['board-area'].getBoundingClientRect();
    const x = rects.reduce((sum, r) => sum + r.left + r.width / 2, 0) / rects.length - area.left + el['board-area'].scrollLeft;
    const y = rects.reduce((sum, r) => sum + r.top + r.height / 2, 0) / rects.length - area.top + el['board-area'].scrollTop;
    const pop = part('points-pop', text);
    pop.setAttribute('aria-hidden', 'true');
    pop.style.left = `${x}px`;
    pop.style.top = `${y}px`;
    el['board-area'].append(pop);
    setTimeout(() => pop.remove(), POP_MS);
  }
}
