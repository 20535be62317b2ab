/**
 * Checks a container's ConfigMap/Secret references (env valueFrom, envFrom) and a pod's volumes
 * against the real cluster, returning the kubelet's own error texts:
 * `configmap "x" not found`, `couldn't find key k in ConfigMap ns/x`, and for volumes
 * `MountVolume.SetUp failed for volume "v" : configmap "x" not found`.
 */
import type { CoreV1Api, V1ConfigMap, V1Container, V1Pod, V1Secret } from '@kubernetes/client-node';

type Getter<T> = (name: string) => Promise<T | undefined>;

/** Per-sync cache of the objects a pod references (undefined = not found). */
export class ObjectLookup {
  private readonly configMaps = new Map<string, Promise<V1ConfigMap | undefined>>();
  private readonly secrets = new Map<string, Promise<V1Secret | undefined>>();
  private readonly pvcs = new Map<string, Promise<{ phase?: string } | undefined>>();

  constructor(
    private readonly core: CoreV1Api,
    private readonly namespace: string,
  ) {}

  configMap: Getter<V1ConfigMap> = (name) =>
    memo(this.configMaps, name, () => this.core.readNamespacedConfigMap({ name, namespace: this.namespace }));

  secret: Getter<V1Secret> = (name) => memo(this.secrets, name, () => this.core.readNamespacedSecret({ name, namespace: this.namespace }));

  pvc: Getter<{ phase?: string }> = (name) =>
    memo(this.pvcs, name, async () => ({
      phase: (await this.core.readNamespacedPersistentVolumeClaim({ name, namespace: this.namespace })).status?.phase,
    }));
}

function memo<T>(cache: Map<string, Promise<T | undefined>>, name: string, load: () => Promise<T>): Promise<T | undefined> {
  let p = cache.get(name);
  if (!p) {
    p = load().catch((err) => {
      if ((err as { code?: number }).code === 404) return undefined;
      throw err;
    });
    cache.set(name, p);
  }
  return p;
}

/** The CreateContainerConfigError message for a container, or undefined when its env resolves. */
export async function envError(pod: V1Pod, container: V1Container, lookup: ObjectLookup): Promise<string | undefined> {
  const ns = pod.metadata?.namespace ?? 'default';
  for (const from of container.envFrom ?? []) {
    if (from.configMapRef?.name) {
      const cm = await lookup.configMap(from.configMapRef.name);
      if (!cm && !from.configMapRef.optional) return `configmap "${from.configMapRef.name}" not found`;
    } else if (from.secretRef?.name) {
      const s = await lookup.secret(from.secretRef.name);
      if (!s && !from.secretRef.optional) return `secret "${from.secretRef.name}" not found`;
    }
  }
  for (const env of container.env ?? []) {
    const cmRef = env.valueFrom?.configMapKeyRef;
    if (cmRef) {
      const cm = await lookup.configMap(cmRef.name ?? '');
      if (!cm) {
        if (cmRef.optional) continue;
        return `configmap "${cmRef.name}" not found`;
      }
      const has = (cm.data && cmRef.key in cm.data) || (cm.binaryData && cmRef.key in cm.binaryData);
      if (!has && !cmRef.optional) return `couldn't find key ${cmRef.key} in ConfigMap ${ns}/${cmRef.name}`;
    }
    const sRef = env.valueFrom?.secretKeyRef;
    if (sRef) {
      const s = await lookup.secret(sRef.name ?? '');
      if (!s) {
        if (sRef.optional) continue;
        return `secret "${sRef.name}" not found`;
      }
      const has = (s.data && sRef.key in s.data) || (s.stringData && sRef.key in s.stringData);
      if (!has && !sRef.optional) return `couldn't find key ${sRef.key} in Secret ${ns}/${sRef.name}`;
    }
  }
  return undefined;
}

/** A volume that cannot be set up yet, with the FailedMount event text when the kubelet emits one. */
export interface VolumeProblem {
  volume: string;
  /** `MountVolume.SetUp failed for volume ...`; undefined when the kubelet only waits (PVC). */
  event?: string;
}

/** Volumes of the pod that cannot be mounted now. */
export async function volumeProblems(pod: V1Pod, lookup: ObjectLookup): Promise<VolumeProblem[]> {
  const problems: VolumeProblem[] = [];
  for (const v of pod.spec?.volumes ?? []) {
    if (v.configMap) {
      const cm = await lookup.configMap(v.configMap.name ?? '');
      if (!cm) {
        if (!v.configMap.optional)
          problems.push({
            volume: v.name,
            event: `MountVolume.SetUp failed for volume "${v.name}" : configmap "${v.configMap.name}" not found`,
          });
        continue;
      }
      const missing = (v.configMap.items ?? []).find((i) => !(cm.data && i.key in cm.data) && !(cm.binaryData && i.key in cm.binaryData));
      if (missing && !v.configMap.optional) {
        problems.push({
          volume: v.name,
          event: `MountVolume.SetUp failed for volume "${v.name}" : configmap references non-existent config key: ${missing.key}`,
        });
      }
    } else if (v.secret) {
      const s = await lookup.secret(v.secret.secretName ?? '');
      if (!s) {
        if (!v.secret.optional)
          problems.push({
            volume: v.name,
            event: `MountVolume.SetUp failed for volume "${v.name}" : secret "${v.secret.secretName}" not found`,
          });
        continue;
      }
      const missing = (v.secret.items ?? []).find((i) => !(s.data && i.key in s.data));
      if (missing && !v.secret.optional) {
        problems.push({
          volume: v.name,
          event: `MountVolume.SetUp failed for volume "${v.name}" : references non-existent secret key: ${missing.key}`,
        });
      }
    } else if (v.projected) {
      for (const src of v.projected.sources ?? []) {
        if (src.configMap && !(await lookup.configMap(src.configMap.name ?? '')) && !src.configMap.optional) {
          problems.push({
            volume: v.name,
            event: `MountVolume.SetUp failed for volume "${v.name}" : configmap "${src.configMap.name}" not found`,
          });
          break;
        }
        if (src.secret && !(await lookup.secret(src.secret.name ?? '')) && !src.secret.optional) {
          problems.push({
            volume: v.name,
            event: `MountVolume.SetUp failed for volume "${v.name}" : secret "${src.secret.name}" not found`,
          });
          break;
        }
      }
    } else if (v.persistentVolumeClaim) {
      // The real kubelet's volume manager only logs a missing/unbound PVC and waits (the scheduler
      // normally keeps such pods Pending in the first place).
      const pvc = await lookup.pvc(v.persistentVolumeClaim.claimName);
      if (pvc?.phase !== 'Bound') problems.push({ volume: v.name });
    }
  }
  return problems;
}
