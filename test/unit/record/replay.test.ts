/**
 * `rollout-trace replay`: a recording (built here from a rollout recorded on the real control
 * plane, test/fixtures) replays to the same verdict as the reducer gives live, other policy flags
 * change what it says, and a corrupt, truncated, newer or hostile recording exits 2 with one
 * sentence, never a crash and never a control byte on the terminal.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { gzipSync } from 'node:zlib';
import type { Observation } from '../../../src/core/index.js';
import { scrubObservation } from '../../../src/record/index.js';
import { recordingOfFixture } from '../../fixtures/replay.js';
import { isOneParagraph, runCliInProcess } from '../../integration/cli/run-cli.js';

const dir = mkdtempSync(join(tmpdir(), 'rt-replay-'));
after(() => rmSync(dir, { recursive: true, force: true }));
let files = 0;

/** Writes `lines` (objects, or raw text) as a recording file; gzip unless `plain`. */
function recordingFile(lines: (object | string)[], o: { plain?: boolean; cut?: number } = {}): string {
  const text = lines.map((l) => (typeof l === 'string' ? l : JSON.stringify(l))).join('\n') + '\n';
  let bytes = o.plain ? Buffer.from(text) : gzipSync(text);
  if (o.cut !== undefined) bytes = bytes.subarray(0, o.cut);
  const file = join(dir, `r${files++}.rtrec.gz`);
  writeFileSync(file, bytes);
  return file;
}

const fromFixture = recordingOfFixture;

const jsonLines = (stdout: string) =>
  stdout
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));

test('a recorded broken image replays to its failure, naming the pod and the class; -o plain says the same', async () => {
  const file = recordingFile(fromFixture('broken-image'));
  const run = await runCliInProcess(['replay', file, '-o', 'json']);
  assert.equal(run.code, 1, run.stderr);
  const verdict = jsonLines(run.stdout).find((e) => e.type === 'verdict');
  assert.equal(verdict?.verdict.outcome, 'failed');
  assert.match(verdict?.verdict.problems[0]?.class ?? '', /^image-pull/);
  const plain = await runCliInProcess(['replay', file, '-o', 'plain']);
  assert.equal(plain.code, 1);
  assert.match(plain.stdout, /FAILED/);
});

test('replayed under other policy flags: what they would have said', async () => {
  const file = recordingFile(fromFixture('broken-image'));
  const live = jsonLines((await runCliInProcess(['replay', file, '-o', 'json'])).stdout).find((e) => e.type === 'verdict');
  const cls = live?.verdict.problems[0]?.class as string;
  // The same rollout with that class only warned about: no failure within the recording.
  const run = await runCliInProcess(['replay', file, '-o', 'json', '--warn-only', cls]);
  assert.equal(run.code, 2, run.stderr);
  assert.ok(!jsonLines(run.stdout).some((e) => e.type === 'verdict'));
  assert.match(run.stderr, /ends before its verdict \(it was cut short\)/);
  // A longer window than the recording lasted: no verdict either; a short one fails as live.
  const later = await runCliInProcess(['replay', file, '-o', 'json', '--fail-after', `${cls}=1h`]);
  assert.equal(later.code, 2);
  const sooner = await runCliInProcess(['replay', file, '-o', 'json', '--fail-after', `${cls}=1s`]);
  assert.equal(sooner.code, 1);
  const at = (r: typeof sooner) => jsonLines(r.stdout).find((e) => e.type === 'verdict')?.at as number;
  assert.ok(at(sooner) <= (live?.at as number), 'a shorter window fails no later');
});

test('a flag with no meaning for a recorded kind is refused, as live', async () => {
  const lines = fromFixture('broken-image');
  const trace = lines[1] as { target: object };
  trace.target = { ...trace.target, kind: 'Job' };
  const run = await runCliInProcess(['replay', recordingFile(lines), '--pulumi-messages']);
  assert.equal(run.code, 2);
  assert.ok(isOneParagraph(run.stderr), run.stderr);
});

test('bad recordings exit 2 with one sentence naming what is wrong', async () => {
  const good = fromFixture('first-rollout');
  const header = good[0] as Record<string, unknown>;
  const rows: [string, string, RegExp][] = [
    ['missing', join(dir, 'nope.gz'), /cannot read the recording .*no such file/],
    ['not a recording', recordingFile(['hello'], { plain: true }), /is not a rollout-trace recording: line 1 is not JSON/],
    ['another format', recordingFile([{ format: 'kubespy' }]), /first line does not say "format": "rollout-trace-recording"/],
    [
      'a newer version',
      recordingFile([{ ...header, version: 3, tool: '9.0.0' }, ...good.slice(1)]),
      /version 3 recording, newer than this rollout-trace reads \(version 2\).*9\.0\.0/,
    ],
    ['truncated gzip', recordingFile(good, { cut: 200 }), /compressed data is truncated or corrupt/],
    ['a line that is no JSON', recordingFile([...good.slice(0, 5), '{"t":0,"o":', ...good.slice(5)]), /line 6 is not JSON/],
    ['an item of no trace', recordingFile([header, { t: 3, o: { type: 'tick', at: 1 } }]), /line 2 names no traced workload/],
    ['no traced workload', recordingFile([header]), /holds no traced workload/],
    [
      'an object without metadata',
      recordingFile([...good.slice(0, 2), { t: 0, o: { type: 'upsert', kind: 'Pod', object: 5, at: 1 } }]),
      /object has no kind or metadata/,
    ],
    [
      'a batch of one',
      recordingFile([...good.slice(0, 2), { t: 0, b: [{ type: 'tick', at: 1 }] }]),
      /line 3 holds a batch that is not a list/,
    ],
    [
      'a batch holding an object without metadata',
      recordingFile([
        ...good.slice(0, 2),
        {
          t: 0,
          b: [
            { type: 'tick', at: 1 },
            { type: 'upsert', kind: 'Pod', object: 5, at: 1 },
          ],
        },
      ]),
      /line 3 holds an observation whose object has no kind or metadata/,
    ],
    [
      'a hostile object',
      recordingFile([...good.slice(0, 2), { t: 0, o: { type: 'upsert', kind: 'Pod', object: { metadata: {}, status: 7 }, at: 1 } }]),
      /./,
    ],
  ];
  for (const [what, file, want] of rows) {
    const run = await runCliInProcess(['replay', file]);
    assert.ok(run.code === 2 || run.code === 3, `${what}: exit ${run.code}\n${run.stderr}`);
    assert.ok(isOneParagraph(run.stderr), `${what}: ${run.stderr}`);
    assert.match(run.stderr, want, what);
  }
});

