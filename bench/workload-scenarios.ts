/**
 * The bench's StatefulSet, DaemonSet and Job scenarios, each beside the kubectl command a user
 * would run (`kubectl rollout status sts|ds/NAME`, `kubectl wait --for=condition=complete
 * job/NAME`): a 200-pod Parallel StatefulSet update, a DaemonSet update on 100 Nodes, a Job of
 * 500 completions 50 at a time, and a failing Job and StatefulSet (how soon each tool gives up).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { BatchV1Api, type V1DaemonSet, type V1StatefulSet } from '@kubernetes/client-node';
import { daemonSetOf, jobOf, statefulSetOf } from '../test/helpers/workloads.js';
import { type BenchKind, KINDS, type Workload } from './kinds.js';
import { lineAt } from './processes.js';
import { type BenchContext, KUBECTL_DONE, ourVerdictAt, race, type ScenarioResult } from './race.js';
import { fillBusy } from './scenarios.js';

/** A 200-replica `podManagementPolicy: Parallel` StatefulSet, rolled out, then its image changed. */
export async function sts(ctx: BenchContext, replicas: number): Promise<ScenarioResult> {
  const ns = await ctx.namespace('bench-sts');
  const shape = { replicas, podManagementPolicy: 'Parallel' as const };
  await ctx.apps.createNamespacedStatefulSet({ namespace: ns, body: statefulSetOf('db', shape) });
  await settled(ctx, ns, 'StatefulSet', 'db');
  const r = await raceUpdate(ctx, ns, 'StatefulSet', 'db');
  return withTargets(r, `${replicas} pods, Parallel; the update replaces them one at a time (the controller's RollingUpdate)`);
}

/**
 * A DaemonSet on `nodes` Nodes (a second simulated kubelet process adds the Nodes the cluster
 * lacks), rolled out, then its image changed (RollingUpdate, maxUnavailable 10 %). The extra
 * Nodes are removed afterwards (their pods first).
 */
export async function ds(ctx: BenchContext, nodes: number): Promise<ScenarioResult> {
  const ns = await ctx.namespace('bench-ds');
  const have = (await ctx.core.listNode()).items.length;
  const extra = nodes > have ? await extraNodes(ctx, nodes - have) : undefined;
  try {
    const body = daemonSetOf('agent', { updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: '10%' } } });
    await ctx.apps.createNamespacedDaemonSet({ namespace: ns, body });
    await settled(ctx, ns, 'DaemonSet', 'agent');
    const r = await raceUpdate(ctx, ns, 'DaemonSet', 'agent');
    return withTargets(
      r,
      `${Math.max(nodes, have)} Nodes (${have} of the cluster's kubelet, ${extra?.count ?? 0} of a second one), maxUnavailable 10 %`,
    );
  } finally {
    await ctx.apps.deleteNamespacedDaemonSet({ name: 'agent', namespace: ns }).catch(() => undefined);
    await podsGone(ctx, ns);
    await extra?.stop();
  }
}

/** A Job of `completions` pods, `parallelism` at a time (each prints a line and exits 0). */
export async function job(ctx: BenchContext, completions: number, parallelism: number): Promise<ScenarioResult> {
  const ns = await ctx.namespace('bench-job');
  const body = jobOf('batch', { image: 'busybox:1.32', container: { command: ['sh', '-c', 'echo done'] }, completions, parallelism });
  const r = await race(ctx, ns, ['batch'], {
    kind: 'Job',
    timeoutS: 1800,
    floor: 'batch',
    lag: false,
    before: async () => void (await ctx.kc.makeApiClient(BatchV1Api).createNamespacedJob({ namespace: ns, body })),
  });
  return withTargets(r, `${completions} completions, parallelism ${parallelism}`);
}

