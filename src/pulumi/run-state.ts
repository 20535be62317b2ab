/**
 * State that lives exactly as long as one program run. An Automation API app runs its inline
 * program several times in one process (sdk: automation/server.js), each run with its own root
 * stack resource: keyed by that resource, nothing here outlives its run.
 */
import * as pulumi from '@pulumi/pulumi';
import type { ProviderSettings } from './baseline.js';
import type { ListCache } from './deployment-lookup.js';

/** What the traces of one run share. */
export interface RunState {
  /** traceDeployments() was called in this run. */
  registered: boolean;
  /** Recent namespace lists (a few seconds' reuse between traces registered together). */
  lists: ListCache;
  /** Deployment names traced by the SDK-side transformation (the engine-side one skips them). */
  tracedInProgram: Set<string>;
  /** Settings of the kubernetes providers created in this run, by URN (for engine-side transforms). */
  providersByUrn: Map<string, ProviderSettings>;
  /** Providers already warned about (unknown kubeconfig): one line each. */
  warnedProviders: Set<unknown>;
}

const runs = new WeakMap<object, RunState>();
/** Outside a run (e.g. a RolloutTrace built in a unit test), state lives with this key. */
const outsideRun = {};

/** The current run's state. */
export function currentRun(): RunState {
  const key = pulumi.runtime.getStackResource() ?? outsideRun;
  let state = runs.get(key);
  if (!state) {
    state = { registered: false, lists: new Map(), tracedInProgram: new Set(), providersByUrn: new Map(), warnedProviders: new Set() };
    runs.set(key, state);
  }
  return state;
}
