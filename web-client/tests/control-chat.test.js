// The controller's chat.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Controller } from '../js/controller.js';
import { types, sent, table, inLobby } from './controller-fixtures.js';

test('a line typed is checked, sent trimmed, and its input emptied; its answer is the line', () => {
  const { controller, send } = inLobby();
  let fx = send({ type: 'chatSend', where: 'lobby', text: '  anyone for Set?  ' });
  assert.deepEqual(sent(fx), [{ type: 'chat', id: 2, text: 'anyone for Set?' }]);
  assert.ok(types(fx).includes('clearChatInput'));
  fx = send({ type: 'message', message: { type: 'chat', replyTo: 2, where: 'lobby', name: 'Ada', text: 'anyone for Set?' } });
  assert.deepEqual(types(fx), ['renderChat']);
  assert.equal(controller.chat.lobby.at(-1).mine, true);
  // A line that is not one is not sent: the problem is said by the input.
  fx = send({ type: 'chatSend', where: 'lobby', text: 'x'.repeat(201) });
  assert.deepEqual(sent(fx), []);
  assert.match(controller.chat.problem, /at most 200/);
  // Refused by the server: its words.
  send({ type: 'chatSend', where: 'lobby', text: 'again' });
  send({ type: 'message', message: { type: 'error', replyTo: 3, code: 'tooFast', message: 'You are chatting too fast; wait 2 s.' } });
  assert.equal(controller.chat.problem, 'You are chatting too fast; wait 2 s.');
});

test('at a table: lines count unread until the panel opens; a snapshot brings the table\'s lines; leaving drops them', () => {
  const { controller, send } = inLobby();
  send({ type: 'message', message: { type: 'snapshot', table: table(), chat: [{ name: 'Bob', seat: 1, text: 'earlier' }] } });
  assert.deepEqual(controller.chat.table.map((l) => l.text), ['earlier']);
  send({ type: 'message', message: { type: 'chat', where: 'table', name: 'Bob', seat: 1, text: 'hi' } });
  assert.equal(controller.chat.unread, 1);
  send({ type: 'chatOpen', open: true });
  assert.equal(controller.chat.unread, 0);
  const fx = send({ type: 'chatMute', name: 'Bob', muted: true });
  assert.deepEqual(fx.find((e) => e.type === 'saveMuted'), { type: 'saveMuted', names: ['Bob'] });
  send({ type: 'chatHideSpectators', hide: true });
  assert.equal(controller.chat.hideSpectators, true);
  send({ type: 'message', message: { type: 'left' } });
  assert.deepEqual([controller.chat.table, controller.chat.open], [[], false]);
});

test('the names muted before come back with the page', () => {
  const controller = new Controller({ muted: ['Bob'] });
  assert.deepEqual(controller.chat.muted, ['Bob']);
});
