/**
 * Which workloads a label selector picks (`kubectl get deployments -l ...`): for tracing
 * everything one `kubectl apply` touched without naming each one. Read-only: one list per kind.
 */
import type { KubeConfig } from '@kubernetes/client-node';
import { collectionPath, KIND_FACTS, type WorkloadKind } from '../core/index.js';
import { RolloutTraceError } from '../errors.js';
import { describeFailure, forbiddenError, serverMessage, statusOf, unreachableError } from './api-errors.js';
import { describeTarget } from './kubeconfig.js';
import { rawGet } from './raw-get.js';
import { checkReachable } from './reachability.js';

/**
 * The workloads of `kinds` in `namespace` that `selector` matches, by kind then name
 * (`kubectl get deploy,sts,ds,job -l ...`).
 *
 * @throws RolloutTraceError `bad-input` (the apiserver rejects the selector), `workload-not-found`
 *   (nothing matches), `forbidden`, `cluster-unreachable` or `namespace-not-found`.
 */
export async function workloadsMatching(
  kc: KubeConfig,
  namespace: string,
  kinds: readonly WorkloadKind[],
  selector: string,
  timeoutSeconds = 10,
): Promise<Array<{ kind: WorkloadKind; name: string }>> {
  await checkReachable(kc, namespace, { timeoutSeconds });
  const found: Array<{ kind: WorkloadKind; name: string }> = [];
  for (const kind of kinds) {
    const names = await namesMatching(kc, namespace, kind, selector, timeoutSeconds);
    for (const name of names.sort()) found.push({ kind, name });
  }
  if (found.length === 0) {
    const what = kinds.length === 1 ? `${kinds[0]}` : 'Deployment, StatefulSet, DaemonSet or Job';
    const resources = kinds.map((k) => KIND_FACTS[k].resource).join(',');
    throw new RolloutTraceError(
      'workload-not-found',
      `No ${what} in namespace "${namespace}" of ${describeTarget(kc)} matches the label selector ${JSON.stringify(selector)}. ` +
        `See their labels with: kubectl -n ${namespace} get ${resources} --show-labels`,
    );
  }
  return found;
}

/** One kind's names matching `selector`. */
async function namesMatching(
  kc: KubeConfig,
  namespace: string,
  kind: WorkloadKind,
  selector: string,
  timeoutSeconds: number,
): Promise<string[]> {
  try {
    const list = await rawGet<{ items?: Array<{ metadata?: { name?: string } }> }>(
      kc,
      collectionPath(kind, encodeURIComponent(namespace)),
      { labelSelector: selector },
      AbortSignal.timeout(timeoutSeconds * 1000),
    );
    return (list.items ?? []).map((d) => d.metadata?.name ?? '').filter((n) => n !== '');
  } catch (err) {
    const status = statusOf(err);
    if (status === 400) {
      throw new RolloutTraceError(
        'bad-input',
        `The label selector ${JSON.stringify(selector)} is not valid: ${serverMessage(err) ?? describeFailure(err)}. ` +
          'Write it as kubectl does: key=value, key!=value, key in (a,b), key notin (a,b), key or !key, joined by commas.',
        { cause: err },
      );
    }
    if (status === 401 || status === 403) throw forbiddenError(kc, 'list', KIND_FACTS[kind].resource, namespace, err);
    throw unreachableError(kc, timeoutSeconds, err);
  }
}
