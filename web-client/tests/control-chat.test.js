// The controller's chat.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Controller } from '../js/controller.js';
import { CHAT_NAME_PROBLEM } from '../js/control-chat.js';
import { types, sent, table, inLobby, seated } from './controller-fixtures.js';

const TOO_FAST = 'You are chatting too fast; wait 2 s before the next line.';
const tableLine = (text, extra = {}) => ({ type: 'message', message: { type: 'chat', where: 'table', name: 'Bo', seat: 0, text, ...extra } });

test('a line typed is checked, sent trimmed as the server trims; its answer empties the input and is the line', () => {
  const { controller, send } = inLobby();
  let fx = send({ type: 'chatSend', where: 'lobby', text: '\u0085 anyone for Set?\u3000' });
  assert.deepEqual(sent(fx), [{ type: 'chat', id: 2, text: 'anyone for Set?' }]);
  assert.ok(!types(fx).includes('clearChatInput'), 'the text stays until the line is answered');
  // Enter again before the answer: it is on its way already.
  assert.deepEqual(send({ type: 'chatSend', where: 'lobby', text: 'anyone for Set?' }), []);
  fx = send({ type: 'message', message: { type: 'chat', replyTo: 2, where: 'lobby', name: 'Ada', text: 'anyone for Set?' } });
  assert.deepEqual(fx, [{ type: 'clearChatInput', where: 'lobby', text: 'anyone for Set?' }, { type: 'renderChat' }]);
  assert.equal(controller.chat.lobby.at(-1).mine, true);
  // A line that is not one is not sent: the problem is said under its input, and editing clears it.
  for (const text of ['x'.repeat(201), ' \t\u3000 ', '']) {
    fx = send({ type: 'chatSend', where: 'lobby', text });
    assert.deepEqual(sent(fx), [], JSON.stringify(text));
  }
  assert.deepEqual(controller.chat.problems, { table: null, lobby: 'Type something to say.' });
  assert.deepEqual(types(send({ type: 'chatEdited', where: 'lobby' })), ['renderChat']);
  assert.equal(controller.chat.problems.lobby, null);
  assert.deepEqual(send({ type: 'chatEdited', where: 'lobby' }), [], 'nothing to clear, nothing drawn');
});

test('a line the server refuses stays in its input, and the problem is said under that input only', () => {
  const { controller, send } = seated();
  send({ type: 'chatSend', where: 'table', text: 'one' }); // id 2
  const fx = send({ type: 'message', message: { type: 'error', replyTo: 2, code: 'tooFast', message: TOO_FAST } });
  assert.deepEqual(types(fx), ['renderChat'], 'no toast, and the input is not emptied');
  assert.deepEqual(controller.chat.problems, { table: TOO_FAST, lobby: null });
  // The same line again is sent again (it was answered), and accepted: the problem goes.
  assert.deepEqual(sent(send({ type: 'chatSend', where: 'table', text: 'one' })), [{ type: 'chat', id: 3, text: 'one' }]);
  send({ type: 'message', message: { type: 'chat', replyTo: 3, where: 'table', name: 'Ada', seat: 1, text: 'one' } });
  assert.equal(controller.chat.problems.table, null);
  // A badField is said in the client's own words for that line where it knows them.
  send({ type: 'chatSend', where: 'table', text: 'two' }); // id 4
  send({ type: 'message', message: { type: 'error', replyTo: 4, code: 'badField', message: "Field 'text' must be …" } });
  assert.equal(controller.chat.problems.table, "Field 'text' must be …");
});

test('the table\'s input speaks only at a table, the lobby\'s only in the lobby', () => {
  assert.deepEqual(seated().send({ type: 'chatSend', where: 'lobby', text: 'hi' }), []);
  assert.deepEqual(inLobby().send({ type: 'chatSend', where: 'table', text: 'hi' }), []);
});

test('a dropped connection forgets the lines on their way: the same text can be sent again', () => {
  const { controller, send } = seated();
  send({ type: 'chatSend', where: 'table', text: 'hello' });
  send({ type: 'connection', state: 'reconnecting', detail: { delay: 500 } });
  assert.equal(controller.requests.count('chat'), 0);
  assert.equal(sent(send({ type: 'chatSend', where: 'table', text: 'hello' })).length, 1);
});

