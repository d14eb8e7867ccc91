import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  CHAT_KEPT, chatEmptyText, chatView, initialChat, readLine, sameShown, seenCount, shown, withLine, withMuted, withoutTable, withProblem, withSnapshot,
} from '../js/chat.js';

const line = (name, text, extra = {}) => readLine({ type: 'chat', where: 'table', name, text, ...extra });

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

const said = (name, text, extra = {}) => ({ name, text, ...extra });

test('a snapshot of another table: its lines are those, none unread, the panel closed', () => {
  let chat = withSnapshot(initialChat(), 't1', [said('Bob', 'old', { seat: 1 })]);
  chat = withLine({ ...chat, open: true }, line('Bob', 'older', { seat: 1 }));
  chat = withSnapshot(chat, 't2', [said('Ada', 'a', { seat: 0 }), said('Eve', 'b', { spectator: true }), { bad: true }]);
  assert.deepEqual(chat.table.map((l) => [l.name, l.text, l.spectator]), [['Ada', 'a', false], ['Eve', 'b', true]]);
  assert.deepEqual([chat.tableId, chat.unread, chat.open], ['t2', 0, false]);
  assert.deepEqual(withSnapshot(chat, 't3', undefined).table, []);
  // My seat's lines are mine (a page opened again sees what it said as its own).
  assert.deepEqual(withSnapshot(initialChat(), 't1', [said('Ada', 'me', { seat: 0 })], { you: 0 }).table[0].mine, true);
});

test('a snapshot of the same table (resync, reconnection) adds only what was said since, and counts only that unread', () => {
  let chat = withSnapshot(initialChat(), 't1', [said('Bob', 'one', { seat: 1 })]);
  chat = withLine(chat, line('Bob', 'two', { seat: 1 }));
  chat = withLine(chat, line('Ada', 'mine', { seat: 0, replyTo: 4 }));
  assert.equal(chat.unread, 1);
  const numbers = chat.table.map((l) => l.n);
  const lines = [said('Bob', 'one', { seat: 1 }), said('Bob', 'two', { seat: 1 }), said('Ada', 'mine', { seat: 0 })];
  // Nothing new: nothing changes (not even the numbers the log is keyed by).
  assert.equal(withSnapshot(chat, 't1', lines), chat);
  // Two lines said while away: added once, counted once.
  const after = withSnapshot(chat, 't1', [...lines, said('Bob', 'three', { seat: 1 }), said('Cy', 'four', { seat: 2 })]);
  assert.deepEqual(after.table.map((l) => l.text), ['one', 'two', 'mine', 'three', 'four']);
  assert.deepEqual(after.table.slice(0, 3).map((l) => l.n), numbers, 'the lines seen keep their numbers');
  assert.equal(after.table[2].mine, true, 'and whether they were mine');
  assert.equal(after.unread, 3);
  // The same snapshot again (a second resync) adds nothing.
  assert.equal(withSnapshot(after, 't1', [...lines, said('Bob', 'three', { seat: 1 }), said('Cy', 'four', { seat: 2 })]), after);
  // The panel open: added, not unread.
  assert.equal(withSnapshot({ ...chat, open: true, unread: 0 }, 't1', [...lines, said('Bob', 'x', { seat: 1 })]).unread, 0);
});

test('a snapshot whose first lines the table no longer keeps still joins the lines seen', () => {
  let chat = withSnapshot(initialChat(), 't1', Array.from({ length: CHAT_KEPT }, (_, i) => said('Bob', `n${i}`, { seat: 1 })));
  const theirs = Array.from({ length: CHAT_KEPT }, (_, i) => said('Bob', `n${i + 3}`, { seat: 1 }));
  assert.equal(seenCount(chat.table, theirs.map((l) => readLine(l, 'table'))), CHAT_KEPT - 3);
  chat = withSnapshot(chat, 't1', theirs);
  assert.deepEqual([chat.table.length, chat.table.at(-1).text, chat.unread], [CHAT_KEPT, 'n102', 3]);
  // The same words said again: each new one counts.
  const gg = [said('Bob', 'gg', { seat: 1 })];
  let again = withSnapshot(initialChat(), 't1', [...gg, ...gg]);
  again = withSnapshot(again, 't1', [...gg, ...gg, ...gg]);
  assert.deepEqual([again.table.length, again.unread], [3, 1]);
  // None in common (more than the table keeps was said while away): all new.
  assert.equal(seenCount(chat.table, [readLine(said('Cy', 'hi'), 'table')]), 0);
});

