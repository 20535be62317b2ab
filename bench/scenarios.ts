/** The bench scenarios: each runs rollout-trace and kubectl side by side, as whole processes. */
import type { V1Deployment } from '@kubernetes/client-node';
import { type DeploymentShape, deploymentOf } from '../test/integration/track/helpers.js';
import { requestCounts } from './metrics.js';
import { kubectl, lineAt, type ProcessRun, rolloutTrace } from './processes.js';
import { type BenchContext, KUBECTL_DONE, ourVerdictAt, race, type ScenarioResult, type ToolFigures } from './race.js';

function labelled(d: V1Deployment, labels: Record<string, string>): V1Deployment {
  d.metadata = { ...d.metadata, labels: { ...d.metadata?.labels, ...labels } };
  return d;
}

/** Waits until every Deployment named is complete (set-up only). */
async function waitComplete(ctx: BenchContext, ns: string, names: string[], timeoutS = 900): Promise<void> {
  const deadline = Date.now() + timeoutS * 1000;
  while (Date.now() < deadline) {
    const list = await ctx.apps.listNamespacedDeployment({ namespace: ns });
    const done = new Set(
      list.items
        .filter((d) => (d.status?.availableReplicas ?? 0) === d.spec?.replicas && d.status?.updatedReplicas === d.spec?.replicas)
        .map((d) => d.metadata?.name),
    );
    if (names.every((n) => done.has(n))) return;
    await new Promise((r) => setTimeout(r, 2000));
  }
  throw new Error(`set-up: ${names.length} Deployments not complete after ${timeoutS} s`);
}

export async function healthy(ctx: BenchContext): Promise<ScenarioResult> {
  const ns = await ctx.namespace('bench-healthy');
  return race(ctx, ns, ['web'], {
    before: async () => void (await ctx.apps.createNamespacedDeployment({ namespace: ns, body: deploymentOf('web', { replicas: 3 }) })),
  });
}

const FAILURES: Record<string, Pick<DeploymentShape, 'image' | 'behaviour' | 'container'>> = {
  'image-pull-not-found': { image: 'nginx:1.99-does-not-exist' },
  // Never Ready (a failing readiness probe): a pod Ready for its first second can complete the
  // rollout before it crashes, and both tools rightly say success (a race, not a failure to time).
  'crash-loop': {
    behaviour: { app: 'crash;not-ready;exitCode=3;after=1' },
    container: { readinessProbe: { httpGet: { path: '/ready', port: 8080 }, periodSeconds: 1 } },
  },
};

export async function failures(ctx: BenchContext): Promise<ScenarioResult> {
  const ns = await ctx.namespace('bench-failures');
  const names = Object.keys(FAILURES);
  const r = await race(ctx, ns, names, {
    timeoutS: 120,
    before: async () => {
      for (const [n, shape] of Object.entries(FAILURES)) {
        await ctx.apps.createNamespacedDeployment({
          namespace: ns,
          body: deploymentOf(n, { ...shape, replicas: 2, progressDeadlineSeconds: 30 }),
        });
      }
    },
  });
  r.secondsAfterSignal = {};
  names.forEach((n, i) => {
    const signal = r.raw.signal.get(n);
    const s = (t: number | undefined) => (t !== undefined && signal !== undefined ? (t - signal) / 1000 : undefined);
    r.secondsAfterSignal![n] = { rolloutTrace: s(ourVerdictAt(r.ours, n)), kubectl: s(lineAt(r.peers[i]!, KUBECTL_DONE)) };
  });
  r.notes.push('kubectl fails only at progressDeadlineSeconds (30 s here); secondsAfterSignal counts from the first failing pod status');
  return r;
}

export async function big(ctx: BenchContext, replicas: number): Promise<ScenarioResult> {
  const ns = await ctx.namespace('bench-big');
  return race(ctx, ns, ['big'], {
    timeoutS: 1800,
    floor: 'big',
    before: async () => void (await ctx.apps.createNamespacedDeployment({ namespace: ns, body: deploymentOf('big', { replicas }) })),
  });
}

export async function many(ctx: BenchContext, count: number): Promise<ScenarioResult> {
  const ns = await ctx.namespace('bench-many');
  const names = Array.from({ length: count }, (_, i) => `svc-${i}`);
  for (const n of names)
    await ctx.apps.createNamespacedDeployment({ namespace: ns, body: labelled(deploymentOf(n, { replicas: 10 }), { bench: 'many' }) });
  await waitComplete(ctx, ns, names);
  return race(ctx, ns, names, {
    ourArgs: ['-l', 'bench=many'],
    minGeneration: 2,
    timeoutS: 1800,
    before: async () => {
      await Promise.all(
        names.map(async (n) => {
          const cur = await ctx.apps.readNamespacedDeployment({ name: n, namespace: ns });
          cur.spec = labelled(deploymentOf(n, { replicas: 10, image: 'nginx:1.20' }), {}).spec;
          await ctx.apps.replaceNamespacedDeployment({ name: n, namespace: ns, body: cur });
        }),
      );
    },
  });
}

export async function oneInBusy(ctx: BenchContext, pods: number, events: number): Promise<ScenarioResult> {
  const ns = await ctx.namespace('bench-busy');
  await fillBusy(ctx, ns, pods, events);
  const r = await race(ctx, ns, ['web'], {
    before: async () => void (await ctx.apps.createNamespacedDeployment({ namespace: ns, body: deploymentOf('web') })),
  });
  r.notes.push(`namespace holds ${pods} other pods and ${events} other Events; wallS is start-up to exit`);
  return r;
}

