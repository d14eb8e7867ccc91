import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as m from '../js/messages.js';

test('builders produce the JSON documented in PROTOCOL.md', () => {
  assert.equal(m.encode(m.hello(1, { name: 'Ada' })), '{"type":"hello","id":1,"name":"Ada"}');
  assert.equal(
    m.encode(m.hello(1, { name: 'Ada', resume: 'q3J1bHqk1n7wWm7v0k3t8A' })),
    '{"type":"hello","id":1,"name":"Ada","resume":"q3J1bHqk1n7wWm7v0k3t8A"}',
  );
  assert.equal(m.encode(m.playSolo(2, 'set')), '{"type":"playSolo","id":2,"game":"set"}');
  assert.equal(m.encode(m.playSolo(2)), '{"type":"playSolo","id":2,"game":"set"}');
  assert.equal(m.encode(m.choose(3, 17)), '{"type":"choose","id":3,"card":17}');
  assert.equal(m.encode(m.redeal(4)), '{"type":"redeal","id":4}');
  assert.equal(m.encode(m.resync(5)), '{"type":"resync","id":5}');
});

test('hello leaves out an empty name and a missing token', () => {
  assert.deepEqual(m.hello(1), { type: 'hello', id: 1 });
  assert.deepEqual(m.hello(1, { games: true }), { type: 'hello', id: 1, games: true });
  assert.deepEqual(m.hello(1, { games: 'c41aab025ffde563' }), { type: 'hello', id: 1, games: 'c41aab025ffde563' });
  for (const games of [false, '', 'v'.repeat(65), 3, null]) assert.deepEqual(m.hello(1, { games }), { type: 'hello', id: 1 });
  assert.deepEqual(m.hello(7, { name: '   ', resume: null }), { type: 'hello', id: 7 });
  assert.deepEqual(m.hello(7, { name: '  Bo  ', resume: '' }), { type: 'hello', id: 7, name: 'Bo' });
});

test('choose insists on an integer card id', () => {
  assert.throws(() => m.choose(1, '17'), TypeError);
  assert.throws(() => m.choose(1, 1.5), TypeError);
});

test('names are trimmed as the server trims them, never cut', () => {
  assert.equal(m.MAX_NAME_LENGTH, 24);
  assert.equal(m.MAX_NAME_BYTES, 64);
  assert.equal(m.normalizeName('  Ada Lovelace  '), 'Ada Lovelace');
  assert.equal(m.normalizeName(null), '');
  assert.equal(m.normalizeName('x'.repeat(30)), 'x'.repeat(30));
  // Unicode White_Space, like the server: NEL and ideographic space go, U+FEFF (which
  // JavaScript's trim() would drop) stays.
  assert.equal(m.normalizeName('\u0085\u3000Ada\u00a0\u2029'), 'Ada');
  assert.equal(m.normalizeName('\ufeffAda'), '\ufeffAda');
});

test('a name is checked as the server checks it: 24 scalars, 64 UTF-8 bytes', () => {
  assert.equal(m.nameProblem('Ada'), null);
  assert.equal(m.nameProblem(''), null);
  assert.equal(m.nameProblem('   '), null);
  assert.equal(m.nameProblem(`  ${'x'.repeat(24)}  `), null);
  assert.match(m.nameProblem('x'.repeat(25)), /at most 24 characters/);
  // Scalars, not UTF-16 units: 16 emoji are 32 units and 64 bytes, and fit.
  assert.equal(m.nameProblem('😀'.repeat(16)), null);
  assert.match(m.nameProblem('😀'.repeat(17)), /68 of the 64 bytes/);
  // Scalars, not grapheme clusters: one family emoji is five scalars.
  const family = '👨‍👩‍👧';
  assert.equal([...family].length, 5);
  assert.equal(m.nameProblem(family.repeat(3)), null);
  assert.match(m.nameProblem(family.repeat(5)), /at most 24 characters/);
  // 21 CJK characters are 63 bytes; 22 are 66.
  assert.equal(m.nameProblem('中'.repeat(21)), null);
  assert.match(m.nameProblem('中'.repeat(22)), /bytes/);
  // Accents as combining marks count apart: 12 "é" of two scalars each fit, 13 do not.
  assert.equal(m.nameProblem('e\u0301'.repeat(12)), null);
  assert.notEqual(m.nameProblem('e\u0301'.repeat(13)), null);
  assert.equal(m.nameProblem('\u00e9'.repeat(24)), null);
});

