import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseRoute, shareLink, tableHash } from '../js/route.js';

test('a share link names a table by code', () => {
  assert.deepEqual(parseRoute('#/t/ABC234'), { view: 'table', code: 'ABC234' });
  assert.deepEqual(parseRoute('#/t/abc234'), { view: 'table', code: 'ABC234' });
  assert.deepEqual(parseRoute('#/t/ABC234/'), { view: 'table', code: 'ABC234' });
  assert.deepEqual(parseRoute('#t/XYZ789'), { view: 'table', code: 'XYZ789' });
  assert.deepEqual(parseRoute('/t/XYZ789'), { view: 'table', code: 'XYZ789' });
});

test('everything else is the lobby', () => {
  for (const hash of ['', '#', '#/', '#/t/', '#/t', '#/t/AB', '#/t/ABC-234', '#/t/<b>x</b>', '#/t/ABC234/more', '#/x/ABC234', '#/t/%E0%A4%A', null, undefined]) {
    assert.deepEqual(parseRoute(hash), { view: 'lobby' }, String(hash));
  }
});

test('the hash and the link of a table', () => {
  assert.equal(tableHash('ABC234'), '#/t/ABC234');
  assert.deepEqual(parseRoute(tableHash('Q7RT2M')), { view: 'table', code: 'Q7RT2M' });
  assert.equal(shareLink({ origin: 'https://set.example', pathname: '/' }, 'ABC234'), 'https://set.example/#/t/ABC234');
});
