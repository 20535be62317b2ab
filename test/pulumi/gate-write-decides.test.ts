/**
 * Gate mode decides "a rollout follows" from the provider's write, not from comparing the declared
 * spec with the live one: the generation the provider returns against the baseline's.
 * - A field the program no longer declares (a memory limit, a template label) is
 *   removed by server-side apply: the declared template matches the live one, yet a new rollout
 *   starts. The trace follows it to its verdict (the spec comparison said "unchanged").
 * - `ignoreChanges` on the image: the declared image differs, but the engine sends the old one
 *   (pp: step_generator.go processIgnoreChanges): nothing is written, the Deployment is unchanged
 *   (the spec comparison said "pod template changed" and waited for a revision that never came).
 *   The same for a Deployment left out by `--target` and for `destroy --run-program`: the engine
 *   answers with a same step, nothing is written.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { clients, withNamespace } from '../helpers/cluster.js';
import { type NginxArgs, nginxArgs } from './harness/fixtures.js';
import { linesOf, startStack } from './harness/langhost.js';
import type { RunMode } from './harness/monitor.js';

type Shape = (args: NginxArgs) => NginxArgs;
type Seen = { outcome?: string; revision?: string };

async function twoUps(
  t: test.TestContext,
  prefix: string,
  first: Shape,
  second: Shape,
  secondImage = 'nginx:1.19',
  ignoreImage = false,
  secondMode: Partial<RunMode> = {},
) {
  const namespace = await withNamespace(t, prefix);
  const stack = await startStack({ defaultAwaitSeconds: 30 });
  t.after(() => stack.stop());
  const program = (args: NginxArgs, seen: Seen) => async () => {
    const lib = await import('../../src/pulumi/index.js');
    const opts = ignoreImage ? { ignoreChanges: ['spec.template.spec.containers[0].image'] } : undefined;
    const { trace } = lib.gatedDeployment('web', args as never, opts, { timeoutSeconds: 25 });
    trace.outcome.apply((o) => (seen.outcome = o));
    trace.revision.apply((r) => (seen.revision = r));
  };
  const up1 = await stack.run(program(first(nginxArgs(namespace, 'nginx:1.19', 1, 'web')), {}));
  assert.equal(up1.error, '');
  const seen: Seen = {};
  const up2 = await stack.run(program(second(nginxArgs(namespace, secondImage, 1, 'web')), seen), secondMode);
  const lines = linesOf(up2, 'web-rollout');
  console.log(lines.join('\n'));
  // After a destroy the Deployment is gone.
  const live = await clients()
    .apps.readNamespacedDeployment({ name: 'web', namespace })
    .catch(() => undefined);
  return { up2, lines, seen, live };
}

const container = (args: NginxArgs) => args.spec.template.spec.containers[0]!;
const same: Shape = (a) => a;

const removals: [string, Shape][] = [
  [
    'a memory limit',
    (a) => {
      container(a).resources = { limits: { memory: '64Mi' } };
      return a;
    },
  ],
  [
    'a template label',
    (a) => {
      a.spec.template.metadata.labels = { ...a.spec.template.metadata.labels, tier: 'web' };
      return a;
    },
  ],
];

for (const [what, withField] of removals) {
  test(`gate: removing ${what} (server-side apply removes it) is traced as a new rollout`, async (t) => {
    const { up2, lines, seen, live } = await twoUps(t, 'pulumi-removed', withField, same);
    assert.equal(up2.error, '');
    assert.equal(live?.metadata?.generation, 2, 'the write changed the spec');
    assert.match(lines[0] ?? '', /^the provider's write changed \S+\/web \(generation 1 → 2\) though its declared pod template matches/);
    assert.ok(
      lines.some((l) => /^revision 2 rolled out/.test(l)),
      lines.join('\n'),
    );
    assert.equal(seen.outcome, 'succeeded');
    assert.equal(seen.revision, '2');
  });
}

test('gate: ignoreChanges on the image: nothing is written, the Deployment is unchanged', async (t) => {
  const { up2, lines, seen, live } = await twoUps(t, 'pulumi-ignore', same, same, 'nginx:1.20', true);
  assert.equal(up2.error, '');
  assert.equal(live?.spec?.template.spec?.containers[0]?.image, 'nginx:1.19');
  assert.equal(seen.outcome, 'unchanged');
  assert.deepEqual(lines, [`no change to Deployment ${live?.metadata?.namespace}/web: revision 1, 1/1 ready`]);
});

const leftOut: [string, Partial<RunMode>][] = [
  ['--target another resource', { targets: ['other'] }],
  ['destroy --run-program', { destroy: true }],
];

for (const [what, mode] of leftOut) {
  test(`gate: a changed image with ${what}: nothing is written, the Deployment is unchanged`, async (t) => {
    const { up2, lines, seen } = await twoUps(t, 'pulumi-left-out', same, same, 'nginx:1.20', false, mode);
    assert.equal(up2.error, '');
    assert.deepEqual(
      up2.ops.filter((o) => o.op === 'create' || o.op === 'update'),
      [],
    );
    assert.equal(seen.outcome, 'unchanged');
    assert.equal(lines.length, 1, lines.join('\n'));
    assert.match(lines[0] ?? '', /^no change to Deployment \S+\/web: revision 1, 1\/1 ready$/);
  });
}

test('gate: paused flipped back to false resumes the rollout, and it is traced', async (t) => {
  const namespace = await withNamespace(t, 'pulumi-paused');
  const stack = await startStack({ defaultAwaitSeconds: 30 });
  t.after(() => stack.stop());
  const program = (image: string, paused: boolean, seen: Seen) => async () => {
    const lib = await import('../../src/pulumi/index.js');
    const args = nginxArgs(namespace, image, 1, 'web');
    const { trace } = lib.gatedDeployment('web', { ...args, spec: { ...args.spec, paused } } as never, {}, { timeoutSeconds: 8 });
    trace.outcome.apply((o) => (seen.outcome = o));
    trace.revision.apply((r) => (seen.revision = r));
  };
  assert.equal((await stack.run(program('nginx:1.19', false, {}))).error, '');
  // Paused with a new image: the template is written, no rollout starts (the gate times out).
  const pausedUp: Seen = {};
  await stack.run(program('nginx:1.20', true, pausedUp));
  assert.notEqual(pausedUp.outcome, 'succeeded');
  // Unpaused: the declared template equals the live one, yet the write resumes the rollout.
  const seen: Seen = {};
  const up = await stack.run(program('nginx:1.20', false, seen));
  const lines = linesOf(up, 'web-rollout');
  console.log(lines.join('\n'));
  assert.equal(up.error, '');
  assert.match(lines[0] ?? '', /^the provider's write changed \S+\/web \(generation 2 → 3\)/);
  assert.equal(seen.outcome, 'succeeded');
  assert.equal(seen.revision, '2');
});
