import assert from 'node:assert/strict';
import { test } from 'node:test';
import { stripAnsi } from '../../../src/report/colors.js';
import { createSink } from '../../../src/report/index.js';
import { failedRollout, successfulRollout } from './fixtures.js';
import { FakeTty, screen, steppingClock } from './tty-stream.js';

test('tty sink - live tree redrawn in place, then the final tree and verdict block', async () => {
  const stream = new FakeTty();
  const sink = createSink({ output: 'tty', stream, env: { NO_COLOR: '1' }, now: steppingClock() });
  const events = successfulRollout();
  for (const e of events.slice(0, 10)) sink.write(e);
  const live = screen(stream.output);
  assert.match(live[0]!, /^\S Deployment demo\/nginx · revision 2 · new ReplicaSet$/, 'spinner + header');
  assert.deepEqual(
    live.slice(1).map((l) => l.trim()),
    [
      'Waiting for app ReplicaSet to be available (0/2 Pods available)',
      '├─ ReplicaSet nginx-2 (new, revision 2) 0/1 ready',
      '│  └─ ◔ nginx-2-a container-creating: ContainerCreating',
      '└─ ReplicaSet nginx-1 (old, revision 1) 2/2 ready',
    ],
  );
  // Redrawn in place: ora moved the cursor up over the previous multi-line frame.
  assert.match(stream.output, /\u001b\[1A/);
  assert.equal(live.length, 5, 'no stale frames left on screen');

  for (const e of events.slice(10)) sink.write(e);
  await sink.close();
  const final = screen(stream.output);
  assert.deepEqual(final, [
    'Deployment demo/nginx · revision 2 · complete',
    '  └─ ReplicaSet nginx-2 (new, revision 2) 2/2 ready',
    '     └─ ✓ nginx-2-a ready',
    '✔ Deployment demo/nginx: SUCCEEDED - revision 2 rolled out: 2/2 pods ready',
    '  revision 2 · 2/2 ready · 2 updated · 2 available · took 6.0s',
  ]);
  assert.doesNotMatch(stream.output, /\u001b\[3\dm/, 'NO_COLOR: no colours');
  assert.doesNotMatch(final.join('\n'), /nginx-1/, 'an old ReplicaSet scaled to zero is not drawn');
});

test('tty sink - a pod with a problem gets the warning marker; failure ends with the ✖ block', async () => {
  const stream = new FakeTty();
  const sink = createSink({ output: 'tty', stream, env: {}, now: steppingClock() });
  const events = failedRollout();
  for (const e of events.slice(0, -1)) sink.write(e);
  const live = screen(stripAnsi(stream.output));
  assert.ok(
    live.some((l) => /└─ ⚠ nginx-2-a waiting: image "nginx:nonexistent" does not exist in its registry/.test(l)),
    live.join('\n'),
  );
  sink.write(events.at(-1)!);
  await sink.close();
  const final = screen(stream.output).map(stripAnsi);
  assert.ok(final.includes('✖ Deployment demo/nginx: FAILED - pod nginx-2-a: image "nginx:nonexistent" does not exist in its registry'));
  assert.ok(final.some((l) => l.includes('kubectl -n demo describe pod nginx-2-a')));
  assert.match(stream.output, /\u001b\[31m✖/, 'coloured on a TTY');
});

test('tty sink - closing before a verdict leaves the last tree on screen', async () => {
  const stream = new FakeTty();
  const sink = createSink({ output: 'tty', stream, env: { NO_COLOR: '1' }, now: steppingClock() });
  for (const e of successfulRollout().slice(0, 5)) sink.write(e);
  await sink.close();
  const final = screen(stream.output);
  assert.equal(final[0], 'Deployment demo/nginx · revision 2 · new ReplicaSet');
  assert.equal(final.length, 3);
});

test('tty sink - a relabeled pod leaves the tree with a note saying why (kubespy view + explanation)', async () => {
  const stream = new FakeTty();
  const sink = createSink({ output: 'tty', stream, env: { NO_COLOR: '1' }, now: steppingClock() });
  const events = successfulRollout();
  for (const e of events.slice(0, 10)) sink.write(e);
  const d = { deployment: events[0]!.deployment, workload: events[0]!.workload, at: events[9]!.at };
  sink.write({ ...d, type: 'pod-orphaned', name: 'nginx-2-a', replicaSet: 'nginx-2' });
  sink.write({ ...d, type: 'pod', name: 'nginx-2-b', replicaSet: 'nginx-2', revision: '2', state: 'pending' });
  const live = screen(stream.output).map((l) => l.trim());
  assert.ok(!live.some((l) => l.includes('nginx-2-a container-creating')), live.join('\n'));
  assert.ok(live.includes('│  └─ ○ nginx-2-b pending'), live.join('\n'));
  assert.equal(live.at(-1), '• pod nginx-2-a orphaned: relabeled, released by ReplicaSet nginx-2');
  await sink.close();
});

test('tty sink - --watch: after the verdict the tree comes back live ("watching for changes") under the kept summary', async () => {
  const stream = new FakeTty();
  const sink = createSink({ output: 'tty', stream, env: { NO_COLOR: '1' }, now: steppingClock() });
  const events = successfulRollout();
  for (const e of events) sink.write(e);
  const summary = [
    'Deployment demo/nginx · revision 2 · complete',
    '  └─ ReplicaSet nginx-2 (new, revision 2) 2/2 ready',
    '     └─ ✓ nginx-2-a ready',
    '✔ Deployment demo/nginx: SUCCEEDED - revision 2 rolled out: 2/2 pods ready',
    '  revision 2 · 2/2 ready · 2 updated · 2 available · took 6.0s',
  ];
  assert.deepEqual(screen(stream.output), summary);

  // What the CLI's follower emits when a pod is killed: deletion, ReplicaSet dip, replacement.
  const d = { deployment: events[0]!.deployment, workload: events[0]!.workload };
  const at = events.at(-1)!.at + 5000;
  sink.write({ ...d, at, type: 'pod-deleted', name: 'nginx-2-a', replicaSet: 'nginx-2' });
  sink.write({
    ...d,
    at,
    type: 'replicaset',
    name: 'nginx-2',
    revision: '2',
    role: 'new',
    desired: 2,
    ready: 1,
    available: 1,
    created: false,
  });
  sink.write({
    ...d,
    at,
    type: 'pod',
    name: 'nginx-2-c',
    replicaSet: 'nginx-2',
    revision: '2',
    state: 'container-creating',
    previous: 'pending',
    node: 'node-2',
  });
  const live = screen(stream.output);
  assert.deepEqual(live.slice(0, summary.length), summary, 'the verdict block stays put above the live tree');
  assert.equal(live[summary.length], '');
  assert.match(live[summary.length + 1]!, /^\S Deployment demo\/nginx · revision 2 · watching for changes$/, 'spinner + watch header');
  assert.deepEqual(
    live.slice(summary.length + 2).map((l) => l.trim()),
    ['└─ ReplicaSet nginx-2 (new, revision 2) 1/2 ready', '└─ ◔ nginx-2-c container-creating', '• pod nginx-2-a deleted'],
  );

  sink.write({
    ...d,
    at: at + 3000,
    type: 'pod',
    name: 'nginx-2-c',
    replicaSet: 'nginx-2',
    revision: '2',
    state: 'ready',
    previous: 'container-creating',
  });
  sink.write({
    ...d,
    at: at + 3000,
    type: 'replicaset',
    name: 'nginx-2',
    revision: '2',
    role: 'new',
    desired: 2,
    ready: 2,
    available: 2,
    created: false,
  });
  assert.match(screen(stream.output)[summary.length + 3]!, /└─ ✓ nginx-2-c ready$/, 'the live tree is redrawn in place');
  await sink.close();
  // The watch is over: the last tree is printed for good, without the spinner, once.
  const final = screen(stream.output);
  assert.deepEqual(final.slice(summary.length), [
    '',
    'Deployment demo/nginx · revision 2 · complete',
    '  └─ ReplicaSet nginx-2 (new, revision 2) 2/2 ready',
    '     └─ ✓ nginx-2-c ready',
    '  • pod nginx-2-a deleted',
  ]);
  assert.equal(final.filter((l) => l.includes('SUCCEEDED')).length, 1, 'the verdict is not printed again');
});

test('tty sink - a streamed log line shows under its pod, the latest one only, clipped to one row', async () => {
  const stream = new FakeTty();
  const sink = createSink({ output: 'tty', stream, env: { NO_COLOR: '1' }, now: steppingClock() });
  const events = successfulRollout();
  for (const e of events.slice(0, 8)) sink.write(e);
  const d = { deployment: events[0]!.deployment, workload: events[0]!.workload };
  sink.write({ ...d, at: events[7]!.at, type: 'log', pod: 'nginx-2-a', container: 'app', revision: '2', line: 'starting worker 1' });
  sink.write({
    ...d,
    at: events[7]!.at,
    type: 'log',
    pod: 'nginx-2-a',
    container: 'app',
    revision: '2',
    line: `listening ${'x'.repeat(150)}`,
  });
  try {
    const live = screen(stream.output).map((l) => l.trim());
    const podRow = live.findIndex((l) => l.includes('nginx-2-a'));
    const logRow = live[podRow + 1]!;
    assert.match(logRow, /^│? *› app: listening x+…$/);
    assert.equal(logRow.slice(logRow.indexOf('›') + 2).length, 100, 'clipped to 100 characters');
    assert.ok(!live.some((l) => l.includes('starting worker')), 'only the latest line is kept');
  } finally {
    await sink.close();
  }
});

test('tty sink - a rollback says in the header whose template came back', async () => {
  const stream = new FakeTty();
  const sink = createSink({ output: 'tty', stream, env: { NO_COLOR: '1' }, now: steppingClock() });
  const events = successfulRollout().map((e) =>
    e.type === 'revision' ? { ...e, revision: '4', change: 'initial' as const, restores: '2' } : e,
  );
  for (const e of events) sink.write(e);
  await sink.close();
  assert.equal(screen(stream.output)[0], "Deployment demo/nginx · revision 4 (rollback to revision 2's template) · complete");
});
