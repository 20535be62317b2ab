/**
 * Every sink against hostile cluster text that did NOT go through the tracker (a sink cleans what
 * did not come through the boundary): escapes of every class, workflow commands, a 1 MB line, a secret in a termination message.
 */
import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { test } from 'node:test';
import { cleanClusterText, cleanEvent } from '../../../src/core/cluster-text.js';
import type { Problem, RolloutEvent } from '../../../src/core/types.js';
import { StatusLines } from '../../../src/pulumi/status-lines.js';
import { createSink, formatVerdict, type OutputFormat } from '../../../src/report/index.js';
import {
  GITHUB_COMMAND,
  GITHUB_V1_COMMAND,
  HOSTILE,
  HUGE_LENGTH,
  HUGE_LINE,
  RAW_CONTROL,
  SECRET_MESSAGE,
  SECRETS,
  strayCommands,
} from '../../helpers/hostile-text.js';
import { crashProblem, failedVerdict, NGINX, T0 } from './fixtures.js';
import { FakeTty, steppingClock } from './tty-stream.js';

const ALL = [...Object.values(HOSTILE), GITHUB_COMMAND, GITHUB_V1_COMMAND];

function hostileProblem(): Problem {
  return {
    ...crashProblem('web-1'),
    message: ALL.join(' | '),
    explanation: `container exits: ${HOSTILE.clearScreen}`,
    terminationMessage: `${SECRET_MESSAGE}\n${GITHUB_COMMAND}`,
    events: [
      {
        type: 'Warning',
        reason: 'BackOff',
        message: `${HOSTILE.osc8Link}\n${GITHUB_COMMAND}`,
        object: 'Pod/web-1',
        count: 2,
        lastSeen: '',
      },
    ],
    logs: [{ pod: 'web-1', container: 'app', previous: true, lines: [...ALL, HUGE_LINE, SECRET_MESSAGE] }],
    hints: [GITHUB_COMMAND, 'kubectl -n demo logs web-1 -c app --previous'],
  };
}

/** A failed rollout whose every cluster string is hostile. */
function hostileRollout(): RolloutEvent[] {
  const d = { deployment: NGINX, workload: { kind: 'Deployment' as const, ...NGINX } };
  const p = hostileProblem();
  const at = T0 + 1000;
  return [
    { ...d, at: T0, type: 'started' },
    { ...d, at, type: 'pod', name: 'web-1', replicaSet: 'web-2', revision: '2', state: 'waiting', detail: HOSTILE.bareCr! },
    {
      ...d,
      at,
      type: 'condition',
      condition: 'Progressing',
      status: 'True',
      reason: HOSTILE.nul!,
      message: `${HOSTILE.csi8bit}\n${GITHUB_COMMAND}`,
    },
    { ...d, at, type: 'k8s-event', event: p.events[0]! },
    ...ALL.map((line, i): RolloutEvent => ({ ...d, at: at + i, type: 'log', pod: 'web-1', container: 'app', line })),
    { ...d, at, type: 'log', pod: 'web-1', container: 'app', line: HUGE_LINE },
    { ...d, at, type: 'log', pod: 'web-1', container: 'app', line: SECRET_MESSAGE },
    { ...d, at, type: 'problem', problem: p, failsAt: at },
    {
      ...d,
      at: T0 + 9000,
      type: 'verdict',
      verdict: { ...failedVerdict([p]), summary: `pod web-1: ${SECRET_MESSAGE} ${HOSTILE.oscTitle}` },
    },
  ];
}

async function render(output: Exclude<OutputFormat, 'auto'>, env: Record<string, string>): Promise<string> {
  const stream = output === 'tty' ? new FakeTty(80, 40) : new PassThrough();
  let out = '';
  stream.on('data', (c: Buffer) => (out += c.toString('utf8')));
  const sink = createSink({ output, stream, env, stillWaitingMs: 0, now: steppingClock() });
  for (const e of hostileRollout()) sink.write(e);
  await sink.close();
  return out;
}

