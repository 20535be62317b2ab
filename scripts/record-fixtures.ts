/**
 * Records real rollouts on a control plane into replayable fixtures for the core's unit tests.
 *
 *   ROLLOUT_TRACE_KUBECONFIG=/tmp/rt-dev/kubeconfig npx node --import tsx scripts/record-fixtures.ts [scenario...]
 *
 * Each scenario runs in a fresh namespace (deleted afterwards): it prepares the Deployment, opens
 * one watch per kind (no resourceVersion, so existing objects arrive as ADDED, like a list), makes
 * the change, and records every watch event as an Observation with `at` relative to the start
 * until the core reaches a verdict (plus a short tail) or the scenario's time limit. Fixtures are
 * written to test/fixtures/<scenario>.json as raw apiserver JSON.
 */
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { setTimeout as delay } from 'node:timers/promises';
import { AppsV1Api, CoreV1Api, KubeConfig, type V1Deployment, Watch } from '@kubernetes/client-node';
import type { Observation, RolloutState, TrackTarget, WatchedKind } from '../src/core/index.js';
import { initialState, reduce, resolvePolicy } from '../src/core/index.js';

import type { Fixture } from '../test/fixtures/replay.js';

const KINDS: Array<[WatchedKind, string]> = [
  ['Deployment', '/apis/apps/v1/namespaces/NS/deployments'],
  ['ReplicaSet', '/apis/apps/v1/namespaces/NS/replicasets'],
  ['Pod', '/api/v1/namespaces/NS/pods'],
  ['Event', '/api/v1/namespaces/NS/events'],
  ['PersistentVolumeClaim', '/api/v1/namespaces/NS/persistentvolumeclaims'],
];

interface Scenario {
  description: string;
  /** Deployment created (and waited for) before recording, if any. */
  before?: (ns: string) => V1Deployment;
  /** More preparation after `before` is ready (e.g. a quota, a second revision); returns the live Deployment. */
  prepare?: (ctx: { core: CoreV1Api; apps: AppsV1Api; ns: string; current: V1Deployment }) => Promise<V1Deployment>;
  /** The change recorded: create or update the Deployment. */
  change: (ns: string, current?: V1Deployment) => V1Deployment;
  limitMs: number;
}

function deployment(ns: string, image: string, annotations: Record<string, string> = {}, replicas = 3): V1Deployment {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'web', namespace: ns },
    spec: {
      replicas,
      selector: { matchLabels: { app: 'web' } },
      template: {
        metadata: { labels: { app: 'web' }, annotations },
        spec: { containers: [{ name: 'app', image }], terminationGracePeriodSeconds: 1 },
      },
    },
  };
}

const readiness = { httpGet: { path: '/healthz', port: 80 }, initialDelaySeconds: 3, periodSeconds: 2, failureThreshold: 3 };

function withTemplate(d: V1Deployment, image: string, annotations: Record<string, string> = {}, probe = false): V1Deployment {
  const next = structuredClone(d);
  next.spec!.template.spec!.containers[0]!.image = image;
  if (probe) next.spec!.template.spec!.containers[0]!.readinessProbe = readiness;
  next.spec!.template.metadata = { ...next.spec!.template.metadata, annotations };
  delete next.status;
  return next;
}

