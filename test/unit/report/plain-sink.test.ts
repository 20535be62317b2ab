import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { test } from 'node:test';
import type { RolloutEvent } from '../../../src/core/types.js';
import { createSink, PlainSink, type SinkTimers } from '../../../src/report/index.js';
import { crashProblem, failedRollout, imageProblem, NGINX, successfulRollout, T0 } from './fixtures.js';

function capture(): { stream: PassThrough; text: () => string } {
  const stream = new PassThrough();
  let out = '';
  stream.on('data', (c: Buffer) => (out += c.toString('utf8')));
  return { stream, text: () => out };
}

/** A manual clock and interval timer. */
function fakeTime(start: number) {
  let now = start;
  const callbacks: (() => void)[] = [];
  const timers: SinkTimers = {
    setInterval: (fn) => callbacks.push(fn),
    clearInterval: () => callbacks.splice(0),
  };
  return {
    now: () => now,
    timers,
    advance(ms: number) {
      now += ms;
      for (const fn of callbacks) fn();
    },
  };
}

async function render(events: RolloutEvent[], env: Record<string, string> = {}): Promise<string> {
  const { stream, text } = capture();
  const sink = createSink({ output: 'plain', stream, env, stillWaitingMs: 0 });
  for (const e of events) sink.write(e);
  await sink.close();
  return text();
}

test('plain sink - one timestamped, namespace/name-prefixed line per state change', async () => {
  const lines = (await render(successfulRollout())).trimEnd().split('\n');
  for (const line of lines.slice(0, -1)) assert.match(line, /^\d\d:\d\d:\d\d demo\/nginx \S/);
  assert.ok(lines.includes('04:00:00 demo/nginx new revision 2 (was 1): rollout started'));
  assert.ok(lines.includes('04:00:02 demo/nginx pod nginx-2-a (revision 2): container-creating on node-1 - ContainerCreating'));
  assert.match(lines.at(-2)!, /^04:00:06 demo\/nginx ✔ Deployment demo\/nginx: SUCCEEDED/);
});

test('plain sink - never repeats a line (same pod state, same progress message, same warning)', async () => {
  const out = await render([...successfulRollout(), ...failedRollout().slice(3)]);
  // The event lines (the verdict block below them quotes events again, on purpose).
  const lines = out.split('\n').filter((l) => /^\d\d:\d\d:\d\d /.test(l));
  const bodies = lines.map((l) => l.replace(/^\d\d:\d\d:\d\d /, ''));
  assert.equal(new Set(bodies).size, bodies.length, `repeated line in:\n${out}`);
  assert.equal(bodies.filter((l) => l.includes('pending')).length, 1);
  assert.equal(bodies.filter((l) => l.includes('Waiting for app ReplicaSet')).length, 1);
  assert.equal(bodies.filter((l) => l.includes('Failed to pull image')).length, 1);
});

test("plain sink - the kubelet's bare echo events are left out, Normal events too", async () => {
  const [started, , , pod] = failedRollout();
  const d = { deployment: started!.deployment, workload: started!.workload, at: started!.at };
  const echo = {
    type: 'Warning' as const,
    reason: 'Failed',
    message: 'Error: ErrImagePull',
    object: 'Pod/nginx-2-a',
    count: 1,
    lastSeen: '',
  };
  const normal = { ...echo, type: 'Normal' as const, reason: 'Pulling', message: 'Pulling image "nginx:nonexistent"' };
  const out = await render([started!, pod!, { ...d, type: 'k8s-event', event: echo }, { ...d, type: 'k8s-event', event: normal }]);
  assert.doesNotMatch(out, /Error: ErrImagePull|Pulling image/);
  assert.match(out, /waiting - ErrImagePull/);
});

