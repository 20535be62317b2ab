/**
 * Which namespaces a simulated controller serves, chosen by a label selector on the Namespace (as
 * ingress-nginx's `--watch-namespace-selector`). The cluster's own controllers serve every
 * namespace without the label {@link PRIVATE_CONTROLLERS_LABEL}; a test that needs controllers of
 * its own (stopped, restarted, with a pool of its own) labels its namespace and starts them with
 * `namespaceSelector: 'sim.rollout-trace.dev/controllers=<id>'`, so the two never both act.
 */
import type { CoreV1Api, KubeConfig, V1Namespace } from '@kubernetes/client-node';
import { ObjectWatch } from '../kubelet/object-watch.js';

/** The Namespace label that hands a namespace to controllers a test started itself. */
export const PRIVATE_CONTROLLERS_LABEL = 'sim.rollout-trace.dev/controllers';
/** The selector of the cluster's own controllers: every namespace not handed to private ones. */
export const CLUSTER_NAMESPACE_SELECTOR = `!${PRIVATE_CONTROLLERS_LABEL}`;

/** The namespaces matching a selector, kept current by a watch. */
export class NamespaceScope {
  private readonly names = new Map<string, string>();
  private readonly watch: ObjectWatch<V1Namespace>;

  constructor(
    kc: KubeConfig,
    core: CoreV1Api,
    selector: string,
    /** Runs when a namespace starts to match (its objects are to be looked at again). */
    entered: (namespace: string) => void,
    log: (line: string) => void,
  ) {
    this.watch = new ObjectWatch<V1Namespace>(
      kc,
      {
        path: '/api/v1/namespaces',
        what: `namespace watch (${selector})`,
        labelSelector: selector,
        list: () => core.listNamespace({ labelSelector: selector }),
      },
      {
        upsert: (ns) => {
          const name = ns.metadata?.name ?? '';
          const known = [...this.names.values()].includes(name);
          this.names.set(ns.metadata?.uid ?? '', name);
          if (!known) entered(name);
        },
        remove: (uid) => this.names.delete(uid),
        known: () => [...this.names.keys()],
      },
      log,
    );
  }

  /** Lists and watches the namespaces; resolves after the first list. */
  start(): Promise<void> {
    return this.watch.start();
  }

  /** Closes the watch. */
  stop(): void {
    this.watch.stop();
  }

  /** Whether the controller serves `namespace`. */
  has(namespace: string): boolean {
    for (const n of this.names.values()) if (n === namespace) return true;
    return false;
  }
}