/** A Job whose pod exits 1 (backoffLimit 1: two attempts, 10 s apart): how soon each tool gives up. */
export async function jobFail(ctx: BenchContext): Promise<ScenarioResult> {
  const ns = await ctx.namespace('bench-jobfail');
  const behaviour = { app: 'crash;exitCode=1;after=1;logs=migrating users|relation "users" does not exist' };
  const body = jobOf('migrate', { behaviour, backoffLimit: 1 });
  const r = await race(ctx, ns, ['migrate'], {
    kind: 'Job',
    timeoutS: FAIL_TIMEOUT_S,
    before: async () => void (await ctx.kc.makeApiClient(BatchV1Api).createNamespacedJob({ namespace: ns, body })),
  });
  return afterSignal(r, 'migrate', 'exit 1, backoffLimit 1');
}

/** A new 3-replica Parallel StatefulSet whose image does not exist: how soon each tool gives up. */
export async function stsFail(ctx: BenchContext): Promise<ScenarioResult> {
  const ns = await ctx.namespace('bench-stsfail');
  const body = statefulSetOf('cache', { replicas: 3, podManagementPolicy: 'Parallel', image: 'nginx:1.99-does-not-exist' });
  const r = await race(ctx, ns, ['cache'], {
    kind: 'StatefulSet',
    timeoutS: FAIL_TIMEOUT_S,
    before: async () => void (await ctx.apps.createNamespacedStatefulSet({ namespace: ns, body })),
  });
  return afterSignal(r, 'cache', 'image nginx:1.99-does-not-exist');
}

/**
 * A StatefulSet, a DaemonSet and a Job created one after the other in a busy namespace (a
 * Deployment of `pods` pods and `events` routine Events): each tool's verdict, and which kinds we
 * listed (a trace lists no kind it does not need: no Deployment, no ReplicaSet). The figures are
 * the slowest of the three; each has its note.
 */
export async function kindsInBusy(ctx: BenchContext, pods: number, events: number): Promise<ScenarioResult> {
  const ns = await ctx.namespace('bench-busykinds');
  await fillBusy(ctx, ns, pods, events);
  const batch = ctx.kc.makeApiClient(BatchV1Api);
  const rows: Array<{ kind: BenchKind; name: string; create: () => Promise<unknown> }> = [
    { kind: 'StatefulSet', name: 'db', create: () => ctx.apps.createNamespacedStatefulSet({ namespace: ns, body: statefulSetOf('db') }) },
    { kind: 'DaemonSet', name: 'agent', create: () => ctx.apps.createNamespacedDaemonSet({ namespace: ns, body: daemonSetOf('agent') }) },
    {
      kind: 'Job',
      name: 'once',
      create: () =>
        batch.createNamespacedJob({
          namespace: ns,
          body: jobOf('once', { image: 'busybox:1.32', container: { command: ['sh', '-c', 'echo done'] } }),
        }),
    },
  ];
  const notes: string[] = [];
  let worst: Raced | undefined;
  let worstGap = Number.NEGATIVE_INFINITY;
  for (const row of rows) {
    const r = await race(ctx, ns, [row.name], { kind: row.kind, before: async () => void (await row.create()) });
    const gap = (r.rolloutTrace.verdictAfterCompleteMs ?? Number.NaN) - (r.kubectl.verdictAfterCompleteMs ?? Number.NaN);
    const listed = r.ours.probe?.listedKinds ?? [];
    const untraced = listed.filter((k) => !['Pod', 'Event', 'Node', 'PersistentVolumeClaim', row.kind].includes(k));
    notes.push(
      `${row.kind}: verdict ${Number.isNaN(gap) ? '?' : gap} ms after kubectl's (<= 200: ${gap <= 200 ? 'met' : 'MISSED'}); ` +
        `we listed ${listed.join(', ') || 'nothing'}; untraced kinds listed: ${untraced.join(', ') || 'none'} (none: ${untraced.length === 0 ? 'met' : 'MISSED'}); ` +
        `${r.rolloutTrace.cpuS.toFixed(2)} s CPU, ${r.rolloutTrace.peakRssMB.toFixed(0)} MB; ${r.notes[0]}` +
        (r.notes.find((n) => n.startsWith('our first request')) ?? '').replace(/^./, '; $&'),
    );
    if (!worst || gap > worstGap || Number.isNaN(gap)) {
      worst = r;
      worstGap = Number.isNaN(gap) ? Number.POSITIVE_INFINITY : gap;
    }
  }
  const r = worst as Raced;
  r.notes = [`namespace holds ${pods} other pods and ${events} other Events; figures: the slowest kind`, ...notes];
  return r;
}