test('plain sink - pods failing the same way: the first is printed whole, the others as "same as"; a new revision starts over', async () => {
  const d = { deployment: NGINX, workload: { kind: 'Deployment' as const, ...NGINX } };
  const mount = (pod: string): RolloutEvent => ({
    ...d,
    at: T0 + 1000,
    type: 'k8s-event',
    event: {
      type: 'Warning',
      reason: 'FailedMount',
      message: 'MountVolume.SetUp failed for volume "config" : configmap "web-config" not found',
      object: `Pod/${pod}`,
      count: 1,
      lastSeen: '',
    },
  });
  const problem = (pod: string, at = T0 + 2000): RolloutEvent => {
    const p = imageProblem(pod);
    return { ...d, at, type: 'problem', problem: { ...p, firstSeen: at }, failsAt: at + 10_000 };
  };
  const revision = (r: string): RolloutEvent => ({ ...d, at: T0 + 5000, type: 'revision', revision: r, change: 'new' });
  const out = await render([
    { ...d, at: T0, type: 'started' },
    mount('nginx-2-a'),
    mount('nginx-2-b'),
    mount('nginx-2-c'),
    problem('nginx-2-a'),
    problem('nginx-2-b'),
    problem('nginx-2-c'),
    revision('3'),
    problem('nginx-3-x', T0 + 6000),
    problem('nginx-3-y', T0 + 6000),
  ]);
  const bodies = out
    .trimEnd()
    .split('\n')
    .map((l) => l.slice(9));
  assert.deepEqual(
    bodies.filter((l) => l.includes('FailedMount')),
    [
      'demo/nginx event [Pod/nginx-2-a] FailedMount: MountVolume.SetUp failed for volume "config" : configmap "web-config" not found',
      'demo/nginx event [Pod/nginx-2-b] FailedMount: same as [Pod/nginx-2-a]',
      'demo/nginx event [Pod/nginx-2-c] FailedMount: same as [Pod/nginx-2-a]',
    ],
  );
  assert.deepEqual(
    bodies.filter((l) => l.includes('problem:')),
    [
      'demo/nginx problem: Pod/nginx-2-a container nginx: image "nginx:nonexistent" does not exist in its registry; fails the rollout if it persists 10s',
      'demo/nginx problem: Pod/nginx-2-b container nginx: same as Pod/nginx-2-a',
      'demo/nginx problem: Pod/nginx-2-c container nginx: same as Pod/nginx-2-a',
      'demo/nginx problem: Pod/nginx-3-x container nginx: image "nginx:nonexistent" does not exist in its registry; fails the rollout if it persists 10s',
      'demo/nginx problem: Pod/nginx-3-y container nginx: same as Pod/nginx-3-x',
    ],
  );
});

test('plain sink - a rollback names the revision whose template it brings back', async () => {
  const d = { deployment: NGINX, workload: { kind: 'Deployment' as const, ...NGINX }, at: T0 };
  const out = await render([
    { ...d, type: 'started' },
    { ...d, type: 'revision', revision: '4', change: 'initial', restores: '2' },
    { ...d, type: 'revision', revision: '6', previous: '5', change: 'rollback', restores: '4' },
  ]);
  assert.match(out, / revision 4 \(a rollback: the template of revision 2\)\n/);
  assert.match(out, / rollback to revision 6 \(was 5\): the template of revision 4\n/);
});

test('plain sink - several Deployments interleave, each line names its own', async () => {
  const a = successfulRollout({ namespace: 'demo', name: 'api' });
  const b = successfulRollout({ namespace: 'demo', name: 'web' });
  const mixed = a.flatMap((e, i) => [e, b[i]!]);
  const out = await render(mixed);
  assert.match(out, /demo\/api pod nginx-2-a \(revision 2\): pending\n\d\d:\d\d:\d\d demo\/web pod nginx-2-a \(revision 2\): pending/);
  assert.match(out, /demo\/api ✔ Deployment demo\/api: SUCCEEDED/);
  assert.match(out, /demo\/web ✔ Deployment demo\/web: SUCCEEDED/);
});

test('plain sink - "still waiting" after the quiet period, repeated per period, never after the verdict', async () => {
  const { stream, text } = capture();
  const time = fakeTime(T0);
  const sink = new PlainSink({ stream, env: {}, now: time.now, timers: time.timers, stillWaitingMs: 30_000 });
  const events = successfulRollout();
  for (const e of events.slice(0, 9)) sink.write(e);
  time.advance(29_000);
  assert.doesNotMatch(text(), /still waiting/);
  time.advance(1_000);
  assert.match(
    text(),
    /\n04:00:30 demo\/nginx still waiting: Waiting for app ReplicaSet to be available \(0\/2 Pods available\); pods not ready: nginx-2-a \(container-creating: ContainerCreating\)\n$/,
  );
  time.advance(10_000);
  assert.equal(text().match(/still waiting/g)!.length, 1);
  time.advance(20_000);
  assert.equal(text().match(/still waiting/g)!.length, 2);
  for (const e of events.slice(9)) sink.write(e);
  time.advance(120_000);
  assert.equal(text().match(/still waiting/g)!.length, 2);
  await sink.close();
});

