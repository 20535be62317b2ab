/**
 * The workload kinds: one module each ({@link KindModule}) and their facts ({@link KIND_FACTS}).
 * Adding a kind is one module and one entry here and in facts.ts (CONTRIBUTING.md, "Adding a kind").
 */
import type { RolloutState } from '../state.js';
import type { WorkloadKind } from '../types.js';
import { daemonSetModule } from './daemonset.js';
import { deploymentModule } from './deployment.js';
import { jobModule } from './job.js';
import type { KindModule } from './module.js';
import { statefulSetModule } from './statefulset.js';

/** A kind's module. */
export function kindModule(kind: WorkloadKind): KindModule {
  switch (kind) {
    case 'Deployment':
      return deploymentModule();
    case 'StatefulSet':
      return statefulSetModule();
    case 'DaemonSet':
      return daemonSetModule();
    case 'Job':
      return jobModule();
  }
}

/** The module of the traced workload's kind. */
export function moduleOf(state: RolloutState): KindModule {
  return kindModule(state.target.kind ?? 'Deployment');
}
