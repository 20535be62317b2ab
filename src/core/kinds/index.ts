/**
 * The registry of workload kinds: one module each ({@link KindModule}), its facts in
 * `module.facts`. The pipeline above the modules (intake, emit, hold, verdict) reaches a kind only
 * through here; nothing below the modules does. Adding a kind is its module and its facts entry,
 * registered here (CONTRIBUTING.md, "Adding a workload kind"); {@link registerKind} takes one at
 * run time.
 */
import type { RolloutState } from '../state.js';
import type { WorkloadKind } from '../types.js';
import { daemonSetModule } from './daemonset.js';
import { deploymentModule } from './deployment.js';
import { jobModule } from './job.js';
import type { KindModule } from './module.js';
import { statefulSetModule } from './statefulset.js';

const MODULES = new Map<string, KindModule>();

/** Registers a kind's module (its facts are `module.facts`); a kind registered again is replaced. */
export function registerKind(module: KindModule): void {
  MODULES.set(module.facts.kind, module);
}

for (const m of [deploymentModule, statefulSetModule, daemonSetModule, jobModule]) registerKind(m);

/** A kind's module. */
export function kindModule(kind: WorkloadKind): KindModule {
  const module = MODULES.get(kind);
  if (!module) throw new Error(`no module is registered for the workload kind ${JSON.stringify(kind)}`);
  return module;
}

/** The module of the traced workload's kind. */
export function moduleOf(state: RolloutState): KindModule {
  return kindModule(state.target.kind);
}
