/**
 * Shared helpers for tests that run against the embedded control plane started by
 * scripts/run-tests.ts (`npm test`). Each test works in a namespace of its own.
 */
import { randomBytes } from 'node:crypto';
import type { TestContext } from 'node:test';
import { AppsV1Api, BatchV1Api, CoreV1Api, KubeConfig, RbacAuthorizationV1Api, Watch } from '@kubernetes/client-node';

/** Path of the test cluster's admin kubeconfig. */
export function kubeconfigPath(): string {
  const p = process.env.ROLLOUT_TRACE_KUBECONFIG;
  if (!p) {
    throw new Error(
      'ROLLOUT_TRACE_KUBECONFIG is not set: integration tests run against the embedded control plane. ' +
        'Run them with `npm test`, or start a cluster with `npm run -s cluster:up` and set ' +
        'ROLLOUT_TRACE_KUBECONFIG to the printed kubeconfig path.',
    );
  }
  return p;
}

/** The test cluster's admin kubeconfig, loaded. */
export function kubeConfig(): KubeConfig {
  const kc = new KubeConfig();
  kc.loadFromFile(kubeconfigPath());
  return kc;
}

/** Typed API clients for the test cluster. */
export function clients(kc: KubeConfig = kubeConfig()) {
  return {
    kc,
    core: kc.makeApiClient(CoreV1Api),
    apps: kc.makeApiClient(AppsV1Api),
    batch: kc.makeApiClient(BatchV1Api),
    rbac: kc.makeApiClient(RbacAuthorizationV1Api),
  };
}

/**
 * Creates a fresh namespace for this test and deletes it when the test ends.
 * Waits until its `default` ServiceAccount has a token, so pods can be created at once.
 */
export async function withNamespace(t: TestContext, prefix = 'test'): Promise<string> {
  const { core } = clients();
  const clean = prefix
    .toLowerCase()
    .replace(/[^a-z0-9-]/g, '-')
    .slice(0, 40)
    .replace(/-+$/, '');
  const name = `${clean}-${randomBytes(3).toString('hex')}`;
  await core.createNamespace({ body: { metadata: { name, labels: { 'rollout-trace.dev/test': 'true' } } } });
  t.after(async () => {
    if (process.env.ROLLOUT_TRACE_KEEP_NAMESPACES) return;
    await core.deleteNamespace({ name }).catch(() => undefined);
  });
  await waitUntil(
    async () => {
      const sa = await core.readNamespacedServiceAccount({ name: 'default', namespace: name }).catch(() => undefined);
      return (sa?.secrets ?? []).length > 0;
    },
    // Up to a minute: after an apiserver restart (the fault suite) the controller-manager's token
    // controller re-syncs before it serves new namespaces.
    { what: `ServiceAccount default/${name} token`, timeoutMs: 60_000 },
  );
  return name;
}

/** Polls `check` until it returns a truthy value; throws naming `what` after `timeoutMs`. */
export async function waitUntil<T>(
  check: () => Promise<T | undefined | false | null> | T | undefined | false | null,
  { what, timeoutMs = 30_000, intervalMs = 200 }: { what: string; timeoutMs?: number; intervalMs?: number },
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  while (Date.now() < deadline) {
    try {
      const v = await check();
      if (v) return v as T;
    } catch (err) {
      last = err;
    }
    await new Promise((r) => setTimeout(r, intervalMs));
  }
  throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}${last ? `: ${(last as Error).message}` : ''}`);
}

/** True when the apiserver answers a watch of `path` (default the namespace's pods) from `rv` with 410 Gone. */
export async function answersGone(ns: string, rv: string, path = `/api/v1/namespaces/${ns}/pods`): Promise<boolean> {
  return new Promise((resolve) => {
    let gone = false;
    let controller: AbortController | undefined;
    const timer = setTimeout(() => controller?.abort(), 2000);
    void new Watch(kubeConfig())
      .watch(
        path,
        { resourceVersion: rv, timeoutSeconds: 2 },
        (type, obj: { code?: number }) => {
          if (type === 'ERROR' && obj?.code === 410) gone = true;
        },
        () => {
          clearTimeout(timer);
          resolve(gone);
        },
      )
      .then((c) => (controller = c));
  });
}
