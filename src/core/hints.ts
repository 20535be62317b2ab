/** Copy-paste kubectl commands for a problem or a Deployment. */
import type { KindFacts } from './kind-facts.js';
import type { NamespacedName, Problem } from './types.js';

/** The traced workload as hints name it: its namespace, name and kind's facts (`RolloutState.facts`); none: a pod's own hints only. */
export type HintRef = NamespacedName & { facts?: Pick<KindFacts, 'kind' | 'short' | 'rollsOut'> };

/** What a hint can be about. */
export interface HintSubject {
  kind: Problem['object']['kind'];
  name: string;
  container?: string;
  /** Add `logs --previous` (the container crashed). */
  crashed?: boolean;
  /** The object is gone: look for it and its events instead of rolling it out or back. */
  deleted?: boolean;
  /** The Deployment is paused: resuming it is the first thing to try. */
  paused?: boolean;
}

/**
 * kubectl commands to dig into `subject` (or, without one, into the Deployment rollout):
 * logs of the crashed container, describe, the object's events, and rollout status / undo.
 */
export function kubectlHints(ref: HintRef, subject?: HintSubject): string[] {
  const ns = `kubectl -n ${ref.namespace}`;
  const out: string[] = [];
  if (subject?.kind === 'Pod' && subject.deleted) {
    // Its logs and `describe` went with it; its Events stay (about an hour).
    out.push(`${ns} get events --field-selector involvedObject.name=${subject.name}`);
  } else if (subject?.kind === 'Pod') {
    if (subject.container) {
      out.push(`${ns} logs ${subject.name} -c ${subject.container}${subject.crashed ? ' --previous' : ''}`);
    }
    out.push(`${ns} describe pod ${subject.name}`);
    out.push(`${ns} get events --field-selector involvedObject.name=${subject.name}`);
  } else if (subject?.kind === 'ReplicaSet') {
    out.push(`${ns} describe rs ${subject.name}`);
    out.push(`${ns} get events --field-selector involvedObject.name=${subject.name}`);
  } else if (subject?.kind === 'PersistentVolumeClaim') {
    out.push(`${ns} describe pvc ${subject.name}`);
  } else if (subject?.kind === 'Deployment' && subject.deleted) {
    out.push(`${ns} get deployment ${subject.name}`);
    out.push(`${ns} get events --field-selector involvedObject.name=${subject.name}`);
    return out;
  }
  const { facts } = ref;
  if (!ref.name || !facts) return out;
  if (!facts.rollsOut) {
    // No rollout to watch or undo (a Job): its description, and the logs of one of its pods.
    out.push(`${ns} describe ${facts.short} ${ref.name}`);
    if (!subject?.deleted) out.push(`${ns} logs ${facts.short}/${ref.name}`);
  } else {
    const resource = facts.kind.toLowerCase();
    if (subject?.paused) out.push(`${ns} rollout resume ${resource}/${ref.name}`);
    out.push(`${ns} rollout status ${resource}/${ref.name}`);
    out.push(`${ns} rollout undo ${resource}/${ref.name}`);
  }
  return out;
}
