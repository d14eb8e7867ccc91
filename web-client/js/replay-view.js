// DOM: the replay of a finished game (controller.replay, as replay.js replayView says to show
// it): a read-only board, the step's status line and scores, the step controls, Export's file.
// Clicks become controller events through `dispatch`.

import { selectionsByCard } from './table-state.js';
import { replayChat, replayView } from './replay.js';
import { boardShape, gameInfo, matchesHeading } from './games.js';
import { renderStatus } from './status-view.js';
import { BoardView } from './board-view.js';
import { ChainView } from './chain-view.js';
import { readPalette } from './card-view.js';
import { renderReplayScoreboard } from './scoreboard-view.js';
import { byId, part } from './dom.js';
import { lookBackView } from './look-back.js';
import { renderLookBack } from './look-back-view.js';
import { replayRatingsText } from './ratings.js';

export class ReplayView {
  constructor({ controller, dispatch }) {
    this.controller = controller;
    this.dispatch = dispatch;
    this.el = byId([
      'replay', 'replay-title', 'replay-meta', 'replay-ratings', 'replay-export', 'replay-back', 'replay-message', 'replay-scoreboard',
      'replay-status', 'replay-board-area', 'replay-board', 'replay-chain-area', 'replay-chain', 'replay-chain-empty', 'replay-first', 'replay-prev', 'replay-prev-set', 'replay-next-set', 'replay-slider', 'replay-next',
      'replay-last', 'replay-step', 'replay-time', 'replay-look-back', 'replay-look-back-body', 'replay-chat', 'replay-chat-lines',
    ]);
    this.board = new BoardView(this.el['replay-board'], this.el['replay-board-area'], { palette: readPalette(), readOnly: true });
    // Set-Chain's chain at this step, shown like the table's (nothing can be chosen).
    this.chain = new ChainView(this.el['replay-chain-area'], this.el['replay-chain'], this.el['replay-chain-empty'], {
      palette: this.board.palette,
    });
    /** The runs last drawn in the replay's status line. */
    this.drawnStatus = null;
    this.wire();
  }

  wire() {
    const { el, dispatch } = this;
    el['replay-back'].addEventListener('click', () => dispatch({ type: 'closeReplay' }));
    el['replay-export'].addEventListener('click', () => dispatch({ type: 'replayExport' }));
    for (const how of ['first', 'prev', 'next', 'last']) {
      el[`replay-${how}`].addEventListener('click', () => dispatch({ type: 'replayStep', how }));
    }
    for (const [id, how] of [['replay-prev-set', 'prevSet'], ['replay-next-set', 'nextSet']]) {
      el[id].addEventListener('click', () => dispatch({ type: 'replayStep', how }));
    }
    el['replay-slider'].addEventListener('input', () => dispatch({ type: 'replayStep', how: Number(el['replay-slider'].value) }));
  }

  /** Whether the replay is the screen shown. */
  get shown() {
    return !this.el.replay.hidden;
  }

  /** The screen is shown: fit the board, and the keyboard goes to "Back" the first time. */
  show(wasShown) {
    if (wasShown) return;
    requestAnimationFrame(() => this.board.layout());
    this.el['replay-back'].focus({ preventScroll: true });
  }

  /** The step of the replay shown: its board (read-only), status line, scores, and where it is in the game. */
  render() {
    const replay = this.controller.replay;
    if (replay === null) return;
    const { el } = this;
    const view = replayView(replay);
    el.replay.dataset.status = replay.status;
    el['replay-message'].textContent = view.message;
    el['replay-message'].hidden = view.message === '';
    el['replay-title'].textContent = view.title;
    el['replay-meta'].textContent = view.meta;
    el['replay-step'].textContent = view.step;
    el['replay-time'].textContent = view.time;
    for (const id of ['replay-scoreboard', 'replay-status', 'replay-board-area']) el[id].hidden = !view.ready;
    el['replay-export'].disabled = !view.ready;
    el['replay-slider'].disabled = !view.ready;
    el['replay-first'].disabled = !view.canBack;
    el['replay-prev'].disabled = !view.canBack;
    el['replay-next'].disabled = !view.canForward;
    el['replay-last'].disabled = !view.canForward;
    el['replay-prev-set'].disabled = !view.canBackSet;
    el['replay-next-set'].disabled = !view.canForwardSet;
    // The game's word for a match: "Next UltraSet", "Previous pair".
    for (const [id, words] of [['replay-prev-set', 'Previous'], ['replay-next-set', 'Next']]) {
      const label = `${words} ${view.matchWord}`;
      el[id].setAttribute('aria-label', label);
      el[id].title = `${label} (${words === 'Next' ? 'Page Down' : 'Page Up'})`;
    }
    // A step button that has just been disabled (the first or last move) hands the keyboard to the slider.
    if (document.activeElement?.matches?.('#replay button.step:disabled')) el['replay-slider'].focus();
    if (!view.ready) {
      el['replay-chain-area'].hidden = true;
      el['replay-ratings'].hidden = true;
      el['replay-look-back'].hidden = true;
      el['replay-chat'].hidden = true;
      return;
    }
    // What was said up to this step, as text.
    const said = replayChat(replay.data, view.index);
    el['replay-chat'].hidden = said.length === 0;
    el['replay-chat-lines'].replaceChildren(
      ...said.map((line) => {
        const li = document.createElement('li');
        li.append(part('at', line.at), ' ', part('name', line.name));
        if (line.who !== '') li.append(' ', part('who', line.who));
        li.append(' ', part('text', line.text));
        return li;
      }),
    );
    const record = replay.data.record;
    const rated = replayRatingsText(record.players);
    el['replay-ratings'].hidden = rated === '';
    el['replay-ratings'].textContent = rated;
    const names = new Map((Array.isArray(record.players) ? record.players : []).map((p) => [p.seat, p.name]));
    renderLookBack(el['replay-look-back'], el['replay-look-back-body'], lookBackView(replay.data.lookBack, { game: record.game, names }), {
      matchesHeading: matchesHeading(record.game),
    });
    const table = view.table;
    this.board.setShape(boardShape(table.game, table.settings, table.board.length));
    this.board.render(table.board, [], { disabled: true, selectedBy: selectionsByCard(table), mySeat: null });
    this.chain.render(table.chain ?? null, [], { disabled: true, texts: gameInfo(table.game).texts });
    if (table.status !== this.drawnStatus) {
      this.drawnStatus = table.status;
      renderStatus(el['replay-status'], table.status);
    }
    renderReplayScoreboard(el['replay-scoreboard'], table);
    const slider = el['replay-slider'];
    slider.max = String(view.last);
    slider.value = String(view.index);
    slider.setAttribute('aria-valuetext', view.sliderText);
  }
}

/** Save a file the controller made (Export): a link to it, clicked. */
export function download({ name, text, mime }) {
  const url = URL.createObjectURL(new Blob([text], { type: mime }));
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  link.hidden = true;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}
