/**
 * The workload kinds: one module each ({@link KindModule}) and their facts ({@link KIND_FACTS}).
 * Adding a kind is one module and one entry here and in facts.ts (CONTRIBUTING.md, "Adding a kind").
 */
import type { RolloutState } from '../state.js';
import type { WorkloadKind } from '../types.js';
import { DAEMONSET } from './daemonset.js';
import { DEPLOYMENT } from './deployment.js';
import { JOB } from './job.js';
import type { KindModule } from './module.js';
import { STATEFULSET } from './statefulset.js';

/** Every kind's module. */
export const KIND_MODULES: Readonly<Record<WorkloadKind, KindModule>> = {
  Deployment: DEPLOYMENT,
  StatefulSet: STATEFULSET,
  DaemonSet: DAEMONSET,
  Job: JOB,
};

/** The module of the traced workload's kind. */
export function moduleOf(state: RolloutState): KindModule {
  return KIND_MODULES[state.target.kind ?? 'Deployment'];
}
