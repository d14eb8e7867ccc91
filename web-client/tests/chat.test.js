import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CHAT_KEPT, chatProblem, chatView, initialChat, readLine, shown, withLine, withMuted, withSnapshot } from '../js/chat.js';

const line = (name, text, extra = {}) => readLine({ type: 'chat', where: 'table', name, text, ...extra });

test('a line is checked as the server checks it: trimmed, 1-200 characters, no control or bidi', () => {
  assert.equal(chatProblem('  hello  '), null);
  assert.equal(chatProblem('é'.repeat(200)), null);
  assert.equal(chatProblem('😀'.repeat(200)), null, 'code points, not UTF-16 units');
  assert.equal(chatProblem('   '), 'Type something to say.');
  assert.equal(chatProblem(undefined), 'Type something to say.');
  assert.match(chatProblem('é'.repeat(201)), /at most 200/);
  assert.match(chatProblem('two\nlines'), /line breaks/);
  assert.match(chatProblem('bidi \u202e trick'), /control/);
  // Markup is text: nothing to refuse.
  assert.equal(chatProblem('<b>bold</b>'), null);
});

test('a line read: who said it, where, whether it is mine; what cannot be read is none', () => {
  assert.deepEqual(line('Bob', '<b>hi</b>', { seat: 1 }), { where: 'table', name: 'Bob', seat: 1, spectator: false, text: '<b>hi</b>', mine: false });
  assert.equal(line('Eve', 'x', { spectator: true }).spectator, true);
  assert.equal(line('Ada', 'x', { replyTo: 4 }).mine, true);
  assert.equal(readLine({ type: 'chat', where: 'elsewhere', name: 'A', text: 'x' }), null);
  assert.equal(readLine({ type: 'chat', where: 'table', name: 7, text: 'x' }), null);
  assert.equal(readLine(null), null);
});

test('lines are kept (the last 100), counted unread while the panel is closed, not when open or mine', () => {
  let chat = initialChat();
  chat = withLine(chat, line('Bob', 'one', { seat: 1 }));
  chat = withLine(chat, line('Ada', 'mine', { seat: 0, replyTo: 3 }));
  assert.equal(chat.unread, 1);
  chat = { ...chat, open: true };
  chat = withLine(chat, line('Bob', 'two', { seat: 1 }));
  assert.equal(chat.unread, 1);
  for (let i = 0; i < 150; i += 1) chat = withLine(chat, line('Bob', `n${i}`, { seat: 1 }));
  assert.equal(chat.table.length, CHAT_KEPT);
  assert.equal(chat.table.at(-1).text, 'n149');
  // Lobby lines are kept apart and never counted as the table's unread.
  chat = withLine({ ...chat, open: false, unread: 0 }, readLine({ type: 'chat', where: 'lobby', name: 'Cy', text: 'anyone?' }));
  assert.deepEqual([chat.lobby.length, chat.unread], [1, 0]);
});

test('mute hides a name\'s lines and unmute shows them again; mine are always shown', () => {
  let chat = initialChat({ muted: ['Bob', 'Bob'] });
  assert.deepEqual(chat.muted, ['Bob']);
  chat = withLine(chat, line('Bob', 'hidden', { seat: 1 }));
  assert.equal(chat.unread, 0, 'a muted line is not unread');
  assert.deepEqual(chatView(chat).lines.map((l) => l.text), []);
  chat = withMuted(chat, 'Bob', false);
  assert.deepEqual(chatView(chat).lines.map((l) => l.text), ['hidden']);
  chat = withMuted(chat, 'Ada', true);
  chat = withLine(chat, line('Ada', 'mine anyway', { replyTo: 1 }));
  assert.ok(shown(chat, chat.table.at(-1)));
});

test('a player may hide the spectators\' lines; a spectator always sees them', () => {
  let chat = withLine(initialChat(), line('Eve', 'watching you', { spectator: true }));
  chat = withLine(chat, line('Bob', 'hello', { seat: 1 }));
  chat = { ...chat, hideSpectators: true };
  assert.deepEqual(chatView(chat).lines.map((l) => l.text), ['hello']);
  assert.deepEqual(chatView(chat, { spectator: true }).lines.map((l) => l.text), ['watching you', 'hello']);
  assert.equal(chatView(chat).hideSpectators, true);
  assert.equal(chatView(chat, { spectator: true }).hideSpectators, null, 'a spectator has no such choice');
  assert.equal(chatView(chat, { place: 'lobby' }).hideSpectators, null);
});

test('the panel as drawn: names, seats or watching, the text as text, who can be muted', () => {
  let chat = withLine(initialChat(), line('Bob', '<img src=x onerror=alert(1)>', { seat: 1 }));
  chat = withLine(chat, line('Eve', 'hi', { spectator: true }));
  chat = withLine(chat, line('Ada', 'me', { seat: 0, replyTo: 2 }));
  const view = chatView(chat, { myName: 'Ada' });
  assert.deepEqual(view.lines.map(({ name, who, text, mine, canMute }) => ({ name, who, text, mine, canMute })), [
    { name: 'Bob', who: 'Seat 2', text: '<img src=x onerror=alert(1)>', mine: false, canMute: true },
    { name: 'Eve', who: 'watching', text: 'hi', mine: false, canMute: true },
    { name: 'Ada', who: 'Seat 1', text: 'me', mine: true, canMute: false },
  ]);
  assert.equal(view.unread, '2');
});

test('a snapshot\'s lines replace the table\'s', () => {
  let chat = withLine(initialChat(), line('Bob', 'old', { seat: 1 }));
  chat = withSnapshot(chat, [{ name: 'Ada', seat: 0, text: 'a' }, { name: 'Eve', spectator: true, text: 'b' }, { bad: true }]);
  assert.deepEqual(chat.table.map((l) => [l.name, l.text, l.spectator]), [['Ada', 'a', false], ['Eve', 'b', true]]);
  assert.equal(chat.unread, 0);
  assert.deepEqual(withSnapshot(chat, undefined).table, []);
});
