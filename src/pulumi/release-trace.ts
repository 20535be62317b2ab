/**
 * Traces the workloads of a `helm.v3.Release` in `pulumi up` (observe mode: helm's own wait, run
 * by the provider, decides the update). The release registers no resource per object, so its
 * workloads are found in the cluster (release.ts): read before the provider's install or
 * upgrade, then listed each second while it runs; each workload it writes (new, or a newer
 * generation) is traced to its verdict on this component's row, and the trace ends a bounded time
 * after the provider returned.
 */
import * as pulumi from '@pulumi/pulumi';
import { contextNamespace } from '../cluster/index.js';
import type { Verdict, WorkloadKind } from '../core/index.js';
import { formatVerdict } from '../report/index.js';
import type { Tracking } from '../track/index.js';
import { type ProviderSettings, providerKubeConfig } from './baseline.js';
import { listHelmManaged } from './deployment-lookup.js';
import { userMessage } from './errors.js';
import type { TraceOptions, TraceOutcome } from './options.js';
import { settle } from './outputs.js';
import {
  isTheRelease,
  type ReleasePlan,
  type ReleaseWorkload,
  releasePlanFromInputs,
  releasePreviewLine,
  releaseWrites,
} from './release.js';
import { RowLines } from './row-lines.js';
import { StatusLines } from './status-lines.js';
import { stopWhenProviderFinishes } from './trace-written.js';
import { liveStateOf } from './workload-kinds.js';

/** The Pulumi type token of {@link ReleaseTrace}. */
export const RELEASE_TRACE_TYPE = 'rollout-trace:pulumi:ReleaseTrace';

/** How often the release's workloads are listed while the provider installs or upgrades it. */
const LIST_EVERY_MS = 1000;

/** Arguments of {@link ReleaseTrace}. */
export interface ReleaseTraceArgs extends TraceOptions {
  /** The release's declared inputs (`name`, `namespace`, `skipAwait`...). */
  inputs: pulumi.Input<unknown>;
  /** The release's Pulumi resource name (the provider's auto-name prefix). */
  resourceName: string;
  /** The kinds traced (`traceDeployments()`: Deployments only). */
  kinds: readonly WorkloadKind[];
  /** What the release's provider was given. */
  provider?: ProviderSettings;
  /** Settles once the provider's install or upgrade returned. */
  provided: Promise<unknown>;
}

/**
 * The rollouts of one `helm.v3.Release`, observed: every workload its install or upgrade writes,
 * traced to a verdict on this component's row. Created by `traceDeployments()` and
 * `traceWorkloads()` for each release, as `<release>-release-rollouts`.
 */
export class ReleaseTrace extends pulumi.ComponentResource {
  /** How the trace ended: `succeeded` when every workload written rolled out (`previewed` during preview). */
  readonly outcome: pulumi.Output<TraceOutcome>;
  /** One line: the verdicts of the workloads written, or the preview's report. */
  readonly summary: pulumi.Output<string>;
  /** @internal Resolves once the release's live workloads were read: the release waits for it. */
  readonly baseline: pulumi.Output<pulumi.Resource>;
  private readonly lines: RowLines;
  private baselineRead!: () => void;

  constructor(name: string, args: ReleaseTraceArgs, opts?: pulumi.ComponentResourceOptions) {
    super(RELEASE_TRACE_TYPE, name, {}, opts);
    this.lines = new RowLines(this, args.compactLines);
    const read = new Promise<void>((resolve) => (this.baselineRead = resolve));
    this.baseline = pulumi.output(read.then(() => this as pulumi.Resource));
    const result = this.run(args).catch((err: unknown) => {
      this.baselineRead();
      const summary = `rollout-trace cannot trace this Release: ${userMessage(err)}`;
      this.lines.say({ severity: 'warn', text: summary }, false);
      return { outcome: 'cancelled' as const, summary };
    });
    this.outcome = pulumi.output(result.then((r) => r.outcome));
    this.summary = pulumi.output(result.then((r) => r.summary));
    this.registerOutputs({ outcome: this.outcome, summary: this.summary });
  }