test('leaving the table drops its lines, unread count, panel and problem; the lobby\'s stay', () => {
  let chat = withSnapshot(initialChat(), 't1', [said('Bob', 'one', { seat: 1 })]);
  chat = withLine(chat, line('Bob', 'two', { seat: 1 }));
  chat = withLine(chat, readLine({ where: 'lobby', name: 'Cy', text: 'hi' }));
  chat = withProblem(withProblem({ ...chat, open: true }, 'table', 'Too fast'), 'lobby', 'No');
  const left = withoutTable(chat);
  assert.deepEqual([left.table, left.tableId, left.unread, left.open, left.problems], [[], null, 0, false, { table: null, lobby: 'No' }]);
  assert.equal(left.lobby.length, 1);
  assert.equal(withoutTable(left), left, 'nothing more to drop');
});

test('each input has its own problem; my own line answers it', () => {
  let chat = withProblem(initialChat(), 'table', 'You are chatting too fast.');
  assert.deepEqual(chat.problems, { table: 'You are chatting too fast.', lobby: null });
  assert.equal(chatView(chat, { place: 'lobby' }).problem, null);
  chat = withLine(chat, readLine({ where: 'lobby', name: 'Ada', text: 'hi', replyTo: 3 }));
  assert.equal(chat.problems.table, 'You are chatting too fast.', 'a lobby line does not answer the table\'s input');
  chat = withLine(chat, line('Bob', 'someone else', { seat: 1 }));
  assert.equal(chatView(chat).problem, 'You are chatting too fast.');
  chat = withLine(chat, line('Ada', 'mine', { seat: 0, replyTo: 4 }));
  assert.equal(chatView(chat).problem, null);
  assert.equal(withProblem(chat, 'table', null), chat);
});

test('what is shown changes only with what a panel shows', () => {
  const chat = initialChat();
  assert.ok(sameShown(chat, { ...chat, tableId: 't1', next: 9 }));
  assert.ok(!sameShown(chat, withProblem(chat, 'lobby', 'x')));
  assert.ok(!sameShown(chat, { ...chat, unread: 1 }));
});

test('muted names are offered to unmute in the lobby too', () => {
  let chat = withMuted(initialChat(), 'Bob', true);
  chat = withLine(chat, readLine({ where: 'lobby', name: 'Bob', text: 'psst' }));
  assert.deepEqual(chatView(chat, { place: 'lobby' }).lines, []);
  assert.deepEqual(chatView(chat, { place: 'lobby' }).muted, ['Bob']);
});

test('muting the only speaker does not say "nothing said yet": the panel says lines are hidden (issue 34, point 9)', () => {
  let chat = withLine(initialChat(), line('Bob', 'one', { seat: 1 }));
  chat = withLine(chat, line('Bob', 'two', { seat: 1 }));
  assert.equal(chatView(chat).hidden, 0);
  const muted = chatView(withMuted(chat, 'Bob', true));
  assert.deepEqual([muted.lines.length, muted.hidden], [0, 2]);
  assert.match(chatEmptyText(muted.hidden), /^Nothing to show: 2 lines are hidden/);
  assert.match(chatEmptyText(1), /one line is hidden/);
  assert.equal(chatEmptyText(0), 'Nothing said yet. Players and spectators see every line.');
});
