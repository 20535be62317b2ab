import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { binDir, repoRoot } from './paths.js';

const COMPONENTS = ['kube-apiserver', 'kube-controller-manager', 'kube-scheduler'] as const;

/** Absolute path of a control-plane binary (etcd comes from Debian's etcd-server package). */
export function binaryPath(name: (typeof COMPONENTS)[number] | 'etcd'): string {
  return name === 'etcd' ? 'etcd' : path.join(binDir(), name);
}

/** True when every binary is already cached, so no build step will run. */
export function binariesCached(): boolean {
  return COMPONENTS.every((c) => existsSync(path.join(binDir(), c)));
}

/**
 * Builds or reuses the control-plane binaries by running scripts/ensure-k8s.sh, which skips
 * every step already done. Its one-line-per-step progress goes to `log`.
 */
export async function ensureBinaries(log: (line: string) => void = (l) => process.stderr.write(l + '\n')): Promise<void> {
  const script = path.join(repoRoot, 'scripts', 'ensure-k8s.sh');
  await new Promise<void>((resolve, reject) => {
    const child = spawn('bash', [script], { stdio: ['ignore', 'pipe', 'pipe'] });
    let tail = '';
    const onData = (chunk: Buffer) => {
      const text = chunk.toString();
      tail = (tail + text).slice(-4000);
      for (const line of text.split('\n')) if (line.trim()) log(line);
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('error', reject);
    child.on('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`building the control plane failed (exit ${code}):\n${tail.trim()}`)),
    );
  });
}
