/**
 * The traces of everything a component rolls out, for its dependents: `dependsOn: [chart]` waits
 * for the component's children, not for their traces' verdicts.
 */
import * as pulumi from '@pulumi/pulumi';
import type { TraceOutcome } from './options.js';
import type { RolloutTrace } from './rollout-trace.js';
import { currentRun, type RunState } from './run-state.js';

/** One traced rollout of a component: its trace's name, how it ended and its one-line summary. */
export interface ComponentRollout {
  name: string;
  outcome: TraceOutcome;
  summary: string;
}

/** What {@link rolloutsOf} gives. */
export interface ComponentRollouts {
  /**
   * Resolves to the component's traces once each has a verdict (a gated one that failed rejects,
   * and so do the resources waiting on it): `dependsOn: rolloutsOf(chart).ready`.
   */
  ready: pulumi.Output<pulumi.Resource[]>;
  /** Each traced rollout, once all have ended. */
  rollouts: pulumi.Output<ComponentRollout[]>;
}

/** Remembers `trace` as rolled out by the component `parent` (a resource, or a provider-side component's URN). */
export function rememberUnder(run: RunState, parent: pulumi.Resource | string | undefined, trace: RolloutTrace): void {
  if (parent === undefined) return;
  const byParent = typeof parent === 'string' ? run.tracesUnderUrn : run.tracesUnder;
  const key = parent as never;
  byParent.set(key, [...(byParent.get(key) ?? []), trace]);
}

/**
 * The traces of the workloads `component` rolls out: those declared with it as their parent in the
 * program (`helm.v3.Chart`, `yaml.ConfigFile`, your own components), and the children a
 * provider-side component creates (`helm.v4.Chart`, `yaml.v2`, `kustomize.v2`), known once its
 * registration is done. Call it after the component and `traceDeployments()`/`traceWorkloads()`.
 */
export function rolloutsOf(component: pulumi.Resource): ComponentRollouts {
  const run = currentRun();
  const traces = pulumi
    .output(component.urn)
    .apply((urn) => [...(run.tracesUnder.get(component) ?? []), ...(run.tracesUnderUrn.get(urn) ?? [])]);
  const ready = traces.apply((ts) => pulumi.all(ts.map((t) => t.ready)));
  const rollouts = traces.apply((ts) =>
    pulumi.all(
      ts.map((t) =>
        pulumi
          .all([t.urn, t.outcome, t.summary])
          .apply(([urn, outcome, summary]) => ({ name: urn.split('::').pop() ?? urn, outcome, summary })),
      ),
    ),
  );
  return { ready, rollouts };
}
