/**
 * Two `pulumi up` runs of one Deployment `web` on the engine double: the first applies `first`
 * (and must succeed), the second `second`. Used to show what the trace decides from the
 * provider's write (write-decides.test.ts).
 */
import type { test } from 'node:test';
import { clients, withNamespace } from '../../helpers/cluster.js';
import { type NginxArgs, nginxArgs } from './fixtures.js';
import { linesOf, type RunResult, startStack } from './langhost.js';
import type { RunMode } from './monitor.js';

/** Changes the example's Deployment args. */
export type Shape = (args: NginxArgs) => NginxArgs;

/** What the trace's outputs said. */
export interface Seen {
  outcome?: string;
  revision?: string;
}

/** The second run's options. */
export interface SecondUp {
  mode: 'gate' | 'observe';
  image?: string;
  /** `ignoreChanges` on the container image in both runs. */
  ignoreImage?: boolean;
  run?: Partial<RunMode>;
  /** Done to the cluster between the two runs (an HPA's or `kubectl scale`'s change). */
  between?: (namespace: string) => Promise<void>;
}

/** The result of {@link twoUps}: the second run, its lines on the trace's row, the outputs and the live object. */
export interface TwoUps {
  up2: RunResult;
  lines: string[];
  seen: Seen;
  live: Awaited<ReturnType<ReturnType<typeof clients>['apps']['readNamespacedDeployment']>> | undefined;
}

/** The unchanged shape. */
export const same: Shape = (a) => a;

/** The example's first container. */
export const container = (args: NginxArgs) => args.spec.template.spec.containers[0]!;

/** Runs `up` with `first`, then `up` with `second`, in a new namespace. */
export async function twoUps(t: test.TestContext, prefix: string, first: Shape, second: Shape, o: SecondUp): Promise<TwoUps> {
  const namespace = await withNamespace(t, prefix);
  const stack = await startStack({ defaultAwaitSeconds: 30 });
  t.after(() => stack.stop());
  const program = (args: NginxArgs, seen: Seen) => async () => {
    const lib = await import('../../../src/pulumi/index.js');
    const opts = o.ignoreImage ? { ignoreChanges: ['spec.template.spec.containers[0].image'] } : undefined;
    const { trace } =
      o.mode === 'gate'
        ? lib.gatedDeployment('web', args as never, opts, { timeoutSeconds: 25 })
        : lib.tracedDeployment('web', args as never, opts, { timeoutSeconds: 25 });
    trace.outcome.apply((v) => (seen.outcome = v));
    trace.revision.apply((r) => (seen.revision = r));
  };
  const up1 = await stack.run(program(first(nginxArgs(namespace, 'nginx:1.19', 1, 'web')), {}));
  if (up1.error !== '') throw new Error(`the first up failed: ${up1.error}`);
  await o.between?.(namespace);
  const seen: Seen = {};
  const up2 = await stack.run(program(second(nginxArgs(namespace, o.image ?? 'nginx:1.19', 1, 'web')), seen), o.run);
  const lines = linesOf(up2, 'web-rollout');
  console.log(lines.join('\n'));
  // After a destroy the Deployment is gone.
  const live = await clients()
    .apps.readNamespacedDeployment({ name: 'web', namespace })
    .catch(() => undefined);
  return { up2, lines, seen, live };
}

/**
 * Fields that server-side apply removes when the program stops declaring them: each starts a
 * rollout. A dropped probe is not among them: the 1.20 apiserver's apply leaves an empty probe
 * behind and refuses it ("must specify a handler type"), so no provider could write it there.
 */
export const removals: [string, Shape][] = [
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

/** Runs that write nothing to a Deployment whose declared image changed. */
export const leftOut: [string, Partial<RunMode>][] = [
  ['--target another resource', { targets: ['other'] }],
  ['destroy --run-program', { destroy: true }],
];