test('plain sink - GitHub Actions: ::error annotation and the failure details folded in a group', async () => {
  const out = await render(failedRollout(), { GITHUB_ACTIONS: 'true' });
  assert.match(
    out,
    /^::error title=Deployment demo\/nginx FAILED::pod nginx-2-a: image "nginx:nonexistent" does not exist in its registry$/m,
  );
  const group = /^::group::Deployment demo\/nginx: FAILED - failure details\n([\s\S]*?)\n::endgroup::$/m.exec(out);
  assert.ok(group, out);
  assert.match(group[1]!, /To dig further:/);
  const outside = await render(failedRollout());
  assert.doesNotMatch(outside, /::(error|group)/);
});

test('plain sink - colours only on a TTY or with FORCE_COLOR, never with NO_COLOR', async () => {
  const plain = await render(failedRollout());
  assert.doesNotMatch(plain, /\u001b\[/);
  const forced = await render(failedRollout(), { FORCE_COLOR: '1' });
  assert.match(forced, /\u001b\[33m/);
  const noColor = await render(failedRollout(), { FORCE_COLOR: '1', NO_COLOR: '1' });
  assert.doesNotMatch(noColor, /\u001b\[/);
  const ttyStream = Object.assign(new PassThrough(), { isTTY: true });
  let tty = '';
  ttyStream.on('data', (c: Buffer) => (tty += c.toString()));
  const sink = new PlainSink({ stream: ttyStream, env: { NO_COLOR: '1' }, stillWaitingMs: 0 });
  for (const e of failedRollout()) sink.write(e);
  await sink.close();
  assert.doesNotMatch(tty, /\u001b\[/);
  assert.match(tty, /FAILED/);
});

test('createSink auto - plain when not a TTY or in CI, tty otherwise', async () => {
  const { resolveOutput } = await import('../../../src/report/index.js');
  assert.equal(resolveOutput('auto', { isTTY: true }, {}), 'tty');
  assert.equal(resolveOutput('auto', { isTTY: true }, { CI: 'false' }), 'plain');
  assert.equal(resolveOutput('auto', { isTTY: true }, { TERM: 'dumb' }), 'plain');
  assert.equal(resolveOutput('auto', {}, {}), 'plain');
  assert.equal(resolveOutput('json', { isTTY: true }, {}), 'json');
});

test('plain sink - GitLab CI: failure details folded in a collapsed section, summary as its header', async () => {
  const { stream, text } = capture();
  const clock = T0 + 42_000; // the sink's clock, not the events' times, stamps the section markers
  const sink = new PlainSink({ stream, env: { GITLAB_CI: 'true' }, now: () => clock, stillWaitingMs: 0 });
  for (const e of failedRollout()) sink.write(e);
  await sink.close();
  const out = text();
  const seconds = clock / 1000;
  const section = new RegExp(
    `^\\u001b\\[0Ksection_start:${seconds}:rollout-trace\\.demo\\.nginx\\[collapsed=true\\]\\r\\u001b\\[0K` +
      `(04:00:09 demo/nginx ✖ Deployment demo/nginx: FAILED - [^\\n]*)\\n([\\s\\S]*?)\\n` +
      `\\u001b\\[0Ksection_end:${seconds}:rollout-trace\\.demo\\.nginx\\r\\u001b\\[0K$`,
    'm',
  );
  const m = section.exec(out);
  assert.ok(m, JSON.stringify(out));
  assert.match(m[1]!, /does not exist in its registry/);
  assert.match(m[2]!, /To dig further:/);
  // Exactly one section, nothing after its end but the newline; the event lines stay outside.
  assert.equal(out.match(/section_start:/g)!.length, 1);
  assert.match(out, /section_end:[^\n]*\n$/);
  assert.match(out.slice(0, m.index), /^04:00:01 demo\/nginx pod nginx-2-a \(revision 2\): waiting - ErrImagePull$/m);
  assert.doesNotMatch(out, /::(error|group)/);
});

test('plain sink - GitLab CI: a success is not folded; GitHub Actions wins when both are set', async () => {
  const success = await render(successfulRollout(), { GITLAB_CI: 'true' });
  assert.doesNotMatch(success, /section_/);
  assert.match(success, /SUCCEEDED/);
  const both = await render(failedRollout(), { GITLAB_CI: 'true', GITHUB_ACTIONS: 'true' });
  assert.match(both, /^::group::/m);
  assert.doesNotMatch(both, /section_/);
  const neither = await render(failedRollout(), { GITLAB_CI: '1' });
  assert.doesNotMatch(neither, /section_|\u001b/);
});

test("plain sink - de-noised: Pulumi's progress line only when it says more than the new ReplicaSet line", async () => {
  const d = {
    deployment: { namespace: 'demo', name: 'nginx' },
    workload: { kind: 'Deployment' as const, namespace: 'demo', name: 'nginx' },
  };
  const rs = (ready: number, desired: number, at: number): RolloutEvent => ({
    ...d,
    at: T0 + at * 1000,
    type: 'replicaset',
    name: 'nginx-2',
    revision: '2',
    role: 'new',
    desired,
    ready,
    available: ready,
    created: false,
  });
  const progress = (ready: number, spec: number, at: number): RolloutEvent => ({
    ...d,
    at: T0 + at * 1000,
    type: 'progress',
    desired: 3,
    ready,
    updated: spec,
    available: ready,
    message: `Waiting for app ReplicaSet to be available (${ready}/${spec} Pods available)`,
  });
  const out = await render([rs(0, 1, 0), progress(0, 1, 0), rs(1, 2, 1), progress(1, 2, 1), progress(1, 3, 2)]);
  // Same numbers as the ReplicaSet line just printed: left out; different numbers: printed.
  assert.doesNotMatch(out, /\(0\/1 Pods available\)|\(1\/2 Pods available\)/);
  assert.match(out, /^04:00:02 demo\/nginx Waiting for app ReplicaSet to be available \(1\/3 Pods available\)$/m);
  assert.match(out, /^04:00:01 demo\/nginx ReplicaSet nginx-2 \(new, revision 2\): 1\/2 ready, 1 available$/m);
});

test('plain sink - de-noised: a scaling-down ReplicaSet says so, the "complete" phase leaves the words to the verdict', async () => {
  const d = {
    deployment: { namespace: 'demo', name: 'nginx' },
    workload: { kind: 'Deployment' as const, namespace: 'demo', name: 'nginx' },
  };
  const old = (ready: number, desired: number, available: number): RolloutEvent => ({
    ...d,
    at: T0,
    type: 'replicaset',
    name: 'nginx-1',
    revision: '1',
    role: 'old',
    desired,
    ready,
    available,
    created: false,
  });
  const out = await render([old(3, 2, 3), old(2, 2, 2), old(0, 0, 0), ...successfulRollout().slice(-2)]);
  assert.match(out, /ReplicaSet nginx-1 \(old, revision 1\): 3 ready, scaling down to 2, 3 available\n/);
  assert.match(out, /ReplicaSet nginx-1 \(old, revision 1\): 2\/2 ready, 2 available\n/);
  assert.match(out, /ReplicaSet nginx-1 \(old, revision 1\): scaled to 0\n/);
  assert.doesNotMatch(out, /3\/2 ready|revision 2 is available/);
  assert.match(out, /✔ Deployment demo\/nginx: SUCCEEDED - revision 2 rolled out: 2\/2 pods ready\n.*took 6\.0s/);
});

test('plain sink - de-noised: a pod flipping ErrImagePull <-> ImagePullBackOff prints each reason once per waiting stretch', async () => {
  const d = {
    deployment: { namespace: 'demo', name: 'nginx' },
    workload: { kind: 'Deployment' as const, namespace: 'demo', name: 'nginx' },
  };
  let s = 0;
  const pod = (state: 'waiting' | 'running', detail?: string): RolloutEvent => ({
    ...d,
    at: T0 + s++ * 1000,
    type: 'pod',
    name: 'nginx-2-a',
    replicaSet: 'nginx-2',
    revision: '2',
    state,
    ...(detail ? { detail } : {}),
  });
  const out = await render([
    pod('waiting', 'ErrImagePull'),
    pod('waiting', 'ImagePullBackOff'),
    pod('waiting', 'ErrImagePull'),
    pod('waiting', 'ImagePullBackOff'),
    pod('running'),
    pod('waiting', 'ErrImagePull'),
  ]);
  assert.deepEqual(
    out
      .trimEnd()
      .split('\n')
      .map((l) => l.replace(/^\S+ demo\/nginx pod nginx-2-a \(revision 2\): /, '')),
    ['waiting - ErrImagePull', 'waiting - ImagePullBackOff', 'running', 'waiting - ErrImagePull'],
  );
});

test('plain sink - de-noised: old ReplicaSets already at 0 when the trace starts are history, not news', async () => {
  const d = {
    deployment: { namespace: 'demo', name: 'nginx' },
    workload: { kind: 'Deployment' as const, namespace: 'demo', name: 'nginx' },
  };
  const old = (ready: number, desired: number, created: boolean): RolloutEvent => ({
    ...d,
    at: T0,
    type: 'replicaset',
    name: 'nginx-1',
    revision: '1',
    role: 'old',
    desired,
    ready,
    available: ready,
    created,
  });
  assert.equal(await render([old(0, 0, true)]), '');
  // A rollback scales it up again: that is printed, and so is its later scale-down to 0.
  const out = await render([old(0, 0, true), old(0, 1, false), old(0, 0, false)]);
  assert.match(out, /nginx-1 \(old, revision 1\): 0\/1 ready, 0 available\n.*nginx-1 \(old, revision 1\): scaled to 0\n$/);
});

test("plain sink - a problem line says how long it may persist, in the sinks' one duration format", async () => {
  const p = crashProblem();
  const out = await render([
    { deployment: NGINX, workload: { kind: 'Deployment' as const, ...NGINX }, at: T0, type: 'started' },
    {
      deployment: NGINX,
      workload: { kind: 'Deployment' as const, ...NGINX },
      at: p.firstSeen,
      type: 'problem',
      problem: p,
      failsAt: p.firstSeen + 150_000,
    },
  ]);
  assert.match(out, /problem: Pod\/nginx-2-b container nginx: .*; fails the rollout if it persists 2m30s\n/);
});

test('plain sink - a problem announced after its window (a crash waiting for its restarts) says it fails now', async () => {
  const p = crashProblem();
  const out = await render([
    { deployment: NGINX, workload: { kind: 'Deployment' as const, ...NGINX }, at: T0, type: 'started' },
    {
      deployment: NGINX,
      workload: { kind: 'Deployment' as const, ...NGINX },
      at: p.firstSeen + 12_000,
      type: 'problem',
      problem: p,
      failsAt: p.firstSeen + 10_000,
    },
  ]);
  assert.match(out, /again and again; persisted past its 10s window: fails the rollout\n/);
});

test('plain sink - a tolerated problem says how many pods may have it', async () => {
  const p = crashProblem();
  const line = async (tolerated: number) =>
    render([
      { deployment: NGINX, workload: { kind: 'Deployment' as const, ...NGINX }, at: T0, type: 'started' },
      {
        deployment: NGINX,
        workload: { kind: 'Deployment' as const, ...NGINX },
        at: p.firstSeen,
        type: 'problem',
        problem: p,
        failsAt: p.firstSeen + 10_000,
        tolerated,
      },
    ]);
  assert.match(await line(1), /; fails the rollout if it persists 10s on more than 1 pod\n/);
  assert.match(await line(2), /; fails the rollout if it persists 10s on more than 2 pods\n/);
});

test('plain sink - streamed log lines print as they come, repeats included, prefixed with pod/container', async () => {
  const d = { deployment: NGINX, workload: { kind: 'Deployment' as const, ...NGINX } };
  const log = (s: number, line: string) =>
    ({ ...d, at: T0 + s * 1000, type: 'log', pod: 'nginx-2-a', container: 'app', revision: '2', line }) as RolloutEvent;
  const out = await render([{ ...d, at: T0, type: 'started' }, log(1, 'retrying db'), log(2, 'retrying db'), log(3, 'DB_PASSWORD=***')]);
  const logLines = out.split('\n').filter((l) => l.includes(' log '));
  assert.deepEqual(logLines, [
    '04:00:01 demo/nginx log nginx-2-a/app | retrying db',
    '04:00:02 demo/nginx log nginx-2-a/app | retrying db',
    '04:00:03 demo/nginx log nginx-2-a/app | DB_PASSWORD=***',
  ]);
});
