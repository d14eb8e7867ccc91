import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseRoute, replayHash, shareLink, tableHash } from '../js/route.js';

test('a share link names a table by code', () => {
  assert.deepEqual(parseRoute('#/t/ABC234'), { view: 'table', code: 'ABC234', game: null });
  assert.deepEqual(parseRoute('#/t/abc234'), { view: 'table', code: 'ABC234', game: null });
  assert.deepEqual(parseRoute('#/t/ABC234/'), { view: 'table', code: 'ABC234', game: null });
  assert.deepEqual(parseRoute('#t/XYZ789'), { view: 'table', code: 'XYZ789', game: null });
  assert.deepEqual(parseRoute('/t/XYZ789'), { view: 'table', code: 'XYZ789', game: null });
});

test('a share link may name its game, so that an invitation can say which (issue 21)', () => {
  assert.deepEqual(parseRoute('#/t/ABC234/set'), { view: 'table', code: 'ABC234', game: 'set' });
  assert.deepEqual(parseRoute('#/t/ABC234/concentration/'), { view: 'table', code: 'ABC234', game: 'concentration' });
  assert.equal(tableHash('ABC234', 'matchismo'), '#/t/ABC234/matchismo');
  assert.equal(tableHash('ABC234', 'poker'), '#/t/ABC234');
  assert.equal(shareLink({ origin: 'https://set.example', pathname: '/' }, 'ABC234', 'set'), 'https://set.example/#/t/ABC234/set');
  assert.deepEqual(parseRoute(tableHash('Q7RT2M', 'set')), { view: 'table', code: 'Q7RT2M', game: 'set' });
});

test('everything else is the lobby', () => {
  for (const hash of ['', '#', '#/', '#/t/', '#/t', '#/t/AB', '#/t/ABC-234', '#/t/<b>x</b>', '#/t/ABC234/more', '#/t/ABC234/set/x', '#/x/ABC234', '#/t/%E0%A4%A', '#/replay/', '#/replay/g 2', '#/replay/g2/x', `#/replay/${'g'.repeat(33)}`, null, undefined]) {
    assert.deepEqual(parseRoute(hash), { view: 'lobby' }, String(hash));
  }
});

test('the hash and the link of a table', () => {
  assert.equal(tableHash('ABC234'), '#/t/ABC234');
  assert.deepEqual(parseRoute(tableHash('Q7RT2M')), { view: 'table', code: 'Q7RT2M', game: null });
  assert.equal(shareLink({ origin: 'https://set.example', pathname: '/' }, 'ABC234'), 'https://set.example/#/t/ABC234');
});

test('a replay is named by the finished game\'s id', () => {
  assert.deepEqual(parseRoute('#/replay/g2'), { view: 'replay', record: 'g2' });
  assert.deepEqual(parseRoute('#/replay/g2/'), { view: 'replay', record: 'g2' });
  assert.equal(replayHash('g2'), '#/replay/g2');
  assert.deepEqual(parseRoute(replayHash('G_7-x')), { view: 'replay', record: 'G_7-x' });
});
