/**
 * What CI systems show: the Markdown job summary (a table, then each failure's pods, causes, log
 * tails folded, timings) and the JUnit XML report (one test case per workload), with cluster text
 * that can neither break the table, close a fence nor inject markup or invalid XML. The CLI writes
 * both from a replay (no cluster): `--junit FILE`, and `GITHUB_STEP_SUMMARY` on GitHub Actions.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import type { Verdict } from '../../../src/core/index.js';
import { junitReport, markdownSummary } from '../../../src/report/index.js';

const T0 = Date.parse('2026-11-28T08:00:00Z');
const workload = (name: string) => ({ kind: 'Deployment' as const, namespace: 'prod', name });
function verdict(name: string, outcome: Verdict['outcome'], extra: Partial<Verdict> = {}): Verdict {
  return {
    outcome,
    workload: workload(name),
    deployment: { namespace: 'prod', name },
    summary: outcome === 'succeeded' ? 'revision 2 rolled out: 3/3 pods ready in 12.0s' : 'pod api-1 container "app": exited with code 3',
    problems: [],
    replicas: { desired: 3, ready: 3, updated: 3, available: 3 },
    startedAt: T0,
    finishedAt: T0 + 12_000,
    pulumiMessages: [],
    hints: [],
    ...extra,
  };
}

const hostile = 'boom | </details> ``` <script>x</script> \u0007';
const failed = verdict('api', 'failed', {
  summary: `pod api-1 container "app": ${hostile}`,
  problems: [
    {
      id: 'crash-loop/Pod/api-1/app',
      class: 'crash-loop',
      object: { kind: 'Pod', name: 'api-1' },
      container: 'app',
      reason: 'CrashLoopBackOff',
      message: hostile,
      explanation: `container exited with code 3: ${hostile}`,
      exitCode: 3,
      firstSeen: T0,
      lastSeen: T0,
      events: [],
      hints: [],
      logs: [{ pod: 'api-1', container: 'app', previous: true, lines: ['booting', 'fatal: ``` no DATABASE_URL'] }],
    } as never,
  ],
  hints: ['kubectl -n prod describe pod api-1'],
});

test('the Markdown summary: a table of verdicts, then each failure, safe against cluster text', () => {
  const md = markdownSummary([verdict('web', 'succeeded'), failed]);
  assert.match(md, /^### rollout-trace: 1 failed, 1 succeeded\n/);
  assert.match(md, /\| Deployment prod\/web \| ✅ SUCCEEDED \| revision 2 rolled out: 3\/3 pods ready in 12\.0s \| 12\.0s \|/);
  const row = md.split('\n').find((l) => l.startsWith('| Deployment prod/api'))!;
  assert.equal(row.split(/(?<!\\)\|/).length, 6, `the cause's pipes do not add columns: ${row}`);
  assert.doesNotMatch(md, /<script>|<\/details> ```/);
  assert.match(md, /#### ❌ Deployment prod\/api/);
  assert.match(md, /- \*\*Pod\/api-1\*\* container `app`: container exited with code 3: .*\(CrashLoopBackOff\), exit code 3/);
  assert.match(md, /<details><summary>logs of app \(last 2 lines\)<\/summary>\n\n````\nbooting\nfatal: ``` no DATABASE_URL\n````/);
  assert.ok(!md.includes('\u0007'));
});

test('the JUnit report: one test case per workload, failures with their cause, valid XML text', () => {
  const xml = junitReport([verdict('web', 'succeeded'), failed, verdict('slow', 'timed-out'), verdict('gone', 'cancelled')]);
  assert.match(xml, /<testsuites name="rollout-trace" tests="4" failures="2" errors="1" time="48\.000">/);
  assert.match(xml, /<testcase classname="Deployment\.prod" name="web" time="12\.000"\/>/);
  assert.match(
    xml,
    /<testcase classname="Deployment\.prod" name="api" time="12\.000">\n {6}<failure message="pod api-1 container &quot;app&quot;: boom \| &lt;\/details&gt; ``` &lt;script&gt;x&lt;\/script&gt;[^"]*" type="crash-loop">/,
  );
  assert.match(xml, /name="slow"[\s\S]*?<failure [^>]*type="timed-out">/);
  assert.match(xml, /name="gone"[\s\S]*?<error /);
  assert.ok(!/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/.test(xml), 'no character XML 1.0 forbids');
  assert.doesNotMatch(xml, /<script>/);
});

test('the CLI writes both from a replay: --junit FILE, and the job summary on GitHub Actions', async (t) => {
  const { runCliInProcess } = await import('../../integration/cli/run-cli.js');
  const dir = mkdtempSync(join(tmpdir(), 'rt-ci-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const { recordingOfFixture } = await import('../../fixtures/replay.js');
  const recording = join(dir, 'r.jsonl');
  const lines = recordingOfFixture('broken-image');
  writeFileSync(recording, lines.map((l) => JSON.stringify(l)).join('\n'));
  const summary = join(dir, 'summary.md');
  writeFileSync(summary, '# earlier step output\n');
  const junit = join(dir, 'junit.xml');
  const run = await runCliInProcess(['replay', recording, '-o', 'plain', '--junit', junit], {
    GITHUB_ACTIONS: 'true',
    GITHUB_STEP_SUMMARY: summary,
  });
  assert.equal(run.code, 1, run.stderr);
  assert.match(run.stderr, /JUnit report written to/);
  assert.match(
    readFileSync(junit, 'utf8'),
    /<testcase classname="Deployment\.rt-fixture-broken-image-fe68" name="web" [^>]*>\n {6}<failure /,
  );
  const md = readFileSync(summary, 'utf8');
  assert.match(md, /^# earlier step output\n### rollout-trace replay .*: 1 failed\n/, 'appended, not overwritten');
  const missing = await runCliInProcess(['replay', recording, '--junit', join(dir, 'no/such/dir/j.xml')]);
  assert.equal(missing.code, 2);
  assert.match(missing.stderr, /--junit ".*j\.xml": the directory ".*no\/such\/dir" does not exist or cannot be written/);
});
