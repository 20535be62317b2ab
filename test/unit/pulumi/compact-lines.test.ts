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

/**
 * pp sdk/go/common/util/ciutil/detect.go `detectors` at pulumi/pulumi 1b5949891b3c (the file last
 * changed in bd2962ec26f3), copied by hand: the variables of each system that are detected when
 * non-empty, and the one detected by its value (Codeship).
 */
const DETECT_GO_SET = [
  'PULUMI_CI_SYSTEM',
  'APPVEYOR',
  'CODEBUILD_BUILD_ARN',
  'bamboo_planKey',
  'BITBUCKET_COMMIT',
  'TF_BUILD',
  'BUILDKITE',
  'CIRCLECI',
  'CF_BUILD_URL',
  'DRONE',
  'GITHUB_ACTIONS',
  'GITLAB_CI',
  'GO_PIPELINE_LABEL',
  'HUDSON_URL',
  'JENKINS_URL',
  'MAGNUM',
  'SEMAPHORE',
  'SPACELIFT_MAX_REQUESTS_BURST',
  'TF_VAR_spacelift_run_trigger',
  'SPACELIFT_STORE_HOOKS_ENV_VARS',
  'TF_VAR_spacelift_commit_branch',
  'SPACELIFT_WORKER_TRACING_ENABLED',
  'TASK_ID',
  'RUN_ID',
  'TEAMCITY_VERSION',
  'TRAVIS',
];

test('non-interactive: every CI system of the Pulumi CLI (detect.go), by its rule', () => {
  for (const name of DETECT_GO_SET) {
    // systems.go baseCI.IsCI: any non-empty value, `false` included; an empty one is unset.
    assert.equal(nonInteractive({ [name]: 'false' }), true, `${name}=false`);
    assert.equal(nonInteractive({ [name]: '' }), false, `${name}=''`);
    // detect.go detectSystem: a non-empty PULUMI_DISABLE_CI_DETECTION detects no system.
    assert.equal(nonInteractive({ [name]: 'x', PULUMI_DISABLE_CI_DETECTION: 'true' }), false, `${name}, detection disabled`);
    assert.equal(nonInteractive({ [name]: 'x', PULUMI_DISABLE_CI_DETECTION: '' }), true, `${name}, PULUMI_DISABLE_CI_DETECTION empty`);
  }
  const rows: [Record<string, string>, boolean][] = [
    // Codeship's is a value, compared exactly.
    [{ CI_NAME: 'codeship' }, true],
    [{ CI_NAME: 'Codeship' }, false],
    [{ CI_NAME: 'other' }, false],
    [{ CI_NAME: 'codeship', PULUMI_DISABLE_CI_DETECTION: '1' }, false],
    [{ HOME: '/root', TERM: 'xterm' }, false],
  ];
  for (const [env, want] of rows) assert.equal(nonInteractive(env), want, JSON.stringify(env));
});

test("non-interactive: TERM=dumb, as the CLI's InteractiveTerminal (console.go, any case)", () => {
  const rows: [Record<string, string>, boolean][] = [
    [{ TERM: 'dumb' }, true],
    [{ TERM: 'DUMB' }, true],
    [{ TERM: 'dumb', PULUMI_DISABLE_CI_DETECTION: '1' }, true],
    [{ TERM: 'xterm-256color' }, false],
    [{ TERM: '' }, false],
  ];
  for (const [env, want] of rows) assert.equal(nonInteractive(env), want, JSON.stringify(env));
});

test("non-interactive: rollout-trace's own CI and PULUMI_NON_INTERACTIVE, for what the program cannot see", () => {
  const rows: [Record<string, string>, boolean][] = [
    [{ PULUMI_NON_INTERACTIVE: 'true' }, true],
    [{ PULUMI_NON_INTERACTIVE: 'false' }, false],
    // Not the CLI's detection: PULUMI_DISABLE_CI_DETECTION leaves them.
    [{ CI: 'true', PULUMI_DISABLE_CI_DETECTION: '1' }, true],
  ];
  for (const [env, want] of rows) assert.equal(nonInteractive(env), want, JSON.stringify(env));
});
