// The web client's modules import one another in one direction only: no module reaches itself
// again through its imports (a cycle made the controller's concerns call each other back, and a
// welcome climb through eleven of them). The imports are read from the sources, so a new one
// that closes a cycle fails here.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

const JS = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'js');

/** Every module's local imports (and re-exports): file → [file]. */
function importGraph(dir) {
  const graph = new Map();
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.js'))) {
    const source = readFileSync(path.join(dir, file), 'utf8');
    const targets = [...source.matchAll(/^\s*(?:import|export)\s[^;]*?\sfrom\s+['"]\.\/([^'"]+)['"]/gm)].map((m) => m[1]);
    const bare = [...source.matchAll(/^\s*import\s+['"]\.\/([^'"]+)['"]/gm)].map((m) => m[1]);
    const dynamic = [...source.matchAll(/import\(\s*['"]\.\/([^'"]+)['"]\s*\)/g)].map((m) => m[1]);
    graph.set(file, [...new Set([...targets, ...bare, ...dynamic])]);
  }
  return graph;
}

/** A cycle of `graph` as the files along it (the first again at the end), or null. */
function findCycle(graph) {
  const state = new Map(); // file → 'open' while on the path, 'done' once explored
  const trail = [];
  function visit(file) {
    if (state.get(file) === 'done') return null;
    if (state.get(file) === 'open') return [...trail.slice(trail.indexOf(file)), file];
    state.set(file, 'open');
    trail.push(file);
    for (const next of graph.get(file) ?? []) {
      const cycle = visit(next);
      if (cycle !== null) return cycle;
    }
    trail.pop();
    state.set(file, 'done');
    return null;
  }
  for (const file of graph.keys()) {
    const cycle = visit(file);
    if (cycle !== null) return cycle;
  }
  return null;
}

test('the cycle finder finds a cycle, and none where there is none', () => {
  const made = new Map([['a.js', ['b.js']], ['b.js', ['c.js']], ['c.js', ['a.js']], ['d.js', ['a.js']]]);
  assert.deepEqual(findCycle(made), ['a.js', 'b.js', 'c.js', 'a.js']);
  assert.equal(findCycle(new Map([['a.js', ['b.js']], ['b.js', []], ['c.js', ['a.js', 'b.js']]])), null);
  assert.deepEqual(findCycle(new Map([['a.js', ['a.js']]])), ['a.js', 'a.js']);
});

test('the imports of web-client/js are read from the sources', () => {
  const graph = importGraph(JS);
  assert.ok(graph.size > 50);
  // A few imports that must be seen, so that a reader that sees none cannot pass.
  assert.ok(graph.get('controller.js').includes('control-session.js'));
  assert.ok(graph.get('controller.js').includes('news.js'));
  assert.ok(graph.get('control-session.js').includes('games.js'));
  for (const [file, targets] of graph) {
    for (const target of targets) assert.ok(graph.has(target), `${file} imports ${target}, which is not a module here`);
  }
});

test('no module of web-client/js imports itself again, however far round', () => {
  assert.equal(findCycle(importGraph(JS)), null);
});

test('the session announces and the other concerns listen: none of them imports the session, the lobby or the controller', () => {
  const graph = importGraph(JS);
  for (const [file, targets] of graph) {
    if (!file.startsWith('control-')) continue;
    for (const target of ['control-session.js', 'control-lobby.js', 'controller.js']) {
      assert.ok(!targets.includes(target), `${file} imports ${target}`);
    }
  }
});
