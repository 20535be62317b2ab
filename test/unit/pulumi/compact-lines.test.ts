import assert from 'node:assert/strict';
import { test } from 'node:test';
import { COMPACT_LINE_LIMIT, CompactLines, nonInteractive } from '../../../src/pulumi/compact-lines.js';

const info = (text: string) => ({ severity: 'info' as const, text });

test('a 100-replica rollout prints at most the limit, phases and quarters of the ReplicaSet kept', () => {
  const lines = new CompactLines();
  const input = ['tracing Deployment ns/web', 'revision 2', 'phase 1/3 (new ReplicaSet): ReplicaSet web-abc holds revision 2'];
  for (let i = 0; i <= 100; i++) {
    input.push(`pod web-abc12345-x${String(i).padStart(4, '0')} (revision 2): ready`);
    input.push(`ReplicaSet web-abc12345 (new, revision 2): ${i}/100 ready, ${i} available`);
  }
  input.push('revision 2 rolled out: 100/100 pods ready in 40s');
  const out = input.map((l) => lines.next(info(l))?.text).filter((t) => t !== undefined);
  assert.ok(out.length <= COMPACT_LINE_LIMIT + 1, `${out.length} lines`);
  assert.ok(!out.some((t) => t.startsWith('pod ')));
  assert.deepEqual(
    out.filter((t) => t.startsWith('ReplicaSet')).map((t) => /(\d+)\/100/.exec(t)?.[1]),
    ['0', '25', '50', '75', '100'],
  );
  assert.equal(out.at(-1), 'revision 2 rolled out: 100/100 pods ready in 40s');
});

test('each distinct problem once, pod names aside; past the limit one line says so', () => {
  const lines = new CompactLines(3);
  const texts = [
    'problem: Pod/web-5756dc7876-2sqtp container nginx: image "x" not found; fails the rollout if it persists 10s',
    'problem: Pod/web-5756dc7876-lgsln container nginx: image "x" not found; fails the rollout if it persists 10s',
    'phase 2/3 (scaling up)',
    'condition Available=False',
    'condition Progressing=True',
    'condition Progressing=False',
  ];
  const out = texts.map((t) => lines.next(info(t))?.text);
  assert.deepEqual(out, [
    texts[0],
    undefined,
    texts[2],
    texts[3],
    'further live lines left out (non-interactive run: at most 3 per Deployment)',
    undefined,
  ]);
});

test('non-interactive: the CI environment variable', () => {
  const rows: [string | undefined, boolean][] = [
    ['true', true],
    ['1', true],
    ['false', false],
    ['0', false],
    ['', false],
    [undefined, false],
  ];
  for (const [ci, want] of rows) assert.equal(nonInteractive({ CI: ci }), want, String(ci));
});

test('non-interactive: the CI systems the Pulumi CLI detects, and PULUMI_NON_INTERACTIVE', () => {
  const rows: [Record<string, string>, boolean][] = [
    [{ JENKINS_URL: 'https://ci.example/' }, true],
    [{ TEAMCITY_VERSION: '2024.1' }, true],
    [{ TF_BUILD: 'True' }, true],
    [{ GITHUB_ACTIONS: 'true' }, true],
    [{ CI_NAME: 'codeship' }, true],
    [{ CI_NAME: 'other' }, false],
    [{ PULUMI_NON_INTERACTIVE: 'true' }, true],
    [{ PULUMI_NON_INTERACTIVE: 'false' }, false],
    // The CLI's own switch for its detection: no CI system then, but CI=true still counts.
    [{ JENKINS_URL: 'https://ci.example/', PULUMI_DISABLE_CI_DETECTION: '1' }, false],
    [{ CI: 'true', PULUMI_DISABLE_CI_DETECTION: '1' }, true],
    [{ HOME: '/root', TERM: 'xterm' }, false],
  ];
  for (const [env, want] of rows) assert.equal(nonInteractive(env), want, JSON.stringify(env));
});