/** Checks shared by every sink's output (`ours` removes the escapes the sink writes itself). */
function assertSafe(name: string, out: string, ours: (s: string) => string = (s) => s): void {
  for (const secret of SECRETS) assert.ok(!out.includes(secret), `${name}: secret ${secret} printed`);
  const foreign = ours(out);
  const raw = RAW_CONTROL.exec(foreign);
  assert.equal(
    raw,
    null,
    `${name}: raw ${JSON.stringify(raw?.[0])} near ${JSON.stringify(foreign.slice((raw?.index ?? 0) - 30, (raw?.index ?? 0) + 10))}`,
  );
  assert.deepEqual(strayCommands(out), [], `${name}: a line GitHub Actions would run`);
  assert.ok(out.length < 120_000, `${name}: ${out.length} characters for a 1 MB line`);
  assert.ok(out.includes(`… [cut: ${HUGE_LENGTH} chars]`), `${name}: says the huge line was cut`);
  assert.ok(
    out.includes('before\\x1b]0;pwned-title\\x07after') || out.includes('before\\\\x1b]0;pwned-title\\\\x07after'),
    `${name}: OSC shown`,
  );
}

for (const [name, env] of [
  ['plain', {}],
  ['plain under GitHub Actions', { GITHUB_ACTIONS: 'true' }],
] as const) {
  test(`hostile text - ${name}: escapes shown, secrets masked, no workflow command, lines capped`, async () => {
    const out = await render('plain', env);
    assertSafe(name, out);
    assert.match(out, /col1\tcol2/, 'tabs kept');
    assert.match(out, /c1\\u009b31mred/, '8-bit CSI shown');
    if (name !== 'plain') assert.match(out, /^::error title=Deployment demo\/nginx FAILED::pod web-1: fatal: auth failed password=\*\*\*/m);
  });
}

test('hostile text - plain under GitLab CI: only our section markers are escapes', async () => {
  const out = await render('plain', { GITLAB_CI: 'true' });
  assertSafe('gitlab', out, (s) => s.replace(/\u001b\[0Ksection_(start|end):[^\r]*\r\u001b\[0K/g, ''));
});

test('hostile text - json: pure printable/escaped text, secrets masked', async () => {
  const out = await render('json', {});
  assertSafe('json', out);
  for (const line of out.trim().split('\n')) JSON.parse(line);
  const verdict = JSON.parse(out.trim().split('\n').at(-1)!) as { verdict: { problems: Problem[] } };
  assert.equal(
    verdict.verdict.problems[0]!.terminationMessage,
    'fatal: auth failed password=*** url=postgres://u:***@db/x ⏎ ::error::pwned by a log line',
  );
});

test('hostile text - tty: no foreign escape reaches the terminal', async () => {
  const out = await render('tty', {});
  // Ours: SGR colours, cursor moves, erase line, hide/show cursor, synchronized output.
  assertSafe('tty', out, (s) => s.replace(/\u001b\[[0-9;?]*[mGAKlh]/g, ''));
  assert.ok(!out.includes('\u001b[2J') && !out.includes('\u001b]'), 'no clear-screen, no OSC');
});

test('hostile text - Pulumi status lines and the verdict block', () => {
  const lines = new StatusLines();
  const out = [
    ...hostileRollout().flatMap((e) => lines.next(e)?.text ?? []),
    formatVerdict((hostileRollout().at(-1) as Extract<RolloutEvent, { type: 'verdict' }>).verdict),
  ].join('\n');
  assertSafe('pulumi', out);
});

test('hostile text - a copy of an event the tracker cleaned, with raw text put in, is cleaned again by every sink', async () => {
  // The boundary remembers what it cleaned by identity: a spread copy carries no such mark.
  const clean = cleanEvent(hostileRollout()[1]!, cleanClusterText) as Extract<RolloutEvent, { type: 'pod' }>;
  const forged: RolloutEvent = { ...clean, detail: `${HOSTILE.bidi} ${HOSTILE.oscTitle} ${HOSTILE.csi8bit}` };
  const verdict = hostileRollout().at(-1)!;
  for (const output of ['plain', 'json', 'tty'] as const) {
    const stream = output === 'tty' ? new FakeTty(80, 40) : new PassThrough();
    let out = '';
    stream.on('data', (c: Buffer) => (out += c.toString('utf8')));
    const sink = createSink({ output, stream, env: { NO_COLOR: '1' }, stillWaitingMs: 0, now: steppingClock() });
    sink.write(hostileRollout()[0]!);
    sink.write(forged);
    sink.write(verdict);
    await sink.close();
    const foreign = output === 'tty' ? out.replace(/\u001b\[[0-9;?]*[mGAKlh]/g, '') : out;
    assert.doesNotMatch(foreign, RAW_CONTROL, `${output}: a raw byte of the forged detail`);
    assert.ok(out.includes('user\\u202egnp.exe') || out.includes('user\\\\u202egnp.exe'), `${output}: the bidi override shown\n${out}`);
  }
});
