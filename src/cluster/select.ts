/**
 * Which Deployments a label selector picks (`kubectl get deployments -l ...`): for tracing
 * everything one `kubectl apply` touched without naming each Deployment. Read-only: one list.
 */
import type { KubeConfig, V1Deployment } from '@kubernetes/client-node';
import { RolloutTraceError } from '../errors.js';
import { describeFailure, forbiddenError, serverMessage, statusOf, unreachableError } from './api-errors.js';
import { describeTarget } from './kubeconfig.js';
import { rawGet } from './raw-get.js';
import { checkReachable } from './reachability.js';

/**
 * The names of the Deployments in `namespace` that `selector` matches, sorted.
 *
 * @throws RolloutTraceError `bad-input` (the apiserver rejects the selector), `deployment-not-found`
 *   (nothing matches), `forbidden`, `cluster-unreachable` or `namespace-not-found`.
 */
export async function deploymentsMatching(kc: KubeConfig, namespace: string, selector: string, timeoutSeconds = 10): Promise<string[]> {
  await checkReachable(kc, namespace, { timeoutSeconds });
  let names: string[];
  try {
    const list = await rawGet<{ items?: V1Deployment[] }>(
      kc,
      `/apis/apps/v1/namespaces/${encodeURIComponent(namespace)}/deployments`,
      { labelSelector: selector },
      AbortSignal.timeout(timeoutSeconds * 1000),
    );
    names = (list.items ?? []).map((d) => d.metadata?.name ?? '').filter((n) => n !== '');
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
    if (status === 401 || status === 403) throw forbiddenError(kc, 'list', 'deployments', namespace, err);
    throw unreachableError(kc, timeoutSeconds, err);
  }
  if (names.length === 0) {
    throw new RolloutTraceError(
      'deployment-not-found',
      `No Deployment in namespace "${namespace}" of ${describeTarget(kc)} matches the label selector ${JSON.stringify(selector)}. ` +
        `See their labels with: kubectl -n ${namespace} get deployments --show-labels`,
    );
  }
  return names.sort();
}
