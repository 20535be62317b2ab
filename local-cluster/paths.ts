import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** Kubernetes version the embedded control plane is built from (Debian's source package). */
export const KUBERNETES_VERSION = '1.20.2';

/** Root of the per-user cache: binaries, build tree, state of a background cluster. */
export function cacheDir(): string {
  return process.env.ROLLOUT_TRACE_CACHE ?? path.join(os.homedir(), '.cache', 'rollout-trace');
}

/** Where the three control-plane binaries live once built. */
export function binDir(): string {
  return path.join(cacheDir(), `k8s-v${KUBERNETES_VERSION}`);
}

/** The repository root (this file is local-cluster/paths.ts). */
export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
