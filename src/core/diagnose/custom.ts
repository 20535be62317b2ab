/** Runs the user's {@link Classifier}s over one pod's containers; never lets one throw. */
import type { CoreV1Event, V1ContainerStatus, V1Deployment, V1Pod } from '@kubernetes/client-node';
import { customClassOf } from '../classifiers.js';
import { canBecomeReady } from '../k8s.js';
import type { ClassifierResult, ResolvedClassifier } from '../types.js';
import type { Finding } from './container.js';
import { firstLine } from './first-line.js';

/** A classifier that threw or returned something that is not a result. */
export interface ClassifierFailure {
  classifier: string;
  pod: string;
  container: string;
  /** What went wrong, one line. */
  error: string;
}

/** What the classifiers found for one pod. */
export interface CustomDiagnosis {
  findings: Finding[];
  failures: ClassifierFailure[];
}

const MAX_FAILURE_CHARS = 200;

function describeError(e: unknown): string {
  try {
    if (e instanceof Error) return firstLine(`threw ${e.name}: ${e.message}`, MAX_FAILURE_CHARS);
    return firstLine(`threw ${String(e)}`, MAX_FAILURE_CHARS);
  } catch {
    return 'threw a value that cannot be printed';
  }
}

/** Why `r` is not a usable result, or undefined if it is one. */
function malformed(r: unknown): string | undefined {
  if (typeof (r as { then?: unknown }).then === 'function') return 'returned a Promise; classifiers must be synchronous';
  const o = r as Partial<ClassifierResult>;
  if (
    typeof r !== 'object' ||
    typeof o.reason !== 'string' ||
    o.reason === '' ||
    typeof o.explanation !== 'string' ||
    o.explanation === ''
  ) {
    let shown: string;
    try {
      shown = typeof r === 'object' ? JSON.stringify(r) : String(r);
    } catch {
      shown = typeof r;
    }
    return firstLine(
      `returned ${shown}; a classifier returns { reason: string, explanation: string } (both non-empty) or undefined`,
      MAX_FAILURE_CHARS,
    );
  }
  return undefined;
}

function finding(c: ResolvedClassifier, pod: V1Pod, status: V1ContainerStatus, init: boolean, r: ClassifierResult): Finding {
  const exitCode =
    typeof r.exitCode === 'number' ? r.exitCode : (status.state?.terminated?.exitCode ?? status.lastState?.terminated?.exitCode);
  return {
    class: customClassOf(c.name),
    object: { kind: 'Pod', name: pod.metadata?.name ?? '' },
    container: status.name,
    ...(init ? { initContainer: true } : {}),
    reason: r.reason,
    message: typeof r.message === 'string' ? r.message : '',
    explanation: r.explanation,
    ...(exitCode !== undefined ? { exitCode } : {}),
    restartCount: status.restartCount ?? 0,
  };
}

/**
 * Calls every classifier for every (init) container of `pod` that has a status. A classifier that
 * throws or returns a malformed value yields a {@link ClassifierFailure} instead of a finding.
 * `events` are the pod's own events.
 */
export function classifyPod(
  pod: V1Pod,
  events: CoreV1Event[],
  now: number,
  classifiers: readonly ResolvedClassifier[],
  deployment?: V1Deployment,
): CustomDiagnosis {
  const out: CustomDiagnosis = { findings: [], failures: [] };
  if (classifiers.length === 0 || !canBecomeReady(pod)) return out;
  const specs = [...(pod.spec?.initContainers ?? []), ...(pod.spec?.containers ?? [])];
  const statuses = [
    ...(pod.status?.initContainerStatuses ?? []).map((status) => ({ status, init: true })),
    ...(pod.status?.containerStatuses ?? []).map((status) => ({ status, init: false })),
  ];
  for (const { status, init } of statuses) {
    const spec = specs.find((s) => s.name === status.name);
    const input = { pod, container: status, ...(spec ? { spec } : {}), init, events, ...(deployment ? { deployment } : {}), now };
    for (const c of classifiers) {
      const fail = (error: string) =>
        out.failures.push({ classifier: c.name, pod: pod.metadata?.name ?? '', container: status.name, error });
      try {
        const r: unknown = c.classify(input);
        if (r === undefined || r === null || r === false) continue;
        // Reading the result may run user getters too, hence inside the try.
        const why = malformed(r);
        if (why) fail(why);
        else out.findings.push(finding(c, pod, status, init, r as ClassifierResult));
      } catch (e) {
        fail(describeError(e));
      }
    }
  }
  return out;
}