const SCENARIOS: Record<string, Scenario> = {
  'first-rollout': {
    description: 'create a Deployment of 3 nginx pods (revision 1)',
    change: (ns) => deployment(ns, 'nginx:1.19'),
    limitMs: 45_000,
  },
  'update-to-2': {
    description: 'update a ready Deployment from nginx:1.19 to nginx:1.20 (revision 2)',
    before: (ns) => deployment(ns, 'nginx:1.19'),
    change: (_ns, d) => withTemplate(d!, 'nginx:1.20'),
    limitMs: 60_000,
  },
  'broken-image': {
    description: 'update a ready Deployment to a tag that does not exist (nginx:nonexistent)',
    before: (ns) => deployment(ns, 'nginx:1.19'),
    change: (_ns, d) => withTemplate(d!, 'nginx:nonexistent'),
    limitMs: 40_000,
  },
  'crash-loop': {
    description: 'update a ready Deployment to a container that exits 1 after 1 s (readiness probe delay 3 s)',
    before: (ns) => deployment(ns, 'nginx:1.19'),
    change: (_ns, d) => withTemplate(d!, 'nginx:1.20', { 'sim.rollout-trace.dev/app': 'crash;exitCode=1;message=boom;after=1' }, true),
    limitMs: 60_000,
  },
  'not-ready': {
    description: 'update a ready Deployment to a container whose readiness probe keeps failing',
    before: (ns) => deployment(ns, 'nginx:1.19'),
    change: (_ns, d) => withTemplate(d!, 'nginx:1.20', { 'sim.rollout-trace.dev/app': 'not-ready' }, true),
    limitMs: 60_000,
  },
  unschedulable: {
    description: 'update a ready Deployment to request more CPU than any node has',
    before: (ns) => deployment(ns, 'nginx:1.19'),
    change: (_ns, d) => {
      const next = withTemplate(d!, 'nginx:1.20');
      next.spec!.template.spec!.containers[0]!.resources = { requests: { cpu: '64' } };
      return next;
    },
    limitMs: 40_000,
  },
  quota: {
    description: 'update a ready Deployment in a namespace whose ResourceQuota allows no extra pod',
    before: (ns) => deployment(ns, 'nginx:1.19'),
    prepare: async ({ core, ns, current }) => {
      await core.createNamespacedResourceQuota({ namespace: ns, body: { metadata: { name: 'pods' }, spec: { hard: { pods: '3' } } } });
      await delay(1500); // the quota controller fills status.used before admission enforces it
      return current;
    },
    change: (_ns, d) => withTemplate(d!, 'nginx:1.20'),
    limitMs: 40_000,
  },
  rollback: {
    description: 'roll a Deployment at revision 2 back to the template of revision 1',
    before: (ns) => deployment(ns, 'nginx:1.19'),
    prepare: async ({ apps, ns }) => {
      await updateDeployment(apps, ns, (d) => withTemplate(d, 'nginx:1.20'));
      await delay(500);
      return waitReady(apps, ns);
    },
    change: (_ns, d) => withTemplate(d!, 'nginx:1.19'),
    limitMs: 40_000,
  },
  'missing-configmap': {
    description: 'update a ready Deployment to read an env var from a ConfigMap that does not exist',
    before: (ns) => deployment(ns, 'nginx:1.19'),
    change: (_ns, d) => {
      const next = withTemplate(d!, 'nginx:1.20');
      next.spec!.template.spec!.containers[0]!.env = [
        { name: 'MODE', valueFrom: { configMapKeyRef: { name: 'app-config', key: 'mode' } } },
      ];
      return next;
    },
    limitMs: 40_000,
  },
};

/** Read-modify-replace with retries on 409 Conflict (controllers write status concurrently). */
async function updateDeployment(apps: AppsV1Api, ns: string, change: (d: V1Deployment) => V1Deployment): Promise<V1Deployment> {
  for (let attempt = 1; ; attempt++) {
    const fresh = await apps.readNamespacedDeployment({ name: 'web', namespace: ns });
    try {
      return await apps.replaceNamespacedDeployment({ name: 'web', namespace: ns, body: change(fresh) });
    } catch (err) {
      if (attempt >= 5 || (err as { code?: number }).code !== 409) throw err;
    }
  }
}

async function waitReady(apps: AppsV1Api, ns: string): Promise<V1Deployment> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    const d = await apps.readNamespacedDeployment({ name: 'web', namespace: ns });
    const s = d.status;
    if (
      s?.observedGeneration === d.metadata?.generation &&
      (s?.readyReplicas ?? 0) === d.spec?.replicas &&
      s?.updatedReplicas === d.spec?.replicas
    )
      return d;
    await delay(300);
  }
  throw new Error(`Deployment ${ns}/web did not become ready within 60 s`);
}

async function waitServiceAccount(core: CoreV1Api, ns: string): Promise<void> {
  for (let i = 0; i < 100; i++) {
    const sa = await core.readNamespacedServiceAccount({ name: 'default', namespace: ns }).catch(() => undefined);
    if ((sa?.secrets ?? []).length > 0) return;
    await delay(200);
  }
}