/** Both tools' `--timeout` in the failing scenarios: kubectl waits for it (no failure verdict for these kinds). */
const FAIL_TIMEOUT_S = 60;

type Raced = Awaited<ReturnType<typeof race>>;

/** Seconds from the first failing pod status (raw watch) to each tool's verdict; for a Job also to its Failed condition. */
function afterSignal(r: Raced, name: string, what: string): Raced {
  const signal = r.raw.signal.get(name);
  const s = (t: number | undefined) => (t !== undefined && signal !== undefined ? (t - signal) / 1000 : undefined);
  const ours = s(ourVerdictAt(r.ours, name));
  r.secondsAfterSignal = { [name]: { rolloutTrace: ours, kubectl: s(lineAt(r.peers[0]!, KUBECTL_DONE)) } };
  const failed = s(r.raw.failed.get(name));
  r.notes.push(
    `${what}; both tools --timeout ${FAIL_TIMEOUT_S}s; secondsAfterSignal counts from the first failing pod status the raw watch saw` +
      (failed !== undefined ? `; the Job's Failed condition came ${failed.toFixed(2)} s after it (the floor of a Job verdict)` : '') +
      `; target: ours <= 15 s after the signal: ${ours !== undefined && ours <= 15 ? 'met' : 'MISSED'}`,
  );
  return r;
}

/**
 * The targets of a success scenario, printed beside the figures: verdict, CPU per object (and the
 * bare watcher's, the floor of receiving and parsing the same objects), RSS.
 */
function withTargets(r: Raced, what: string): Raced {
  const ours = r.rolloutTrace;
  const peer = r.kubectl;
  const perObject = (cpuS: number | undefined) =>
    ours.objectsReceived && cpuS !== undefined ? (cpuS * 1000) / ours.objectsReceived : undefined;
  const perObjectMs = perObject(ours.cpuS);
  const floorMs = perObject(r.bareWatch?.cpuS);
  const verdictGap =
    ours.verdictAfterCompleteMs !== undefined && peer.verdictAfterCompleteMs !== undefined
      ? ours.verdictAfterCompleteMs - peer.verdictAfterCompleteMs
      : undefined;
  const mark = (ok: boolean | undefined) => (ok ? 'met' : 'MISSED');
  r.notes.push(
    what,
    `targets: verdict ${verdictGap ?? '?'} ms after kubectl's (<= 50: ${mark(verdictGap !== undefined && verdictGap <= 50)}); ` +
      `CPU ${perObjectMs?.toFixed(3) ?? '?'} ms per object received (${ours.objectsReceived ?? '?'} objects; <= 0.5: ${mark(perObjectMs !== undefined && perObjectMs <= 0.5)}` +
      `${floorMs !== undefined && perObjectMs !== undefined ? `; the bare watcher's ${floorMs.toFixed(3)}, ours above it ${(perObjectMs - floorMs).toFixed(3)}, ${(perObjectMs / floorMs).toFixed(2)}× it (<= 1.5×: ${mark(perObjectMs / floorMs <= 1.5)})` : ''}); ` +
      `RSS ${ours.peakRssMB.toFixed(0)} MB (<= 150: ${mark(ours.peakRssMB <= 150)}); kubectl ${peer.cpuS.toFixed(2)} s CPU, ${peer.peakRssMB.toFixed(0)} MB`,
  );
  return r;
}

