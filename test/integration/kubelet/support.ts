/**
 * Small helpers for the simulated-kubelet integration tests: typed clients, event listing,
 * pod polling with bounded timeouts and measured durations.
 */
import type { TestContext } from 'node:test';
import type { CoreV1Event, V1Pod, V1PodSpec } from '@kubernetes/client-node';
import { clients, waitUntil, withNamespace } from '../../helpers/cluster.js';

export { clients, waitUntil, withNamespace };

/** Milliseconds since `t0`, formatted for test output. */
export function took(t0: number): string {
  return `${((Date.now() - t0) / 1000).toFixed(1)}s`;
}

/** Prints a measured figure under the test's name. */
export function report(t: TestContext, line: string): void {
  t.diagnostic(line);
}

/** Creates a bare pod and returns its name. */
export async function createPod(
  namespace: string,
  name: string,
  spec: V1PodSpec,
  annotations: Record<string, string> = {},
): Promise<string> {
  const { core } = clients();
  await core.createNamespacedPod({ namespace, body: { metadata: { name, annotations }, spec } });
  return name;
}

/** Polls the pod until `check` returns a truthy value. */
export async function waitPod<T>(
  namespace: string,
  name: string,
  check: (pod: V1Pod) => T | undefined | false | null,
  what: string,
  timeoutMs = 60_000,
): Promise<T> {
  const { core } = clients();
  return waitUntil(async () => check(await core.readNamespacedPod({ name, namespace })), {
    what: `${namespace}/${name}: ${what}`,
    timeoutMs,
    intervalMs: 250,
  });
}

/** Events about one object, oldest first. */
export async function eventsFor(namespace: string, name: string): Promise<CoreV1Event[]> {
  const { core } = clients();
  const list = await core.listNamespacedEvent({ namespace, fieldSelector: `involvedObject.name=${name}` });
  return list.items.sort((a, b) => String(a.firstTimestamp ?? '').localeCompare(String(b.firstTimestamp ?? '')));
}

/** Waits for an event with `reason` (and optionally matching `message`) about `name`. */
export async function waitEvent(
  namespace: string,
  name: string,
  reason: string,
  message?: string | RegExp,
  timeoutMs = 60_000,
): Promise<CoreV1Event> {
  return waitUntil(
    async () =>
      (await eventsFor(namespace, name)).find(
        (e) =>
          e.reason === reason &&
          (message === undefined || (typeof message === 'string' ? e.message === message : message.test(e.message ?? ''))),
      ),
    { what: `event ${reason}${message ? ` "${message}"` : ''} for ${namespace}/${name}`, timeoutMs, intervalMs: 300 },
  );
}

/** The single container status of a pod (or of its `index`th container). */
export function cs(pod: V1Pod, index = 0) {
  return pod.status?.containerStatuses?.[index];
}
