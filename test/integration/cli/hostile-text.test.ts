/**
 * Hostile cluster text end to end: a crashing container whose termination message holds secrets
 * and whose log holds terminal escapes, workflow commands and a 1 MB line (simulated kubelet
 * behaviours `message=`, `logs64=`, `long-line=`), traced by the real CLI in plain (GitHub Actions),
 * JSON and TTY-free outputs. Nothing secret and no raw control byte may come out.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { kubeconfigPath } from '../../helpers/cluster.js';
import { outputOf } from '../../helpers/faults.js';
import {
  BARE_SECRET,
  GITHUB_COMMAND,
  GITHUB_V1_COMMAND,
  HOSTILE,
  RAW_CONTROL,
  SECRET_MESSAGE,
  SECRETS,
  strayCommands,
} from '../../helpers/hostile-text.js';
import { createDeployment, withNamespace } from '../track/helpers.js';
import { runCli } from './run-cli.js';

const LOG_LINES = [...Object.values(HOSTILE), GITHUB_COMMAND, GITHUB_V1_COMMAND, BARE_SECRET];
const BEHAVIOUR = [
  'crash',
  // Never Ready between crashes, so the verdict is the crash loop.
  'not-ready',
  'exitCode=3',
  'after=2',
  `message=${SECRET_MESSAGE}`,
  `logs64=${Buffer.from(LOG_LINES.join('\n')).toString('base64')}`,
  'long-line=1048576',
].join(';');
/** Output allowed for a trace whose log holds a 1 MB line (each copy is cut to 2,000 characters). */
const MAX_OUTPUT = 200_000;

function assertSafe(what: string, out: string): void {
  for (const secret of SECRETS) assert.ok(!out.includes(secret), `${what}: secret ${secret} printed`);
  const raw = RAW_CONTROL.exec(out);
  assert.equal(
    raw,
    null,
    `${what}: raw ${JSON.stringify(raw?.[0])} near ${JSON.stringify(out.slice((raw?.index ?? 0) - 40, (raw?.index ?? 0) + 10))}`,
  );
  assert.deepEqual(strayCommands(out), [], `${what}: lines GitHub Actions would run`);
  assert.ok(out.length < MAX_OUTPUT, `${what}: ${out.length} characters`);
}

test('hostile text: secrets never printed, escapes shown not obeyed, the 1 MB line cut, in plain/GitHub and JSON', async (t) => {
  const ns = await withNamespace(t, 'cli-hostile');
  await createDeployment(ns, 'app', {
    behaviour: { app: BEHAVIOUR },
    container: { readinessProbe: { httpGet: { path: '/ready', port: 8080 }, periodSeconds: 1 } },
  });
  const args = ['deploy', 'app', '-n', ns, '--kubeconfig', kubeconfigPath()];

  const plain = await runCli([...args, '-o', 'plain', '--follow-logs', '--redact', 'swordfish\\d+'], { env: { GITHUB_ACTIONS: 'true' } });
  t.diagnostic(
    `plain: exit ${plain.code}${plain.signal ? ` (${plain.signal})` : ''}, ${plain.stdout.length} characters, ${plain.stdout.split('long line x').length - 1} copies of the long line`,
  );
  assert.equal(plain.code, 1, outputOf(plain));
  assertSafe('plain', plain.stdout + plain.stderr);
  assert.ok(!plain.stdout.includes('swordfish42'), '--redact masks a secret without a tell-tale shape');
  assert.match(plain.stdout, /^::error title=Deployment [^:]+%3A%3A|^::error title=Deployment /m, 'our own annotation is there');
  assert.match(plain.stdout, /terminated +fatal: auth failed password=\*\*\* url=postgres:\/\/u:\*\*\*@db\/x/);
  assert.match(plain.stdout, /before\\x1b\]0;pwned-title\\x07after/, 'an OSC title shown as text');
  assert.match(plain.stdout, /c1\\u009b31mred/, 'an 8-bit CSI shown as text');
  assert.match(plain.stdout, /\\x3a:error::pwned by a log line/, 'a workflow command shown, not run');
  assert.match(plain.stdout, /long line x+… \[cut: 1048576 chars\]/, 'the 1 MB line cut, and said so');

  const json = await runCli([...args, '-o', 'json']);
  t.diagnostic(`json: exit ${json.code}, ${json.stdout.length} characters`);
  assert.equal(json.code, 1, outputOf(json));
  assertSafe('json', json.stdout);
  const lines = json.stdout
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as { type: string; verdict?: { problems: Array<{ terminationMessage?: string }> } });
  const verdict = lines.find((l) => l.type === 'verdict')!.verdict!;
  assert.equal(verdict.problems[0]?.terminationMessage, 'fatal: auth failed password=*** url=postgres://u:***@db/x');
  // The kubelet serves a crash-looping container's crashed instance as both its previous and its
  // current log: printed once, not twice.
  // Counted in the verdict: an earlier `problem` line may carry an earlier crash's tail.
  assert.equal(JSON.stringify(verdict).split('long line x').length - 1, 1, "the crashed instance's log (with the long line) printed once");
  assert.ok(json.stdout.includes('swordfish42'), 'without --redact, a secret of no known shape is shown (the plain run masked it)');
});