async function record(kc: KubeConfig, name: string, sc: Scenario): Promise<Fixture> {
  const core = kc.makeApiClient(CoreV1Api);
  const apps = kc.makeApiClient(AppsV1Api);
  const ns = `rt-fixture-${name}-${randomBytes(2).toString('hex')}`;
  await core.createNamespace({ body: { metadata: { name: ns, labels: { 'rollout-trace.dev/test': 'true' } } } });
  const aborts: AbortController[] = [];
  try {
    await waitServiceAccount(core, ns);
    let current: V1Deployment | undefined;
    if (sc.before) {
      await apps.createNamespacedDeployment({ namespace: ns, body: sc.before(ns) });
      current = await waitReady(apps, ns);
      if (sc.prepare) current = await sc.prepare({ core, apps, ns, current });
    }
    const target: TrackTarget = { namespace: ns, name: 'web', kind: 'Deployment' };
    const t0 = Date.now();
    const observations: Observation[] = [];
    // The core only runs once the target (baseline, generation) is known; earlier observations are replayed.
    let state: RolloutState | undefined;
    let verdictAt: number | undefined;
    const feed = (obs: Observation) => {
      if (!state || verdictAt !== undefined) return;
      const [next, events] = reduce(state, obs);
      state = next;
      const v = events.find((e) => e.type === 'verdict');
      if (v && v.type === 'verdict') {
        verdictAt = Date.now();
        console.error(`  [${name}] ${v.verdict.outcome}: ${v.verdict.summary}`);
      }
    };
    const push = (obs: Observation) => {
      if ('object' in obs) delete (obs.object.metadata as { managedFields?: unknown } | undefined)?.managedFields;
      observations.push({ ...obs, at: obs.at - t0 } as Observation);
      feed(obs);
    };
    const watch = new Watch(kc);
    for (const [kind, path] of KINDS) {
      aborts.push(
        await watch.watch(
          path.replace('NS', ns),
          { allowWatchBookmarks: false },
          (phase, obj) => {
            if (phase !== 'ADDED' && phase !== 'MODIFIED' && phase !== 'DELETED') return;
            push({ type: phase === 'DELETED' ? 'delete' : 'upsert', kind, object: obj, at: Date.now() } as Observation);
          },
          () => undefined,
        ),
      );
    }
    await delay(1000); // let the synthetic ADDED events (the "list") arrive
    push({ type: 'synced', at: Date.now() });
    const written = current
      ? await updateDeployment(apps, ns, (d) => sc.change(ns, d))
      : await apps.createNamespacedDeployment({ namespace: ns, body: sc.change(ns) });
    if (current) {
      target.baselineRevision = current.metadata?.annotations?.['deployment.kubernetes.io/revision'];
      target.minGeneration = written.metadata?.generation;
    }
    state = initialState({ ...target }, resolvePolicy(), t0);
    for (const obs of observations) feed({ ...obs, at: obs.at + t0 } as Observation);
    const end = t0 + sc.limitMs;
    while (Date.now() < end && (verdictAt === undefined || Date.now() < verdictAt + 3000)) {
      await delay(500);
      push({ type: 'tick', at: Date.now() });
    }
    return { scenario: name, description: sc.description, t0, target, observations };
  } finally {
    for (const a of aborts) a.abort();
    await core.deleteNamespace({ name: ns }).catch(() => undefined);
  }
}

async function main(): Promise<void> {
  const path = process.env.ROLLOUT_TRACE_KUBECONFIG;
  if (!path) throw new Error('set ROLLOUT_TRACE_KUBECONFIG to the kubeconfig of a local control plane with the simulated kubelet');
  const kc = new KubeConfig();
  kc.loadFromFile(path);
  const names = process.argv.slice(2).length > 0 ? process.argv.slice(2) : Object.keys(SCENARIOS);
  for (const name of names) {
    const sc = SCENARIOS[name];
    if (!sc) throw new Error(`unknown scenario "${name}"; known: ${Object.keys(SCENARIOS).join(', ')}`);
    console.error(`recording ${name}: ${sc.description}`);
    const fixture = await record(kc, name, sc);
    writeFileSync(new URL(`../test/fixtures/${name}.json`, import.meta.url), `${JSON.stringify(fixture, null, 1)}\n`);
    console.error(`  wrote test/fixtures/${name}.json (${fixture.observations.length} observations)`);
  }
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : String(err));
  process.exitCode = 1;
});
