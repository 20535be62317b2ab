/**
 * What a {@link RolloutTrace} is given and what it yields, and the baseline read its arguments lead
 * to.
 */
import type * as pulumi from '@pulumi/pulumi';
import type { RolloutTimings, WorkloadKind } from '../core/index.js';
import type { RolloutFailure } from '../report/index.js';
import { type Baseline, type ProviderSettings, readBaseline } from './baseline.js';
import type { ChangeKind, CustomTimeouts } from './decisions.js';
import type { SourcePosition } from './declared-at.js';
import type { TraceOptions, TraceOutcome } from './options.js';
import { settle } from './outputs.js';
import type { RolloutTrace } from './rollout-trace.js';
import type { WrittenResource } from './trace-written.js';

/** Arguments of {@link RolloutTrace}. */
export interface RolloutTraceArgs extends TraceOptions {
  /** The workload's declared inputs (the `args` given to `new k8s.apps.v1.Deployment`, ...). */
  inputs: pulumi.Input<unknown>;
  /** The workload's Pulumi resource name (the provider's auto-name prefix). */
  workloadName: string;
  /** The workload's kind: `Deployment` (default), `StatefulSet`, `DaemonSet` or `Job`. */
  kind?: WorkloadKind;
  /** The workload resource, if it already exists (else call {@link RolloutTrace.attach}). */
  deployment?: WrittenResource;
  /** The Deployment is a child of a provider-side component: no resource object, found by name. */
  detached?: boolean;
  /**
   * For a `detached` workload: settles once its step ended (its component's registration
   * answered, after the provider's Construct and so after every child's await). The trace then
   * reads what was written from the cluster.
   */
  stepEnded?: Promise<unknown>;
  /** What the Deployment's provider was given (used when `kubeconfig`/`context` are not set). */
  provider?: ProviderSettings;
  /** The Deployment's `customTimeouts` in seconds (the provider's first timeout choice). */
  customTimeouts?: CustomTimeouts;
  /** Where the program declared the workload (named by a failure; annotated on GitHub Actions). */
  declaredAt?: SourcePosition;
}

/** The trace's result, also exposed as the component's outputs. */
export interface RolloutResult {
  outcome: TraceOutcome;
  /** One line, e.g. `revision 2 rolled out: 3/3 pods ready`. */
  summary: string;
  revision?: string;
  /** What the update changes: `create`, `rollout` (new pod template), `replace`, `scale`, `unchanged`. */
  change?: ChangeKind;
  /** For a rollout that did not succeed: its main cause, machine-readable. */
  failure?: RolloutFailure;
  /** Where the time went: each new pod's phases (seconds) and the one that took most. */
  timings?: RolloutTimings;
}

/** The baseline of a trace, or undefined when a value it needs is unknown (preview). */
export async function baselineOf(args: RolloutTraceArgs, inputsP: ReturnType<typeof settle>): Promise<Baseline | undefined> {
  const [inputs, kubeconfig, context, cluster, namespace] = await Promise.all([
    inputsP,
    settle(args.kubeconfig ?? args.provider?.kubeconfig),
    settle(args.context ?? args.provider?.context),
    settle(args.provider?.cluster),
    settle(args.provider?.namespace),
  ]);
  if (!inputs.known || !kubeconfig.known || !context.known || !cluster.known || !namespace.known) return undefined;
  return readBaseline({
    inputs: inputs.value,
    secret: inputs.secret,
    workloadName: args.workloadName,
    kind: args.kind,
    kubeconfig: kubeconfig.value,
    context: context.value,
    cluster: cluster.value,
    providerNamespace: namespace.value,
  });
}
