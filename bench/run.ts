/**
 * `npm run bench`: speed and memory of rollout-trace against a peer measured in the same run,
 * `kubectl rollout status` (the tool CI scripts use today), on the embedded control plane.
 *
 * Figures printed:
 * - control-plane warm start (s);
 * - healthy rollout: time from apply to verdict, ours vs kubectl (ratio ~1 expected: same predicate);
 * - broken image: time to a failure verdict, ours vs kubectl (kubectl waits for progressDeadlineSeconds);
 * - 20 Deployments at once: our extra heap/RSS in one process and our watch count, vs 20 kubectl
 *   processes' summed RSS.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { AppsV1Api, CoreV1Api, type V1Deployment } from '@kubernetes/client-node';
import { startLocalCluster } from '../local-cluster/index.js';
import { trackRollout, trackRollouts } from '../src/track/index.js';

const PROGRESS_DEADLINE = 30;

function deployment(name: string, image: string, replicas = 2): V1Deployment {
  return {
    metadata: { name },
    spec: {
      replicas,
      progressDeadlineSeconds: PROGRESS_DEADLINE,
      selector: { matchLabels: { app: name } },
      template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'web', image }] } },
    },
  };
}

/** Runs kubectl rollout status; resolves with seconds elapsed, exit code and peak RSS (kB). */
function kubectlRolloutStatus(kubeconfig: string, ns: string, name: string): Promise<{ seconds: number; code: number; rssKb: number }> {
  const t0 = performance.now();
  const child = spawn('kubectl', ['--kubeconfig', kubeconfig, '-n', ns, 'rollout', 'status', `deployment/${name}`, '--timeout=120s'], {
    stdio: 'ignore',
  });
  let rssKb = 0;
  const sampler = setInterval(() => {
    try {
      const m = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'));
      if (m) rssKb = Math.max(rssKb, Number(m[1]));
    } catch {
      /* exited */
    }
  }, 100);
  return new Promise((resolve) =>
    child.on('exit', (code) => {
      clearInterval(sampler);
      resolve({ seconds: (performance.now() - t0) / 1000, code: code ?? -1, rssKb });
    }),
  );
}

async function main(): Promise<void> {
  const t0 = performance.now();
  const cluster = await startLocalCluster({ nodes: 3, log: () => undefined });
  const warm = (performance.now() - t0) / 1000;
  const kc = cluster.kubeConfig;
  const apps = kc.makeApiClient(AppsV1Api);
  const core = kc.makeApiClient(CoreV1Api);
  const rows: string[][] = [['measure', 'rollout-trace', 'kubectl rollout status', 'ratio (kubectl/ours)']];
  try {
    const ns = 'bench';
    await core.createNamespace({ body: { metadata: { name: ns } } });
    await waitForToken(core, ns);

    // Healthy rollout: both start right after the apply.
    for (const [label, image] of [
      ['healthy rollout (s)', 'nginx:1.15-alpine'],
      ['broken image (s)', 'nginx:nonexistent-tag'],
    ] as const) {
      const name = label.startsWith('healthy') ? 'healthy' : 'broken';
      await apps.createNamespacedDeployment({ namespace: ns, body: deployment(name, image) });
      const ours = (async () => {
        const s = performance.now();
        const v = await trackRollout({ name, namespace: ns, kubeconfig: kc, logs: false }).verdict;
        return { seconds: (performance.now() - s) / 1000, outcome: v.outcome };
      })();
      const peer = kubectlRolloutStatus(cluster.kubeconfigPath, ns, name);
      const [o, p] = await Promise.all([ours, peer]);
      rows.push([
        label,
        `${o.seconds.toFixed(1)} (${o.outcome})`,
        `${p.seconds.toFixed(1)} (exit ${p.code})`,
        (p.seconds / o.seconds).toFixed(2),
      ]);
    }

    // 20 Deployments tracked at once.
    const names = Array.from({ length: 20 }, (_, i) => `multi-${i}`);
    await Promise.all(names.map((n) => apps.createNamespacedDeployment({ namespace: ns, body: deployment(n, 'nginx:1.15-alpine', 1) })));
    global.gc?.();
    const before = process.memoryUsage();
    const s = performance.now();
    const peerRuns = Promise.all(names.map((n) => kubectlRolloutStatus(cluster.kubeconfigPath, ns, n)));
    const tracking = trackRollouts(names.map((name) => ({ name, namespace: ns, kubeconfig: kc, logs: false })));
    let peakHeap = 0;
    const sampler = setInterval(() => (peakHeap = Math.max(peakHeap, process.memoryUsage().heapUsed)), 50);
    const verdicts = await tracking.verdicts;
    clearInterval(sampler);
    const oursSeconds = (performance.now() - s) / 1000;
    const peers = await peerRuns;
    const peerRssMb = peers.reduce((a, p) => a + p.rssKb, 0) / 1024;
    const oursHeapMb = Math.max(0, peakHeap - before.heapUsed) / 1024 / 1024;
    const ok = verdicts.filter((v) => v.outcome === 'succeeded').length;
    rows.push([
      '20 Deployments: all verdicts (s)',
      `${oursSeconds.toFixed(1)} (${ok}/20 ok)`,
      `${Math.max(...peers.map((p) => p.seconds)).toFixed(1)}`,
      '',
    ]);
    rows.push([
      '20 Deployments: memory (MB)',
      `${oursHeapMb.toFixed(1)} extra heap, 1 process`,
      `${peerRssMb.toFixed(0)} RSS, 20 processes`,
      (peerRssMb / Math.max(oursHeapMb, 0.1)).toFixed(0),
    ]);
  } finally {
    await cluster.stop();
  }
  console.log(`control-plane warm start: ${warm.toFixed(1)} s (binaries cached)`);
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? '').length)));
  for (const r of rows) console.log(r.map((c, i) => c.padEnd(widths[i]!)).join('  '));
}

async function waitForToken(core: CoreV1Api, ns: string): Promise<void> {
  for (let i = 0; i < 100; i++) {
    const sa = await core.readNamespacedServiceAccount({ name: 'default', namespace: ns }).catch(() => undefined);
    if ((sa?.secrets ?? []).length) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`no ServiceAccount token in namespace ${ns}`);
}

main().catch((err) => {
  console.error(`bench failed: ${(err as Error).message}`);
  process.exit(1);
});