test('cluster text in a recording never drives the terminal', async () => {
  const hostile = '\u001b]0;pwned\u0007\u001b[2J evil \u009b31m';
  const lines = fromFixture('broken-image', 20_000, (obs) =>
    obs.map((o) =>
      o.type === 'upsert' && o.kind === 'Event' ? ({ ...o, object: { ...(o.object as object), message: hostile } } as Observation) : o,
    ),
  );
  const file = recordingFile(lines);
  for (const output of ['plain', 'json', 'tty']) {
    const run = await runCliInProcess(['replay', file, '-o', output]);
    assert.equal(run.code, 1, output);
    assert.match(run.stdout, /evil/, `${output}: the message is shown`);
    for (const sequence of ['\u001b]0;', '\u0007', '\u001b[2J', '\u009b'])
      assert.ok(!run.stdout.includes(sequence), `${output}: ${JSON.stringify(sequence)}`);
    // The line outputs carry no control byte at all (the terminal one draws its own frames).
    if (output !== 'tty') assert.ok(!/[\u0000-\u0008\u000b-\u001f\u007f\u0080-\u009f]/.test(run.stdout), output);
  }
});

test('what is recorded of an object: redacted, env values blanked, managed fields and last-applied copies dropped', () => {
  const pod = {
    metadata: {
      name: 'web-1',
      managedFields: [{ manager: 'kubectl' }],
      annotations: { 'kubectl.kubernetes.io/last-applied-configuration': '{"env":"secret"}', note: 'password=hunter2' },
    },
    spec: {
      containers: [
        {
          name: 'app',
          env: [
            { name: 'TOKEN', value: 's3cr3t' },
            { name: 'DB', valueFrom: { secretKeyRef: { name: 'db', key: 'pw' } } },
          ],
        },
      ],
    },
    status: { message: 'login with swordfish42' },
  };
  const mask = (t: string) => t.replace(/password=\S+/, 'password=***').replace(/swordfish\d+/, '***');
  const out = scrubObservation({ type: 'upsert', kind: 'Pod', object: pod as never, at: 1 }, mask) as unknown as { object: typeof pod };
  assert.equal(out.object.metadata.managedFields, undefined);
  assert.deepEqual(out.object.metadata.annotations, { note: 'password=***' });
  assert.deepEqual(out.object.spec.containers[0]!.env, [
    { name: 'TOKEN', value: '' },
    { name: 'DB', valueFrom: { secretKeyRef: { name: 'db', key: 'pw' } } },
  ]);
  assert.equal(out.object.status.message, 'login with ***');
  assert.equal(pod.spec.containers[0]!.env[0]!.value, 's3cr3t', 'the observation itself is untouched');
});

test('--speed paces the replay without changing what it says; a bad speed is refused', async () => {
  const file = recordingFile(fromFixture('broken-image'));
  const instant = await runCliInProcess(['replay', file, '-o', 'json', '--instant']);
  const paced = await runCliInProcess(['replay', file, '-o', 'json', '--speed', '1000']);
  assert.equal(paced.code, instant.code);
  assert.equal(paced.stdout, instant.stdout);
  for (const bad of [
    ['--speed', '0'],
    ['--speed', 'fast'],
    ['--speed', '2', '--instant'],
  ]) {
    const run = await runCliInProcess(['replay', file, ...bad]);
    assert.equal(run.code, 2, bad.join(' '));
    assert.ok(isOneParagraph(run.stderr), run.stderr);
  }
});

test('replay --help and -h print the help, whatever else is on the line, and read no file', async () => {
  for (const argv of [
    ['replay', '--help'],
    ['replay', '-h'],
    ['replay', '/nonexistent.rtrec.gz', '--help', '-o', 'json'],
  ]) {
    const run = await runCliInProcess(argv);
    assert.equal(run.code, 0, `${argv.join(' ')}: ${run.stderr}`);
    assert.match(run.stdout, /rollout-trace replay FILE/, argv.join(' '));
    assert.equal(run.stderr, '', argv.join(' '));
  }
});
