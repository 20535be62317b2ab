/**
 * The stand-in of the kubernetes provider's `helm.v3.Release` (pk provider/pkg/provider/helm_release.go):
 * - the release is named by its `name` input, else `<resource name>-<8 hex>` once (Check,
 *   `assignNameIfAutonameable`), and keeps its name on later updates (`name` from the old state);
 * - install and upgrade render the chart (the chart stand-in of components.ts) and write every
 *   object with helm's marks (helm pkg/action/validate.go `setMetadataVisitor`: the label
 *   `app.kubernetes.io/managed-by: Helm`, the annotations `meta.helm.sh/release-name` and
 *   `meta.helm.sh/release-namespace`);
 * - unless `skipAwait`, helm waits for every workload to be ready (`client.Wait = !SkipAwait`,
 *   helm_release.go L608/L734) for `timeout` seconds (default 300), and fails the release with
 *   helm's "timed out waiting for the condition" otherwise;
 * - the outputs carry `status.{name, namespace, status, revision}`.
 */
import { randomBytes } from 'node:crypto';
import { KubernetesObjectApi } from '@kubernetes/client-node';
import { serverSideApply } from './apply.js';
import { renderHelm } from './components.js';
import { poll, workloadReady } from './k8s-await.js';
import type { KubernetesProvider } from './k8s-provider.js';
import type { StateEntry, StepResult } from './steps.js';
import { plain } from './wire.js';

/** The resource type of a Helm release. */
export const RELEASE_TYPE = 'kubernetes:helm.sh/v3:Release';

const WORKLOADS = new Set(['Deployment', 'StatefulSet', 'DaemonSet', 'Job']);

/** Installs or upgrades the release (a same step when its inputs did not change). */
export async function releaseStep(
  provider: KubernetesProvider,
  urn: string,
  resourceName: string,
  props: Record<string, unknown>,
  old: StateEntry | undefined,
  entry: StateEntry,
  dryRun: boolean,
  awaitSeconds: number,
): Promise<StepResult> {
  const inputs = plain(props).value;
  const name: string = old?.outputs?.name ?? inputs.name ?? `${resourceName}-${randomBytes(4).toString('hex')}`;
  const namespace: string = inputs.namespace ?? provider.config.namespace ?? 'default';
  if (dryRun) return { urn, id: old?.id ?? '', outputs: { ...props, name, namespace } };
  if (old && JSON.stringify(old.inputs) === JSON.stringify(props)) {
    Object.assign(entry, { id: old.id, outputs: old.outputs });
    return { urn, id: old.id, outputs: old.outputs };
  }
  const revision = (old?.outputs?.status?.revision ?? 0) + 1;
  const api = KubernetesObjectApi.makeApiClient(provider.kc!);
  const objects = renderHelm(inputs.chart, name, inputs.values ?? {}, namespace).map((o) => helmMarked(o, name, namespace));
  for (const o of objects) await serverSideApply(provider.kc!, api, o, 'helm', true);
  entry.id = `${namespace}/${name}`;
  entry.outputs = { ...inputs, name, namespace, status: { name, namespace, status: 'deployed', revision } };
  if (!inputs.skipAwait) {
    const seconds = Number(inputs.timeout ?? awaitSeconds);
    for (const o of objects.filter((x) => WORKLOADS.has(x.kind))) {
      const ready = await poll(seconds, () => workloadReady(provider.kc!, o.kind, namespace, o.metadata.name));
      if (!ready) throw new Error(`release ${name}: timed out waiting for the condition`);
    }
  }
  return { urn, id: entry.id, outputs: entry.outputs };
}

/** A rendered object with the marks helm writes on everything it installs. */
function helmMarked(o: any, release: string, namespace: string): any {
  const metadata = o.metadata ?? {};
  return {
    ...o,
    metadata: {
      ...metadata,
      labels: { ...metadata.labels, 'app.kubernetes.io/managed-by': 'Helm' },
      annotations: { ...metadata.annotations, 'meta.helm.sh/release-name': release, 'meta.helm.sh/release-namespace': namespace },
    },
  };
}
