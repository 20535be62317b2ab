/** Pure diagnosis: Kubernetes objects in, {@link Problem}s out. */
import type { CoreV1Event, V1Pod } from '@kubernetes/client-node';
import { isCustomClass } from '../classifiers.js';
import { type HintRef, kubectlHints } from '../hints.js';
import type { Problem } from '../types.js';
import type { Finding } from './container.js';
import { warningDigests } from './events.js';
import { diagnosePodFindings, type PodDiagnosisOptions, problemId } from './pod.js';

export { parseMissing } from './config.js';
export type { Finding } from './container.js';
export { type ClassifierFailure, type CustomDiagnosis, classifyPod } from './custom.js';
export { diagnoseNode, evictionSeconds } from './node.js';
export { diagnosePodFindings, problemId } from './pod.js';
export { probeBudgetSeconds, probeHandler } from './probe.js';
export { classifyPull, type PullKind } from './pull.js';
export { diagnoseDeployment, diagnosePaused, diagnosePvc, diagnoseReplicaSet, QUOTA_REFUSAL } from './workload.js';

/** Turns a finding into a Problem first seen at `now`, with its warning events and kubectl hints. */
export function toProblem(f: Finding, ref: HintRef, events: CoreV1Event[], now: number): Problem {
  const custom = isCustomClass(f.class);
  // A custom rule's container crashed if it restarted: its previous instance holds the story.
  const crashed =
    f.class === 'crash-loop' || f.class === 'oom-killed' || f.class === 'init-container' || (custom && (f.restartCount ?? 0) > 0);
  // A container whose image or config never resolved has no log to read.
  const neverStarted = f.class === 'image-pull-not-found' || f.class === 'image-pull-transient' || f.class === 'config-error';
  const hints = kubectlHints(ref, {
    kind: f.object.kind,
    name: f.object.name,
    ...(f.container && !neverStarted ? { container: f.container } : {}),
    crashed,
    ...(f.class === 'paused' ? { paused: true } : {}),
  });
  // The node is what to look at (its conditions and the kubelet), before the pod.
  if (f.node) hints.unshift(`kubectl describe node ${f.node.name}`);
  return {
    id: problemId(f),
    ...f,
    firstSeen: now,
    lastSeen: now,
    events: warningDigests(events).slice(0, 5),
    hints,
  };
}

/**
 * Diagnoses one pod: the real cause per container in plain words plus the raw reason.
 * `events` are Events about this pod (others are ignored). `now` stamps firstSeen/lastSeen.
 */
export function diagnosePod(
  pod: V1Pod,
  events: CoreV1Event[],
  now: number,
  opts: PodDiagnosisOptions & { workload?: HintRef } = {},
): Problem[] {
  const name = pod.metadata?.name ?? '';
  const own = events.filter((e) => e.involvedObject?.kind === 'Pod' && e.involvedObject?.name === name);
  const ref = opts.workload ?? { namespace: pod.metadata?.namespace ?? 'default', name: '' };
  return diagnosePodFindings(pod, own, now, opts).map((f) => toProblem(f, ref, own, now));
}
