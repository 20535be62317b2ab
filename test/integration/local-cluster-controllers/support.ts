/**
 * Helpers for the simulated cluster controllers' tests (local-cluster/controllers/): a namespace
 * handed to controllers the test starts itself (`sim.rollout-trace.dev/controllers=<id>`), so the
 * test can stop and restart them and give them pools and classes of its own whether or not the
 * shared cluster runs its own, and the Events of one object.
 */
import { randomBytes } from 'node:crypto';
import type { TestContext } from 'node:test';
import { type CoreV1Event, PatchStrategy, setHeaderOptions } from '@kubernetes/client-node';
import {
  type Controllers,
  type ControllersOptions,
  PRIVATE_CONTROLLERS_LABEL,
  startControllers,
} from '../../../local-cluster/controllers/index.js';
import { clients, kubeConfig, waitUntil, withNamespace } from '../../helpers/cluster.js';

export { clients, waitUntil };

/** A namespace served only by the test's own controllers, and how to (re)start them. */
export interface PrivateControllers {
  ns: string;
  /** The selector the controllers serve. */
  selector: string;
  /** The running controllers (replaced by `restart`). */
  controllers: Controllers;
  /** Stops them (they stay stopped until `start`). */
  stop(): Promise<void>;
  /** Starts them again with the same options. */
  start(): Promise<void>;
}

/** Creates a namespace for the test and starts controllers serving only it; both end with the test. */
export async function privateControllers(
  t: TestContext,
  prefix: string,
  options: Omit<ControllersOptions, 'kubeconfig' | 'namespaceSelector'>,
): Promise<PrivateControllers> {
  const ns = await withNamespace(t, prefix);
  const id = randomBytes(4).toString('hex');
  const { core } = clients();
  await core.patchNamespace(
    { name: ns, body: { metadata: { labels: { [PRIVATE_CONTROLLERS_LABEL]: id } } } },
    setHeaderOptions('Content-Type', PatchStrategy.MergePatch),
  );
  const selector = `${PRIVATE_CONTROLLERS_LABEL}=${id}`;
  const lines: string[] = [];
  const begin = () => startControllers({ ...options, kubeconfig: kubeConfig(), namespaceSelector: selector, log: (l) => lines.push(l) });
  const handle: PrivateControllers = {
    ns,
    selector,
    controllers: await begin(),
    stop: () => handle.controllers.stop(),
    start: async () => {
      handle.controllers = await begin();
    },
  };
  t.after(async () => {
    await handle.controllers.stop();
    if (lines.length > 0) t.diagnostic(`controller lines:\n${lines.slice(-20).join('\n')}`);
  });
  return handle;
}

/** The Events about one object of `ns`, oldest first. */
export async function eventsAbout(ns: string, kind: string, name: string): Promise<CoreV1Event[]> {
  const { core } = clients();
  const list = await core.listNamespacedEvent({ namespace: ns, fieldSelector: `involvedObject.kind=${kind},involvedObject.name=${name}` });
  return list.items.sort((a, b) => String(a.firstTimestamp).localeCompare(String(b.firstTimestamp)));
}

/** Waits for an Event of `reason` about the object and returns it. */
export async function waitEvent(ns: string, kind: string, name: string, reason: string, timeoutMs = 30_000): Promise<CoreV1Event> {
  return waitUntil(async () => (await eventsAbout(ns, kind, name)).find((e) => e.reason === reason), {
    what: `a ${reason} Event about ${kind} ${ns}/${name}`,
    timeoutMs,
  });
}
