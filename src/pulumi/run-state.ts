/**
 * State that lives exactly as long as one program run. An Automation API app runs its inline
 * program several times in one process (sdk: automation/server.js), each run with its own root
 * stack resource: keyed by that resource, nothing here outlives its run.
 */
import * as pulumi from '@pulumi/pulumi';
import type { RolloutEvent, Verdict, WorkloadKind } from '../core/index.js';
import type { ProviderSettings } from './baseline.js';
import type { ListCache } from './deployment-lookup.js';
import { outputValue } from './outputs.js';
import type { RolloutTrace } from './rollout-trace.js';

/** What the traces of one run share. */
export interface RunState {
  /** traceDeployments() was called in this run. */
  registered: boolean;
  /** Recent namespace lists (a few seconds' reuse between traces registered together). */
  lists: ListCache;
  /**
   * Deployments traced in the program (the engine-side transform skips them): by resource name,
   * the parents they were declared under (undefined: the stack). Two Deployments of the same
   * name under different parents are two resources (two URNs).
   */
  tracedInProgram: Map<string, (pulumi.Resource | undefined)[]>;
  /** Settings of the kubernetes providers created in this run, by URN (for engine-side transforms). */
  providersByUrn: Map<string, ProviderSettings>;
  /** Providers already warned about (unknown kubeconfig): one line each. */
  warnedProviders: Set<unknown>;
  /** Traces of workloads declared under a component in the program, by that component (rollouts-of.ts). */
  tracesUnder: Map<pulumi.Resource, RolloutTrace[]>;
  /** Traces of a provider-side component's children, by the component's URN. */
  tracesUnderUrn: Map<string, RolloutTrace[]>;
  /** The program's components by URN: `done` settles once the registration answered (step-end.ts). */
  componentRegistrations: Map<string, { done: Promise<void>; end: () => void }>;
  /** The verdicts of the run's traces so far, and their events when a report is asked for (run-outputs.ts). */
  ended: { verdicts: Verdict[]; events: RolloutEvent[] };
}

const runs = new WeakMap<object, RunState>();
/** Outside a run (e.g. a RolloutTrace built in a unit test), state lives with this key. */
const outsideRun = {};

/** The current run's state. */
export function currentRun(): RunState {
  const key = pulumi.runtime.getStackResource() ?? outsideRun;
  let state = runs.get(key);
  if (!state) {
    state = {
      registered: false,
      lists: new Map(),
      tracedInProgram: new Map(),
      providersByUrn: new Map(),
      warnedProviders: new Set(),
      tracesUnder: new Map(),
      tracesUnderUrn: new Map(),
      componentRegistrations: new Map(),
      ended: { verdicts: [], events: [] },
    };
    runs.set(key, state);
  }
  return state;
}

/** Remembers a Deployment traced in the program, by name and parent. */
export function markTraced(run: RunState, kind: WorkloadKind, name: string, parent: pulumi.Resource | undefined): void {
  const key = `${kind}/${name}`;
  run.tracedInProgram.set(key, [...(run.tracedInProgram.get(key) ?? []), parent]);
}

/** Whether the program already traces the Deployment `name` under `parent`. */
export function tracedInProgram(run: RunState, kind: WorkloadKind, name: string, parent: pulumi.Resource | undefined): boolean {
  return run.tracedInProgram.get(`${kind}/${name}`)?.includes(parent) ?? false;
}

/**
 * Whether the program already traces the Deployment an engine-side transform sees (its parent is
 * a URN there): compares the parents' URNs, the stack's for a Deployment declared without parent.
 */
export async function tracedInProgramAt(run: RunState, kind: WorkloadKind, name: string, parentUrn: string | undefined): Promise<boolean> {
  const parents = run.tracedInProgram.get(`${kind}/${name}`);
  if (!parents) return false;
  const stack = pulumi.runtime.getStackResource();
  const urnOf = (r: pulumi.Resource | undefined) => {
    const resource = r ?? stack;
    return resource ? outputValue(resource.urn).catch(() => undefined) : Promise.resolve(undefined);
  };
  const urns = await Promise.all(parents.map(urnOf));
  return urns.includes(parentUrn);
}
