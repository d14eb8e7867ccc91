// DOM: the chat panels (controller.chat, as chat.js chatView says to show them): the table's, in
// place of the board like the history, with its Chat button and unread count; and the lobby's,
// under the live tables. Every line is text (textContent), never markup. Typing becomes
// controller events through `dispatch`.

import { chatView } from './chat.js';
import { isSpectator } from './table-state.js';
import { byId, part } from './dom.js';

export class ChatView {
  constructor({ controller, dispatch }) {
    this.controller = controller;
    this.dispatch = dispatch;
    this.el = byId([
      'table', 'chat-button', 'chat-unread', 'chat-view', 'chat-back', 'chat-lines', 'chat-empty', 'chat-form',
      'chat-input', 'chat-problem', 'chat-hide-field', 'chat-hide', 'chat-muted', 'lobby-chat-lines', 'lobby-chat-form',
      'lobby-chat-input', 'lobby-chat-problem',
    ]);
    this.wire();
  }

  wire() {
    const { el, dispatch } = this;
    el['chat-button'].addEventListener('click', () => dispatch({ type: 'chatOpen', open: !this.controller.chat.open }));
    el['chat-back'].addEventListener('click', () => dispatch({ type: 'chatOpen', open: false }));
    const send = (where) => (event) => {
      event.preventDefault();
      dispatch({ type: 'chatSend', where, text: el[where === 'lobby' ? 'lobby-chat-input' : 'chat-input'].value });
    };
    el['chat-form'].addEventListener('submit', send('table'));
    el['lobby-chat-form'].addEventListener('submit', send('lobby'));
    el['chat-hide'].addEventListener('change', () => dispatch({ type: 'chatHideSpectators', hide: el['chat-hide'].checked }));
    for (const list of [el['chat-lines'], el['lobby-chat-lines'], el['chat-muted']]) {
      list.addEventListener('click', (event) => {
        const button = event.target.closest?.('button[data-mute]');
        if (button) dispatch({ type: 'chatMute', name: button.dataset.mute, muted: button.dataset.muted !== 'true' });
      });
    }
  }

  /** After a line went: the input it was typed in is emptied. */
  clearInput(where) {
    this.el[where === 'lobby' ? 'lobby-chat-input' : 'chat-input'].value = '';
  }

  render() {
    const { el } = this;
    const chat = this.controller.chat;
    const state = this.controller.state;
    const spectator = state.table !== null && isSpectator(state);
    const table = chatView(chat, { place: 'table', spectator, myName: this.controller.helloName });
    const lobby = chatView(chat, { place: 'lobby', myName: this.controller.helloName });
    // The table's panel, in place of the board.
    const open = chat.open && state.table !== null;
    const wasOpen = !el['chat-view'].hidden;
    el['chat-view'].hidden = !open;
    el.table.classList.toggle('showing-chat', open);
    el['chat-button'].setAttribute('aria-pressed', String(open));
    el['chat-unread'].textContent = table.unread;
    el['chat-unread'].hidden = table.unread === '';
    drawLines(el['chat-lines'], table.lines);
    el['chat-empty'].hidden = table.lines.length > 0;
    el['chat-hide-field'].hidden = table.hideSpectators === null;
    el['chat-hide'].checked = table.hideSpectators === true;
    el['chat-problem'].textContent = table.problem ?? '';
    el['chat-problem'].hidden = table.problem === null || !open;
    el['lobby-chat-problem'].textContent = lobby.problem ?? '';
    el['lobby-chat-problem'].hidden = lobby.problem === null || open || state.table !== null;
    el['chat-muted'].hidden = table.muted.length === 0;
    el['chat-muted'].replaceChildren(
      ...(table.muted.length === 0
        ? []
        : ['Muted: ', ...table.muted.flatMap((name) => [muteButton(name, true, `Unmute ${name}`), ' '])]),
    );
    drawLines(el['lobby-chat-lines'], lobby.lines);
    if (open && !wasOpen) {
      el['chat-lines'].scrollTop = el['chat-lines'].scrollHeight;
      el['chat-input'].focus({ preventScroll: true });
    }
  }
}

/** The lines of a panel, newest last, following the newest when the reader was at the bottom. */
function drawLines(list, lines) {
  const atBottom = list.scrollHeight - list.scrollTop - list.clientHeight < 24;
  list.replaceChildren(
    ...lines.map((line) => {
      const li = document.createElement('li');
      li.dataset.n = String(line.n);
      li.classList.toggle('mine', line.mine);
      li.append(part('name', line.name));
      if (line.who !== '') li.append(' ', part('who', line.who));
      li.append(' ', part('text', line.text));
      if (line.canMute) li.append(' ', muteButton(line.name, false, 'Mute'));
      return li;
    }),
  );
  if (atBottom) list.scrollTop = list.scrollHeight;
}

function muteButton(name, muted, text) {
  const button = part('mute small', text, 'button');
  button.type = 'button';
  button.dataset.mute = name;
  button.dataset.muted = String(muted);
  button.setAttribute('aria-label', `${muted ? 'Unmute' : 'Mute'} ${name}`);
  return button;
}
