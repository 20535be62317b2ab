/**
 * `--record FILE` on the real control plane, then `rollout-trace replay FILE`: the demo's scenes
 * (a rollout that succeeds, a pod killed after the verdict with `--watch-for`, a new image, a rollback, a volume that does not exist, a broken image,
 * a crashing app with its logs streamed, a migration Job that fails with its log, a StatefulSet
 * whose claim cannot bind, a DaemonSet, one that cannot run on a tainted node) replay with no cluster to the very JSON lines the live trace printed
 * (times included: the recording keeps them), and the same exit code; the read batches applied as
 * one step live (`b` lines) are replayed as one step.
 */
import assert from 'node:assert/strict';
import { readFileSync, statSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, type TestContext, test } from 'node:test';
import { gunzipSync } from 'node:zlib';
import { clients, kubeconfigPath, withNamespace } from '../../helpers/cluster.js';
import { createDeployment, updateDeployment, waitRolledOut } from '../../helpers/deployments.js';
import { startPrivateNode } from '../../helpers/private-node.js';
import { createDaemonSet, createJob, createStatefulSet } from '../../helpers/workloads.js';
import { runCli, runCliInProcess } from './run-cli.js';

type Scene = {
  name: string;
  target: string[];
  flags?: string[];
  prepare: (ns: string, t: TestContext) => Promise<void>;
  /** Done once the live trace printed its verdict (a `--watch` scene's change). */
  afterVerdict?: (ns: string) => Promise<void>;
  exit: number;
};

const scenes: Scene[] = [
  {
    name: 'a rollout that succeeds',
    target: ['deploy', 'web'],
    prepare: async (ns) => void (await createDeployment(ns, 'web', { image: 'nginx:1.19', replicas: 2 })),
    exit: 0,
  },
  {
    name: 'kill a pod after the verdict (--watch-for)',
    target: ['deploy', 'web'],
    flags: ['--watch-for', '8s'],
    prepare: async (ns) => void (await createDeployment(ns, 'web', { image: 'nginx:1.19', replicas: 2 })),
    afterVerdict: async (ns) => {
      const pods = await clients().core.listNamespacedPod({ namespace: ns });
      await clients().core.deleteNamespacedPod({ namespace: ns, name: pods.items[0]!.metadata!.name!, gracePeriodSeconds: 0 });
    },
    exit: 0,
  },
  {
    name: 'a new image rolled out',
    target: ['deploy', 'web'],
    prepare: async (ns) => {
      await createDeployment(ns, 'web', { image: 'nginx:1.19', replicas: 2 });
      await waitRolledOut(ns, 'web');
      await updateDeployment(ns, 'web', { image: 'nginx:1.20', replicas: 2 });
    },
    exit: 0,
  },
  {
    name: 'a rollback to an earlier template',
    target: ['deploy', 'web'],
    prepare: async (ns) => {
      await createDeployment(ns, 'web', { image: 'nginx:1.19', replicas: 2 });
      await waitRolledOut(ns, 'web');
      await updateDeployment(ns, 'web', { image: 'nginx:1.20', replicas: 2 });
      await waitRolledOut(ns, 'web');
      await updateDeployment(ns, 'web', { image: 'nginx:1.19', replicas: 2 });
    },
    exit: 0,
  },
  {
    name: 'a volume that does not exist',
    target: ['deploy', 'web'],
    prepare: async (ns) => {
      await createDeployment(ns, 'web', {
        image: 'nginx:1.19',
        replicas: 1,
        podSpec: { volumes: [{ name: 'config', configMap: { name: 'web-config' } }] },
        container: { volumeMounts: [{ name: 'config', mountPath: '/etc/nginx/conf.d' }] },
      });
    },
    exit: 1,
  },
  {
    name: 'a broken image',
    target: ['deploy', 'web'],
    prepare: async (ns) => {
      await createDeployment(ns, 'web', { image: 'nginx:1.19', replicas: 2 });
      await waitRolledOut(ns, 'web');
      await updateDeployment(ns, 'web', { image: 'nginx:1.99-does-not-exist', replicas: 2 });
    },
    exit: 1,
  },
  {
    name: 'a crashing app, its logs streamed',
    target: ['deploy', 'api'],
    flags: ['--follow-logs'],
    prepare: async (ns) =>
      void (await createDeployment(ns, 'api', {
        image: 'nginx:1.19',
        replicas: 1,
        behaviour: { app: 'crash;not-ready;exitCode=3;after=2;logs=booting|fatal: no DATABASE_URL' },
        container: { readinessProbe: { httpGet: { path: '/ready', port: 80 }, periodSeconds: 1 } },
      })),
    exit: 1,
  },
  {
    name: 'a migration Job that fails, with its log',
    target: ['job', 'migrate'],
    prepare: async (ns) =>
      void (await createJob(ns, 'migrate', {
        image: 'busybox:1.32',
        backoffLimit: 0,
        behaviour: { app: 'crash;exitCode=2;after=1;logs=relation "users" does not exist' },
      })),
    exit: 1,
  },
  {
    name: 'a DaemonSet rolled out on every node',
    target: ['ds', 'agent'],
    prepare: async (ns) => void (await createDaemonSet(ns, 'agent', { image: 'registry.local/log-agent:1.0' })),
    exit: 0,
  },
  {
    name: 'a DaemonSet that cannot run on a tainted node',
    target: ['ds', 'shipper'],
    prepare: async (ns, t) => {
      await startPrivateNode(t);
      await createDaemonSet(ns, 'shipper', { image: 'registry.local/log-agent:1.0' });
    },
    exit: 0,
  },
  {
    name: 'a StatefulSet whose claim cannot bind',
    target: ['sts', 'db'],
    prepare: async (ns) =>
      void (await createStatefulSet(ns, 'db', {
        image: 'postgres:13',
        replicas: 1,
        claims: { name: 'data', storageClassName: 'does-not-exist' },
      })),
    exit: 1,
  },
];