test('control and bidi-control characters are refused, as the server refuses them', () => {
  const refused = [0x00, 0x09, 0x1f, 0x7f, 0x80, 0x9f, 0x061c, 0x200e, 0x200f, 0x202a, 0x202e, 0x2066, 0x2069];
  for (const cp of refused) {
    assert.ok(m.isRefusedCodePoint(cp), cp.toString(16));
    assert.match(m.nameProblem(`A${String.fromCodePoint(cp)}B`), /control characters/, cp.toString(16));
  }
  const allowed = [0x20, 0x7e, 0xa0, 0x061b, 0x200d, 0x2029 - 1, 0x202f, 0x2065, 0x206a, 0xfeff];
  for (const cp of allowed) assert.ok(!m.isRefusedCodePoint(cp), cp.toString(16));
  // Trimming comes first: a tab around the name is whitespace, not a refused character.
  assert.equal(m.nameProblem('\tAda\n'), null);
  // A lone surrogate is no character; the server could not read it.
  assert.notEqual(m.nameProblem('A\ud800B'), null);
});

test('hello never sends a name the server would refuse', () => {
  assert.deepEqual(m.hello(1, { name: 'x'.repeat(25) }), { type: 'hello', id: 1 });
  assert.deepEqual(m.hello(1, { name: 'evil\u202egnp' }), { type: 'hello', id: 1 });
  assert.deepEqual(m.hello(1, { name: ' 😀😀 ' }), { type: 'hello', id: 1, name: '😀😀' });
});

test('decode accepts JSON objects with a type and nothing else', () => {
  assert.deepEqual(m.decode('{"type":"welcome","session":"s"}'), { type: 'welcome', session: 's' });
  assert.equal(m.decode('not json'), null);
  assert.equal(m.decode('[1,2]'), null);
  assert.equal(m.decode('{"kind":"x"}'), null);
  assert.equal(m.decode('{"type":3}'), null);
  assert.equal(m.decode('null'), null);
  assert.equal(m.decode(42), null);
});

test('socketURL follows the page: ws under http, wss under https', () => {
  assert.equal(m.socketURL({ protocol: 'http:', host: '127.0.0.1:8080' }), 'ws://127.0.0.1:8080/');
  assert.equal(m.socketURL({ protocol: 'https:', host: 'example.org' }), 'wss://example.org/');
  // A page opened for one node of a cluster connects to it through the front door.
  assert.equal(m.socketURL({ protocol: 'http:', host: 'h:8080', search: '?node=n2' }), 'ws://h:8080/ws?node=n2');
  assert.equal(m.socketURL({ protocol: 'http:', host: 'h:8080', search: '?node=<x>' }), 'ws://h:8080/');
  assert.equal(m.SUBPROTOCOL, 'matchismo.v2');
});

test('ids count up from 1', () => {
  const next = m.createIdSource();
  assert.deepEqual([next(), next(), next()], [1, 2, 3]);
});

test('lobby and table messages', () => {
  assert.equal(m.encode(m.lobby(3)), '{"type":"lobby","id":3}');
  assert.equal(m.encode(m.quickMatch(4, { seats: 3 })), '{"type":"quickMatch","id":4,"game":"set","seats":3}');
  assert.equal(m.encode(m.quickMatch(4)), '{"type":"quickMatch","id":4,"game":"set","seats":4}');
  // The settings go along; they cannot override the message's own fields.
  assert.deepEqual(JSON.parse(m.encode(m.quickMatch(4, { seats: 2, settings: { scoring: 'classic', type: 'x', seats: 9 } }))), {
    scoring: 'classic', type: 'quickMatch', id: 4, game: 'set', seats: 2,
  });
  assert.equal(
    m.encode(m.createTable(5, { seats: 2, private: true })),
    '{"type":"createTable","id":5,"game":"set","seats":2,"private":true}',
  );
  assert.equal(m.encode(m.createTable(5, { seats: 6 })), '{"type":"createTable","id":5,"game":"set","seats":6,"private":false}');
  assert.equal(m.encode(m.join(6, 'ABC234')), '{"type":"join","id":6,"code":"ABC234"}');
  assert.equal(m.encode(m.spectate(7, { table: 't7' })), '{"type":"spectate","id":7,"table":"t7"}');
  assert.equal(m.encode(m.spectate(7, { code: 'ABC234' })), '{"type":"spectate","id":7,"code":"ABC234"}');
  assert.equal(m.encode(m.leave(8)), '{"type":"leave","id":8}');
  assert.equal(m.encode(m.start(9)), '{"type":"start","id":9}');
  assert.throws(() => m.quickMatch(1, { seats: 9 }), RangeError);
  assert.throws(() => m.createTable(1, { seats: 0 }), RangeError);
  assert.throws(() => m.join(1, ''), TypeError);
  assert.throws(() => m.spectate(1, {}), TypeError);
});