/** Both tools (and the bare watcher) on a rolled-out StatefulSet or DaemonSet whose image changes once they run. */
function raceUpdate(ctx: BenchContext, ns: string, kind: 'StatefulSet' | 'DaemonSet', name: string) {
  return race(ctx, ns, [name], {
    kind,
    minGeneration: 2,
    timeoutS: 1800,
    floor: name,
    lag: false,
    before: () => updateImage(ctx, ns, kind, name),
  });
}

/** Changes the pod template's image (a new revision), retrying on 409 Conflict. */
async function updateImage(ctx: BenchContext, namespace: string, kind: 'StatefulSet' | 'DaemonSet', name: string): Promise<void> {
  const edit = (w: V1StatefulSet | V1DaemonSet) => {
    const c = w.spec?.template.spec?.containers[0];
    if (c) c.image = 'nginx:1.20';
  };
  for (let attempt = 0; ; attempt++) {
    try {
      if (kind === 'StatefulSet') {
        const cur = await ctx.apps.readNamespacedStatefulSet({ name, namespace });
        edit(cur);
        return void (await ctx.apps.replaceNamespacedStatefulSet({ name, namespace, body: cur }));
      }
      const cur = await ctx.apps.readNamespacedDaemonSet({ name, namespace });
      edit(cur);
      return void (await ctx.apps.replaceNamespacedDaemonSet({ name, namespace, body: cur }));
    } catch (err) {
      if ((err as { code?: number }).code !== 409 || attempt >= 10) throw err;
    }
  }
}

/** Waits (set-up only) until kubectl's completion test holds for the workload. */
async function settled(ctx: BenchContext, namespace: string, kind: BenchKind, name: string, timeoutS = 900): Promise<void> {
  const deadline = Date.now() + timeoutS * 1000;
  const read = (): Promise<unknown> =>
    kind === 'StatefulSet'
      ? ctx.apps.readNamespacedStatefulSet({ name, namespace })
      : ctx.apps.readNamespacedDaemonSet({ name, namespace });
  while (Date.now() < deadline) {
    if (KINDS[kind].complete((await read()) as Workload)) return;
    await new Promise((r) => setTimeout(r, 2000));
  }
  throw new Error(`set-up: ${kind} ${namespace}/${name} not rolled out after ${timeoutS} s`);
}

/** Waits until the namespace has no pods (its nodes' kubelets must still run to let them go). */
async function podsGone(ctx: BenchContext, namespace: string): Promise<void> {
  const deadline = Date.now() + 300_000;
  while ((await ctx.core.listNamespacedPod({ namespace, limit: 1 })).items.length > 0) {
    if (Date.now() > deadline) throw new Error(`bench: namespace ${namespace} still has pods after 300 s`);
    await new Promise((r) => setTimeout(r, 1000));
  }
}

/**
 * `count` more Nodes (`bench-ds-1`...): a second simulated kubelet process, as a real cluster
 * registers more kubelets; `stop()` ends it and deletes its Nodes.
 */
async function extraNodes(ctx: BenchContext, count: number): Promise<{ count: number; stop(): Promise<void> }> {
  const main = new URL('../local-cluster/kubelet/main.ts', import.meta.url).pathname;
  const args = [
    '--import',
    'tsx',
    main,
    '--kubeconfig',
    ctx.kubeconfigPath,
    '--nodes',
    String(count),
    '--name-prefix',
    'bench-ds',
    '--no-provisioner',
  ];
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'ignore'] });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const names = await readyLine(child);
  return {
    count,
    stop: async () => {
      child.kill('SIGTERM');
      await exited;
      for (const name of names) await ctx.core.deleteNode({ name }).catch(() => undefined);
    },
  };
}

/** The Node names of the kubelet's one `kubelet ready: a,b` line (rejects if it exits first). */
function readyLine(child: ChildProcess): Promise<string[]> {
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`bench: the second simulated kubelet exited (${code}) before its Nodes were ready`)));
    createInterface({ input: child.stdout! }).on('line', (line) => {
      const m = /^kubelet ready: (.*)$/.exec(line);
      if (m) resolve(m[1]!.split(','));
    });
  });
}
