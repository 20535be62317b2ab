/**
 * "A rollout follows" is decided from the provider's write, not from comparing the declared spec
 * with the live one, in both modes. Gate: the generation the provider returns (right after its
 * write) against the baseline's. Observe: the provider is still awaiting while the trace runs, so
 * two quiet traces start (observe-update.ts): one sees a generation newer than the baseline's (the
 * write changed the spec), the other judges the live object once the provider returned the
 * baseline's generation (nothing was written).
 * - A field the program no longer declares (a memory limit, a template label) is removed by
 *   server-side apply: the declared template matches the live one, yet a new rollout starts. The
 *   trace follows it to its verdict (the spec comparison said "unchanged").
 * - `ignoreChanges` on the image: the declared image differs, but the engine sends the old one
 *   (pp: step_generator.go processIgnoreChanges): nothing is written, the Deployment is unchanged
 *   (the spec comparison said "pod template changed" and waited for a revision that never came).
 *   The same for a Deployment left out by `--target` and for `destroy --run-program`: the engine
 *   answers with a same step, nothing is written.
 * - `paused` flipped back to false resumes the rollout: traced.
 * - Scaled from outside (an HPA, `kubectl scale`) with the program unchanged: the engine hands back
 *   its stored outputs, a generation older than the live one: nothing written, no scale announced.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { PatchStrategy, setHeaderOptions } from '@kubernetes/client-node';
import { clients, waitUntil, withNamespace } from '../helpers/cluster.js';
import { nginxArgs } from './harness/fixtures.js';
import { linesOf, startStack } from './harness/langhost.js';
import { leftOut, removals, type Seen, same, twoUps } from './harness/two-ups.js';

const modes = ['gate', 'observe'] as const;

for (const mode of modes) {
  for (const [what, withField] of removals) {
    test(`${mode}: removing ${what} (server-side apply removes it) is traced as a new rollout`, async (t) => {
      const { up2, lines, seen, live } = await twoUps(t, `pulumi-removed-${mode}`, withField, same, { mode });
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

  test(`${mode}: ignoreChanges on the image: nothing is written, the Deployment is unchanged`, async (t) => {
    const { up2, lines, seen, live } = await twoUps(t, `pulumi-ignore-${mode}`, same, same, {
      mode,
      image: 'nginx:1.20',
      ignoreImage: true,
    });
    assert.equal(up2.error, '');
    assert.equal(live?.spec?.template.spec?.containers[0]?.image, 'nginx:1.19');
    assert.equal(seen.outcome, 'unchanged');
    assert.deepEqual(lines, [`no change to Deployment ${live?.metadata?.namespace}/web: revision 1, 1/1 ready`]);
  });

  for (const [what, run] of leftOut) {
    test(`${mode}: a changed image with ${what}: nothing is written, the Deployment is unchanged`, async (t) => {
      const { up2, lines, seen } = await twoUps(t, `pulumi-left-out-${mode}`, same, same, { mode, image: 'nginx:1.20', run });
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

  test(`${mode}: scaled from outside (kubectl scale, an HPA) and the program unchanged: nothing is written, no scale is announced`, async (t) => {
    const scaled = async (namespace: string) => {
      await clients().apps.patchNamespacedDeploymentScale(
        { name: 'web', namespace, body: { spec: { replicas: 2 } } },
        setHeaderOptions('Content-Type', PatchStrategy.MergePatch),
      );
      await waitUntil(
        async () => {
          const d = await clients().apps.readNamespacedDeployment({ name: 'web', namespace });
          return (d.status?.readyReplicas ?? 0) >= 2 && (d.status?.observedGeneration ?? 0) >= 2;
        },
        { what: 'the Deployment scaled to 2 ready replicas', timeoutMs: 60_000 },
      );
    };
    const { up2, lines, seen, live } = await twoUps(t, `pulumi-scaled-${mode}`, same, same, { mode, between: scaled });
    assert.equal(up2.error, '');
    // The engine made no provider call: its stored outputs (generation 1) are older than the live object (2).
    assert.equal(live?.metadata?.generation, 2);
    assert.deepEqual(
      up2.ops.filter((o) => o.op === 'create' || o.op === 'update'),
      [],
    );
    assert.equal(seen.outcome, 'unchanged');
    assert.deepEqual(lines, [`no change to Deployment ${live?.metadata?.namespace}/web: revision 1, 2/2 ready`]);
  });

  test(`${mode}: paused flipped back to false resumes the rollout, and it is traced`, async (t) => {
    const namespace = await withNamespace(t, `pulumi-paused-${mode}`);
    const stack = await startStack({ defaultAwaitSeconds: 10 });
    t.after(() => stack.stop());
    const program = (image: string, paused: boolean, seen: Seen) => async () => {
      const lib = await import('../../src/pulumi/index.js');
      const args = nginxArgs(namespace, image, 1, 'web');
      const declare = mode === 'gate' ? lib.gatedDeployment : lib.tracedDeployment;
      const { trace } = declare('web', { ...args, spec: { ...args.spec, paused } } as never, {}, { timeoutSeconds: 30 });
      trace.outcome.apply((o) => (seen.outcome = o));
      trace.revision.apply((r) => (seen.revision = r));
    };
    assert.equal((await stack.run(program('nginx:1.19', false, {}))).error, '');
    // Paused with a new image: the template is written, no rollout starts.
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
}