test('hello carries the table version only when resuming', () => {
  assert.deepEqual(m.hello(1, { name: 'Ada', resume: 'tok', version: 12 }), {
    type: 'hello', id: 1, name: 'Ada', resume: 'tok', version: 12,
  });
  assert.deepEqual(m.hello(1, { name: 'Ada', resume: 'tok', version: 0 }).version, 0);
  assert.deepEqual(m.hello(1, { name: 'Ada', version: 12 }), { type: 'hello', id: 1, name: 'Ada' });
  assert.deepEqual(m.hello(1, { resume: 'tok', version: null }), { type: 'hello', id: 1, resume: 'tok' });
});

test('typed invite codes are cleaned', () => {
  assert.equal(m.cleanCode(' abc-234 '), 'ABC234');
  assert.equal(m.cleanCode('q7r t2m'), 'Q7RT2M');
  assert.equal(m.cleanCode(undefined), '');
});

test('joinListed joins a public table by its id', async () => {
  const messages = await import('../js/messages.js');
  assert.deepEqual(messages.joinListed(7, 't3'), { type: 'join', id: 7, table: 't3' });
  assert.throws(() => messages.joinListed(7, ''), TypeError);
});

test('hello carries the player token when the server would take it', () => {
  const player = 'x0Vd4bq9yRJ1pQo2mZ8c1A';
  assert.equal(
    m.encode(m.hello(1, { name: 'Ada', player })),
    '{"type":"hello","id":1,"name":"Ada","player":"x0Vd4bq9yRJ1pQo2mZ8c1A"}',
  );
  assert.deepEqual(m.hello(1, { resume: 'tok', version: 3, player }), { type: 'hello', id: 1, resume: 'tok', version: 3, player });
  // Anything the server would refuse (badField) is left out rather than lose the hello.
  for (const bad of ['short', 'has space in it here', 'x'.repeat(65), 42, null]) {
    assert.deepEqual(m.hello(1, { player: bad }), { type: 'hello', id: 1 }, String(bad));
  }
});

test('scores asks for one page of finished games, with the documented defaults', () => {
  assert.equal(
    m.encode(m.scores(7, { game: 'set', sort: 'score', page: 0, pageSize: 20, mine: false })),
    '{"type":"scores","id":7,"game":"set","sort":"score","order":"desc","page":0,"pageSize":20,"mine":false}',
  );
  assert.deepEqual(m.scores(8, { game: 'concentration' }), {
    type: 'scores', id: 8, game: 'concentration', sort: 'date', order: 'desc', page: 0, pageSize: 20, mine: false,
  });
  // Each sort's default order: newest first, highest first, shortest first.
  assert.equal(m.scores(1, { game: 'set', sort: 'duration' }).order, 'asc');
  assert.deepEqual(m.SCORE_SORTS, { date: 'desc', score: 'desc', duration: 'asc' });
  assert.equal(m.scores(1, { game: 'set', sort: 'score', order: 'asc', page: 3, pageSize: 5, mine: true }).mine, true);
  assert.throws(() => m.scores(1, {}), TypeError);
  assert.throws(() => m.scores(1, { game: 'set', sort: 'name' }), RangeError);
  assert.throws(() => m.scores(1, { game: 'set', order: 'up' }), RangeError);
  assert.throws(() => m.scores(1, { game: 'set', page: -1 }), RangeError);
  assert.throws(() => m.scores(1, { game: 'set', pageSize: 0 }), RangeError);
  assert.throws(() => m.scores(1, { game: 'set', pageSize: 51 }), RangeError);
  // One high-score list, or (null) the latest game's.
  assert.equal(m.scores(1, { game: 'matchismo', list: 'solo.course.24x2' }).list, 'solo.course.24x2');
  assert.equal(Object.hasOwn(m.scores(1, { game: 'set', list: null }), 'list'), false);
  assert.throws(() => m.scores(1, { game: 'set', list: 'everyone' }), RangeError);
  assert.throws(() => m.scores(1, { game: 'set', list: 'solo.course.0x2' }), RangeError);
});

test('record asks for one finished game by its id', () => {
  assert.equal(m.encode(m.record(8, 'g2')), '{"type":"record","id":8,"record":"g2"}');
  assert.throws(() => m.record(8, ''), TypeError);
  assert.throws(() => m.record(8, 2), TypeError);
  // "Your rating": the asking player's rating and history at one game (PROTOCOL.md, "Ratings").
  assert.equal(m.encode(m.ratings(9, 'set')), '{"type":"ratings","id":9,"game":"set"}');
  assert.throws(() => m.ratings(9, ''), TypeError);
});
