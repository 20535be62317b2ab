/** Parsing of kubelet messages about missing ConfigMaps, Secrets and volumes. */
import type { Problem } from '../types.js';

/** What a config or mount message says is missing. */
export type Missing = NonNullable<Problem['missing']>;

/**
 * Parses `configmap "x" not found`, `secret "x" not found`,
 * `couldn't find key k in ConfigMap ns/x`, `couldn't find key k in Secret ns/x`,
 * `persistentvolumeclaim "x" not found`.
 */
export function parseMissing(message: string): Missing | undefined {
  const key = /couldn't find key (\S+) in (ConfigMap|Secret) (?:[^/\s]+\/)?(\S+)/.exec(message);
  if (key) return { kind: key[2] as 'ConfigMap' | 'Secret', name: key[3]!, key: key[1]! };
  const obj = /(configmap|secret|persistentvolumeclaim)s? "([^"]+)" not found/i.exec(message);
  if (obj) {
    const kinds = { configmap: 'ConfigMap', secret: 'Secret', persistentvolumeclaim: 'PersistentVolumeClaim' } as const;
    return { kind: kinds[obj[1]!.toLowerCase() as keyof typeof kinds], name: obj[2]! };
  }
  return undefined;
}

/** `the ConfigMap "x" does not exist` / `key "k" is missing from Secret "x"`. */
export function explainMissing(m: Missing): string {
  return m.key ? `key "${m.key}" is missing from ${m.kind} "${m.name}"` : `${m.kind} "${m.name}" does not exist`;
}

/** The volume name in `MountVolume.SetUp failed for volume "v" : ...`. */
export function mountVolumeName(message: string): string | undefined {
  return /for volume "([^"]+)"/.exec(message)?.[1];
}