/** Fills `ns` with a rolled-out Deployment `filler` of `pods` pods and `events` routine pod Events. */
export async function fillBusy(ctx: BenchContext, ns: string, pods: number, events: number): Promise<void> {
  await ctx.apps.createNamespacedDeployment({ namespace: ns, body: deploymentOf('filler', { replicas: pods }) });
  const createEvent = async (n: number): Promise<void> => {
    const body = {
      metadata: { name: `filler.${n}` },
      involvedObject: { kind: 'Pod', name: `filler-x-${n}`, namespace: ns },
      reason: 'Pulled',
      message: 'Container image "nginx:1.19" already present on machine',
      type: 'Normal',
    };
    // Set-up only: a busy apiserver may drop a connection; 409 means an earlier attempt landed.
    for (let attempt = 0; ; attempt++) {
      try {
        return void (await ctx.core.createNamespacedEvent({ namespace: ns, body }));
      } catch (err) {
        if ((err as { code?: number }).code === 409) return;
        if (attempt >= 5) throw err;
        await new Promise((r) => setTimeout(r, 500 * (attempt + 1)));
      }
    }
  };
  for (let i = 0; i < events; i += 20) {
    await Promise.all(Array.from({ length: Math.min(20, events - i) }, (_, k) => createEvent(i + k)));
  }
  await waitComplete(ctx, ns, ['filler']);
}

/**
 * A rollout that waits quietly (a pod pulling for an hour); each tool alone for `seconds`. Ours with
 * the probe's counters only (no lag samples): its CPU is measured whole, nothing estimated.
 */
export async function quiet(ctx: BenchContext, seconds: number): Promise<ScenarioResult> {
  const ns = await ctx.namespace('bench-quiet');
  await ctx.apps.createNamespacedDeployment({
    namespace: ns,
    body: deploymentOf('quiet', { behaviour: { app: 'slow-start;seconds=7200' } }),
  });
  await new Promise((r) => setTimeout(r, 5000));
  const alone = async (tool: 'ours' | 'kubectl') => {
    const before = await requestCounts(ctx.kc);
    const run =
      tool === 'ours'
        ? await rolloutTrace(ctx.kubeconfigPath, ns, ['quiet', '--timeout', `${seconds}s`], { probe: 'counters' })
        : await kubectl(ctx.kubeconfigPath, ns, 'quiet', seconds);
    const after = await requestCounts(ctx.kc);
    return { run, lists: after.lists - before.lists, watches: after.watches - before.watches };
  };
  const ours = await alone('ours');
  const peer = await alone('kubectl');
  const figures = (x: typeof ours): ToolFigures => ({
    wallS: NaN,
    peakRssMB: x.run.peakRssMB,
    cpuS: x.run.cpuS,
    ...(x.run.probeCpuS > 0 ? { probeCpuS: x.run.probeCpuS } : {}),
    ...(x.run.probe ? { lagP99Ms: x.run.probe.lagP99Ms, lagMaxMs: x.run.probe.lagMaxMs } : {}),
    // Ours from its own counters (the apiserver's also count other clients in the window, e.g. the
    // namespace controller still listing every kind of the previous scenario's namespace).
    lists: x.run.probe?.lists ?? x.lists,
    watchOpens: x.run.probe?.watchOpens ?? x.watches,
    processes: 1,
  });
  return {
    rolloutTrace: figures(ours),
    kubectl: figures(peer),
    notes: [`each tool alone for ${seconds} s (apiserver counts include controllers' own re-watches in that window)`],
  };
}

/**
 * Start-up on a small namespace: a 2-pod Deployment already rolled out, each tool run `runs`
 * times one after the other (no lag probe for us: it is not part of the tool); the figure is the
 * median wall time from spawn to exit (GNU time's own start-up is in both).
 */
export async function startup(ctx: BenchContext, runs = 7): Promise<ScenarioResult> {
  const ns = await ctx.namespace('bench-startup');
  await ctx.apps.createNamespacedDeployment({ namespace: ns, body: deploymentOf('small', { replicas: 2 }) });
  await waitComplete(ctx, ns, ['small']);
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  const measure = async (start: () => Promise<ProcessRun>) => {
    const walls: number[] = [];
    let last: ProcessRun | undefined;
    for (let i = 0; i < runs; i++) {
      const t = performance.now();
      last = await start();
      if (last.code !== 0) throw new Error(`startup: exit ${last.code}, output in ${last.outputFile}`);
      walls.push(last.exitAt - t);
    }
    return { walls, last: last! };
  };
  const ours = await measure(() => rolloutTrace(ctx.kubeconfigPath, ns, ['small', '--timeout', '60s'], { probe: false }));
  const peer = await measure(() => kubectl(ctx.kubeconfigPath, ns, 'small', 60));
  const figures = (m: typeof ours): ToolFigures => ({
    startupMs: Math.round(median(m.walls)),
    wallS: median(m.walls) / 1000,
    peakRssMB: m.last.peakRssMB,
    cpuS: m.last.cpuS,
    processes: 1,
  });
  return {
    rolloutTrace: figures(ours),
    kubectl: figures(peer),
    notes: [`${runs} runs each, wall ms: ours ${ours.walls.map(Math.round).join(' ')}; kubectl ${peer.walls.map(Math.round).join(' ')}`],
  };
}