test('a lobby line is said under the name typed: a name edited since the hello takes a new session first', () => {
  const { controller, send } = inLobby(); // said hello as Ada
  let fx = send({ type: 'chatSend', where: 'lobby', text: 'hi all' }, { typed: ' Bea ' });
  assert.deepEqual(sent(fx), []);
  assert.deepEqual(fx, [{ type: 'saveName', name: 'Bea' }, { type: 'restart' }]);
  assert.deepEqual(send({ type: 'chatSend', where: 'lobby', text: 'hi all!' }, { typed: 'Bea' }), [], 'one new session');
  send({ type: 'hello' }, { typed: 'Bea' });
  fx = send({ type: 'message', message: { type: 'welcome', resumed: false } }, { typed: 'Bea' });
  assert.deepEqual(sent(fx).map((m) => m.type), ['lobby', 'chat'], 'the lobby again, then the line');
  assert.equal(sent(fx)[1].text, 'hi all!');
  assert.equal(controller.helloName, 'Bea');
  assert.equal(controller.pendingChat, null);
  // A name the server would refuse: the name box says why, the chat's input says what to do.
  fx = send({ type: 'chatSend', where: 'lobby', text: 'hi' }, { typed: 'x'.repeat(30) });
  assert.deepEqual(types(fx), ['nameProblem', 'renderChat']);
  assert.equal(controller.chat.problems.lobby, CHAT_NAME_PROBLEM);
});

test('a resumed session keeps the name it had: a lobby line typed under another takes a new session', () => {
  const { controller, send } = inLobby({ typed: 'Bob' });
  // The page said hello as Bob, but resumed a session the server knows as Player.
  send({ type: 'hello' });
  send({ type: 'message', message: { type: 'welcome', resumed: true, name: 'Player' } });
  assert.equal(controller.sessionName, 'Player');
  let fx = send({ type: 'chatSend', where: 'lobby', text: 'hi' });
  assert.deepEqual(types(fx), ['saveName', 'restart']);
  send({ type: 'hello' });
  // The server names the new session as it likes: the line goes, and no new session is asked for.
  fx = send({ type: 'message', message: { type: 'welcome', resumed: false, name: 'Bob' } });
  assert.deepEqual(sent(fx).map((m) => m.type), ['lobby', 'chat']);
  // A blank name is the server's default.
  const blank = inLobby({ typed: '' });
  blank.send({ type: 'hello' });
  blank.send({ type: 'message', message: { type: 'welcome', resumed: false, name: 'Player' } });
  assert.deepEqual(sent(blank.send({ type: 'chatSend', where: 'lobby', text: 'hi' })).map((m) => m.type), ['chat']);
});

test('at a table: lines count unread until the panel opens; mute and hide-spectators', () => {
  const { controller, send } = inLobby();
  send({ type: 'message', message: { type: 'snapshot', table: table(), chat: [{ name: 'Bob', seat: 1, text: 'earlier' }] } });
  assert.deepEqual(controller.chat.table.map((l) => l.text), ['earlier']);
  send(tableLine('hi'));
  assert.equal(controller.chat.unread, 1);
  send({ type: 'chatOpen', open: true });
  assert.equal(controller.chat.unread, 0);
  const fx = send({ type: 'chatMute', name: 'Bob', muted: true });
  assert.deepEqual(fx.find((e) => e.type === 'saveMuted'), { type: 'saveMuted', names: ['Bob'] });
  send({ type: 'chatHideSpectators', hide: true });
  assert.equal(controller.chat.hideSpectators, true);
});

test('a resync or reconnection snapshot adds only the lines said since: no duplicates, unread not inflated', () => {
  const { controller, send } = seated({}, {});
  send(tableLine('one'));
  send(tableLine('two'));
  assert.equal(controller.chat.unread, 2);
  const said = [{ name: 'Bo', seat: 0, text: 'one' }, { name: 'Bo', seat: 0, text: 'two' }];
  const fx = send({ type: 'message', message: { type: 'snapshot', table: table({ version: 30 }), chat: said } });
  assert.ok(!types(fx).includes('renderChat'), 'nothing new to draw');
  assert.deepEqual([controller.chat.table.length, controller.chat.unread], [2, 2]);
  send({ type: 'message', message: { type: 'snapshot', table: table({ version: 31 }), chat: [...said, { name: 'Bo', seat: 0, text: 'three' }] } });
  assert.deepEqual(controller.chat.table.map((l) => l.text), ['one', 'two', 'three']);
  assert.equal(controller.chat.unread, 3);
});

