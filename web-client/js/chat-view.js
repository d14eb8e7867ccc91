// DOM: the chat panels (controller.chat, as chat.js chatView says to show them): the table's, in
// place of the board (and of the history view) with its Chat button and unread count; and the
// lobby's, under the live tables. Each has its own input, its own problem line under it and its
// own muted names to unmute. The logs change row by row (chat-log.js). Every line is text
// (textContent), never markup. Typing becomes controller events through `dispatch`.

import { chatEmptyText, chatView } from './chat.js';
import { inputHoldsLine } from './chat-text.js';
import { atBottom, logChanges } from './chat-log.js';
import { isSpectator } from './table-state.js';
import { byId, part } from './dom.js';

/** The ids of each place's elements. */
const IDS = {
  table: { lines: 'chat-lines', form: 'chat-form', input: 'chat-input', problem: 'chat-problem', muted: 'chat-muted' },
  lobby: {
    lines: 'lobby-chat-lines', form: 'lobby-chat-form', input: 'lobby-chat-input', problem: 'lobby-chat-problem',
    muted: 'lobby-chat-muted',
  },
};

export class ChatView {
  constructor({ controller, dispatch }) {
    this.controller = controller;
    this.dispatch = dispatch;
    this.el = byId([
      'table', 'chat-button', 'chat-unread', 'chat-view', 'chat-back', 'chat-empty', 'chat-hide-field', 'chat-hide',
      ...Object.values(IDS).flatMap((ids) => Object.values(ids)),
    ]);
    this.wire();
  }

  wire() {
    const { el, dispatch } = this;
    el['chat-button'].addEventListener('click', () => dispatch({ type: 'chatOpen', open: !this.controller.chat.open }));
    el['chat-back'].addEventListener('click', () => dispatch({ type: 'chatOpen', open: false }));
    for (const [where, ids] of Object.entries(IDS)) {
      el[ids.form].addEventListener('submit', (event) => {
        event.preventDefault();
        dispatch({ type: 'chatSend', where, text: el[ids.input].value });
      });
      el[ids.input].addEventListener('input', () => dispatch({ type: 'chatEdited', where }));
      for (const list of [el[ids.lines], el[ids.muted]]) {
        list.addEventListener('click', (event) => {
          const button = event.target.closest?.('button[data-mute]');
          if (button) dispatch({ type: 'chatMute', name: button.dataset.mute, muted: button.dataset.muted !== 'true' });
        });
      }
    }
    el['chat-hide'].addEventListener('change', () => dispatch({ type: 'chatHideSpectators', hide: el['chat-hide'].checked }));
  }

  /** A line was said: the input it was typed in is emptied, unless it holds other text by now. */
  clearInput(where, text) {
    const input = this.el[IDS[where === 'lobby' ? 'lobby' : 'table'].input];
    if (inputHoldsLine(input.value, text)) input.value = '';
  }

  /** Put the keyboard in the table's chat input (a key typed while its panel is open). */
  focusInput() {
    this.el['chat-input'].focus({ preventScroll: true });
  }

  render() {
    const { el } = this;
    const chat = this.controller.chat;
    const state = this.controller.state;
    const spectator = state.table !== null && isSpectator(state);
    const myName = this.controller.sessionName ?? this.controller.helloName;
    const table = chatView(chat, { place: 'table', spectator, myName });
    const lobby = chatView(chat, { place: 'lobby', myName });
    // The table's panel, in place of the board.
    const open = chat.open && state.table !== null;
    const wasOpen = !el['chat-view'].hidden;
    const focus = document.activeElement;
    const hadFocus = focus === null || focus === document.body || el['chat-view'].contains(focus);
    el['chat-view'].hidden = !open;
    el.table.classList.toggle('showing-chat', open);
    el['chat-button'].setAttribute('aria-pressed', String(open));
    el['chat-unread'].textContent = table.unread;
    el['chat-unread'].hidden = table.unread === '';
    el['chat-empty'].hidden = table.lines.length > 0;
    el['chat-empty'].textContent = chatEmptyText(table.hidden);
    el['chat-hide-field'].hidden = table.hideSpectators === null;
    el['chat-hide'].checked = table.hideSpectators === true;
    this.renderPlace('table', table, { shown: open });
    this.renderPlace('lobby', lobby, { shown: state.table === null });
    if (open && !wasOpen) {
      el['chat-lines'].scrollTop = el['chat-lines'].scrollHeight;
      el['chat-input'].focus({ preventScroll: true });
    } else if (!open && wasOpen && hadFocus && state.table !== null) {
      // Closed (Escape, Back): the keyboard goes back to the button that opens it.
      el['chat-button'].focus({ preventScroll: true });
    }
  }

  /** One place's log, problem line and muted names. */
  renderPlace(where, view, { shown }) {
    const { el } = this;
    const ids = IDS[where];
    drawLines(el[ids.lines], view.lines);
    // Set only when it changes: the problem line is an alert, said again whenever it is set.
    if (el[ids.problem].textContent !== (view.problem ?? '')) el[ids.problem].textContent = view.problem ?? '';
    el[ids.problem].hidden = view.problem === null || !shown;
    el[ids.input].setAttribute('aria-invalid', String(view.problem !== null));
    drawMuted(el[ids.muted], view.muted);
  }
}

/** The names muted, each with its Unmute button; redrawn only when they change (a button that
 * has the keyboard keeps it while lines arrive). */
function drawMuted(box, names) {
  const key = JSON.stringify(names);
  if (box.dataset.names === key) return;
  box.dataset.names = key;
  box.hidden = names.length === 0;
  box.replaceChildren(
    ...(names.length === 0 ? [] : ['Muted: ', ...names.flatMap((name) => [muteButton(name, true, `Unmute ${name}`), ' '])]),
  );
}

/** What a row shows: its line's number, and whether it offers Mute (the one thing that changes). */
function rowKey(line) {
  return `${line.n}${line.canMute ? 'm' : ''}`;
}

/** A log's rows changed to `lines` (newest last) one by one; it follows the newest line only
 * when the reader was at the bottom already. */
function drawLines(list, lines) {
  const follow = atBottom(list);
  const rows = new Map([...list.children].map((li) => [li.dataset.key, li]));
  const byKey = new Map(lines.map((line) => [rowKey(line), line]));
  const { remove, add } = logChanges([...rows.keys()], [...byKey.keys()]);
  if (remove.length === 0 && add.length === 0) return;
  for (const key of remove) rows.get(key).remove();
  for (const { key, before } of add) list.insertBefore(lineRow(byKey.get(key), key), before === null ? null : rows.get(before));
  if (follow) list.scrollTop = list.scrollHeight;
}

function lineRow(line, key) {
  const li = document.createElement('li');
  li.dataset.key = key;
  li.dataset.n = String(line.n);
  li.classList.toggle('mine', line.mine);
  li.append(part('name', line.name));
  if (line.who !== '') li.append(' ', part('who', line.who));
  li.append(' ', part('text', line.text));
  if (line.canMute) li.append(' ', muteButton(line.name, false, 'Mute'));
  return li;
}

function muteButton(name, muted, text) {
  const button = part('mute small', text, 'button');
  button.type = 'button';
  button.dataset.mute = name;
  button.dataset.muted = String(muted);
  button.setAttribute('aria-label', `${muted ? 'Unmute' : 'Mute'} ${name}`);
  return button;
}