/** Lines recorded as read batches (`b`: applied as one step), over every scene. */
let batches = 0;

describe('record on the control plane, replay offline', { concurrency: true }, () => {
  for (const scene of scenes) {
    test(`${scene.name}: the replay prints the live JSON lines and exits the same`, async (t) => {
      const ns = await withNamespace(t, 'record');
      const dir = await mkdtemp(join(tmpdir(), 'rt-record-'));
      t.after(() => rm(dir, { recursive: true, force: true }));
      const file = join(dir, 'trace.rtrec.gz');
      await scene.prepare(ns, t);
      let acted: Promise<void> | undefined;
      const onStdout = (out: string) => {
        if (scene.afterVerdict && !acted && out.includes('"type":"verdict"')) acted = scene.afterVerdict(ns);
      };
      const live = await runCli(
        [
          ...scene.target,
          '-n',
          ns,
          '--kubeconfig',
          kubeconfigPath(),
          '-o',
          'json',
          '--timeout',
          '90s',
          ...(scene.flags ?? []),
          '--record',
          file,
        ],
        { onStdout },
      );
      await acted;
      assert.equal(live.code, scene.exit, live.stdout + live.stderr);
      assert.ok(statSync(file).size > 0, 'the recording was written');
      batches += gunzipSync(readFileSync(file))
        .toString()
        .split('\n')
        .filter((l) => l.startsWith('{"t":0,"b":')).length;
      const replayed = await runCliInProcess(['replay', file, '-o', 'json']);
      assert.equal(replayed.code, scene.exit, replayed.stderr);
      const [want, got] = [lines(live.stdout), lines(replayed.stdout)];
      const first = want.findIndex((l, i) => JSON.stringify(l) !== JSON.stringify(got[i]));
      assert.equal(first, -1, `line ${first + 1} differs:\nlive:   ${JSON.stringify(want[first])}\nreplay: ${JSON.stringify(got[first])}`);
      assert.equal(got.length, want.length);
      if (scene.afterVerdict) {
        const verdictAt = want.findIndex((l) => (l as { type: string }).type === 'verdict');
        assert.ok(
          want.slice(verdictAt + 1).some((l) => (l as { type: string }).type === 'pod-deleted'),
          'the watch after the verdict saw the pod go, and the replay says so too',
        );
      }
      if (scene.flags?.includes('--follow-logs')) {
        assert.ok(
          want.some((l) => (l as { type: string }).type === 'log'),
          'the streamed log lines are among the lines replayed',
        );
      }
    });
  }
});

test('the scenes recorded read batches applied as one step, and replayed them so (the comparison above covers them)', () => {
  assert.ok(batches > 0, `${batches} batches recorded`);
});

/** The JSON lines, parsed. */
function lines(stdout: string): unknown[] {
  return stdout
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));
}