test('the chat panel and the history view take one place: opening one closes the other', () => {
  const { controller, send } = seated();
  send(tableLine('one'));
  const fx = send({ type: 'chatOpen', open: true });
  assert.deepEqual(types(fx), ['closeHistory', 'renderChat']);
  send(tableLine('two'));
  assert.deepEqual(types(send({ type: 'historyShown' })), ['renderChat']);
  assert.equal(controller.chat.open, false);
  assert.deepEqual(send({ type: 'historyShown' }), [], 'closed already');
  // No table: no panel.
  const { controller: lobby, send: inTheLobby } = inLobby();
  inTheLobby({ type: 'chatOpen', open: true });
  assert.equal(lobby.chat.open, false);
});

/** A controller seated at t7 with two lines said there, one unread, the panel closed, a problem. */
function chatting(options) {
  const t = seated({}, options);
  t.send(tableLine('one'));
  t.send({ type: 'chatOpen', open: true });
  t.send({ type: 'chatOpen', open: false });
  t.send(tableLine('two'));
  t.send({ type: 'chatSend', where: 'table', text: 'x'.repeat(201) });
  assert.deepEqual([t.controller.chat.table.length, t.controller.chat.unread], [2, 1]);
  return t;
}

function assertNoTableChat(controller, how) {
  const { table: lines, tableId, unread, open, problems } = controller.chat;
  assert.deepEqual({ lines, tableId, unread, open, problem: problems.table }, { lines: [], tableId: null, unread: 0, open: false, problem: null }, how);
}

test('every way of leaving a table drops its chat, so the next table shows none of it', () => {
  const ways = {
    'the leave button (left)': (send) => send({ type: 'message', message: { type: 'left' } }),
    'leaving while offline': (send) => send({ type: 'leave' }, { connection: 'reconnecting' }),
    'the table closed under us (notAtTable)': (send) => send({ type: 'message', message: { type: 'error', code: 'notAtTable', message: 'No.' } }),
    'a new session (the old one expired)': (send) => send({ type: 'message', message: { type: 'welcome', resumed: false } }),
    'the game taken by another tab': (send) => send({ type: 'connection', state: 'stopped', detail: { code: 4001 } }),
  };
  for (const [how, leave] of Object.entries(ways)) {
    const { controller, send } = chatting();
    const fx = leave(send);
    assert.ok(types(fx).includes('renderChat'), how);
    assertNoTableChat(controller, how);
    // The next table: its own lines only, none unread.
    send({ type: 'message', message: { type: 'snapshot', table: table({ id: 't8' }) } });
    assert.deepEqual([controller.chat.tableId, controller.chat.table, controller.chat.unread], ['t8', [], 0], how);
  }
});

test('a snapshot of another table (a redirect, a new game elsewhere) replaces the old table\'s chat', () => {
  const { controller, send } = chatting();
  send({ type: 'message', message: { type: 'snapshot', table: table({ id: 't9' }), chat: [{ name: 'Cy', seat: 0, text: 'welcome' }] } });
  assert.deepEqual(controller.chat.table.map((l) => l.text), ['welcome']);
  assert.deepEqual([controller.chat.unread, controller.chat.open, controller.chat.problems.table], [0, false, null]);
});

test('a page opened again at a game that has ended goes to the lobby without its chat', () => {
  const { controller, send } = chatting({ storedTable: 'ABCD234XYZ' });
  send({ type: 'hello' });
  send({ type: 'message', message: { type: 'welcome', resumed: true } });
  // Resumed at its table: the chat stays (the snapshot will join it).
  assert.equal(controller.chat.table.length, 2);
  send({ type: 'message', message: { type: 'left' } });
  send({ type: 'message', message: { type: 'welcome', resumed: true } });
  send({ type: 'message', message: { type: 'snapshot', table: table({ over: true }), chat: [{ name: 'Bo', seat: 0, text: 'one' }] } });
  assertNoTableChat(controller, 'reloaded into a finished game');
});

test('the names muted before come back with the page', () => {
  const controller = new Controller({ muted: ['Bob'] });
  assert.deepEqual(controller.chat.muted, ['Bob']);
});