  private async run(args: ReleaseTraceArgs): Promise<{ outcome: TraceOutcome; summary: string }> {
    const [inputs, kubeconfig, context, cluster, providerNamespace] = await Promise.all([
      settle(args.inputs),
      settle(args.kubeconfig ?? args.provider?.kubeconfig),
      settle(args.context ?? args.provider?.context),
      settle(args.provider?.cluster),
      settle(args.provider?.namespace),
    ]);
    if (!inputs.known || !kubeconfig.known || !context.known || !cluster.known || !providerNamespace.known) {
      this.baselineRead();
      const summary = 'preview: the helm Release depends on values known only during the update; its workloads will be traced then';
      this.lines.say({ severity: 'info', text: summary }, false);
      return { outcome: 'previewed', summary };
    }
    const plan = releasePlanFromInputs(args.resourceName, inputs.value);
    const kc = providerKubeConfig(kubeconfig.value, context.value, cluster.value);
    const namespace = plan.namespace ?? providerNamespace.value ?? contextNamespace(kc);
    const list = () => releaseWorkloads(kc, namespace, plan, args.kinds);
    const before = await list().finally(() => this.baselineRead());
    if (pulumi.runtime.isDryRun()) {
      const live = before.map((w) => ({ ...w, state: liveStateOf(w.kind, w.live) }));
      const summary = releasePreviewLine(plan, namespace, live);
      this.lines.say({ severity: 'info', text: summary }, false);
      return { outcome: 'previewed', summary };
    }
    const verdicts = await this.followWrites(args, kc, namespace, before, list);
    return this.conclude(verdicts);
  }

  /** Lists the release's workloads while the provider works; traces each one it writes. */
  private async followWrites(
    args: ReleaseTraceArgs,
    kc: ReturnType<typeof providerKubeConfig>,
    namespace: string,
    before: ReleaseWorkload[],
    list: () => Promise<ReleaseWorkload[]>,
  ): Promise<Verdict[]> {
    const { trackRollout } = await import('../track/index.js');
    const traced = new Map<string, Tracking>();
    let done = false;
    args.provided.then(
      () => (done = true),
      () => (done = true),
    );
    for (let last = false; !last; ) {
      last = done;
      for (const write of releaseWrites(before, await list().catch(() => []))) {
        const { kind, name } = write.workload;
        if (traced.has(`${kind}/${name}`)) continue;
        const tracking = trackRollout({
          name,
          kind,
          namespace,
          kubeconfig: kc,
          timeoutSeconds: args.timeoutSeconds ?? 600,
          noProgressTimeoutSeconds: args.noProgressTimeoutSeconds,
          policy: args.policy,
          logs: args.logs,
          minGeneration: write.minGeneration,
          notFoundGraceSeconds: 60,
          ...(args.record !== undefined ? { record: args.record } : {}),
        });
        const lines = new StatusLines();
        tracking.subscribe((e) => {
          const line = lines.next(e);
          if (line) this.lines.say({ ...line, text: `${kind} ${name}: ${line.text}` }, true, true);
        });
        stopWhenProviderFinishes(tracking, args.provided, args.settleSeconds ?? 30);
        traced.set(`${kind}/${name}`, tracking);
      }
      if (!last) await Promise.race([args.provided.catch(() => undefined), new Promise((r) => setTimeout(r, LIST_EVERY_MS))]);
    }
    return Promise.all([...traced.values()].map((t) => t.verdict));
  }

  private conclude(verdicts: Verdict[]): { outcome: TraceOutcome; summary: string } {
    if (verdicts.length === 0) {
      const summary = 'the helm Release wrote no workload: nothing rolled out';
      this.lines.say({ severity: 'info', text: summary }, false);
      return { outcome: 'unchanged', summary };
    }
    for (const v of verdicts) {
      const name = `${v.workload.kind} ${v.workload.name}`;
      if (v.outcome === 'succeeded') this.lines.say({ severity: 'info', text: `${name}: ${v.summary}` }, false);
      else {
        const text = `${formatVerdict(v, { color: false })}\n(observe mode: helm's own wait, run by the kubernetes provider, decides the update)`;
        this.lines.say({ severity: 'warn', text }, false);
      }
    }
    const failed = verdicts.find((v) => v.outcome !== 'succeeded');
    const summary = verdicts.map((v) => `${v.workload.kind} ${v.workload.name}: ${v.outcome}`).join('; ');
    return { outcome: failed ? failed.outcome : 'succeeded', summary };
  }
}

/** The workloads of the release in `namespace`, of the traced kinds. */
async function releaseWorkloads(
  kc: ReturnType<typeof providerKubeConfig>,
  namespace: string,
  plan: ReleasePlan,
  kinds: readonly WorkloadKind[],
): Promise<(ReleaseWorkload & { live: Parameters<typeof liveStateOf>[1] })[]> {
  const lists = await Promise.all(kinds.map(async (kind) => ({ kind, items: await listHelmManaged(kc, kind, namespace) })));
  return lists.flatMap(({ kind, items }) =>
    items
      .map((live) => ({
        kind,
        name: live.metadata?.name ?? '',
        uid: live.metadata?.uid,
        generation: live.metadata?.generation,
        release: live.metadata?.annotations?.['meta.helm.sh/release-name'],
        live,
      }))
      .filter((w) => isTheRelease(plan, w.release)),
  );
}
