/**
 * `npm run demo`: replays the seed articles against the embedded control plane and shows what
 * rollout-trace prints for each scene:
 *   1. deploy nginx (revision 1)             5. a broken rollout: nonexistent image tag
 *   2. roll out nginx:1.12-alpine (the three  6. roll it back (kubectl rollout undo)
 *      phases of a rollout)                   7. a pod whose volume does not exist
 *   3. kill a pod: the ReplicaSet replaces it 8. a crashing app, its logs streamed live
 *   4. relabel a pod: orphaned and replaced  9. a migration Job that fails, with its log
 *                                            10. a StatefulSet whose claim cannot bind
 *                                            11. a DaemonSet that cannot run on a tainted node
 * The CLI runs as a subprocess, exactly as a user would run it (`-o plain` when stdout is not a
 * terminal). The cluster is stopped at the end, on Ctrl-C and on failure.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { AppsV1Api, CoreV1Api, type V1Deployment } from '@kubernetes/client-node';
import { type LocalCluster, startLocalCluster } from '../local-cluster/index.js';
import { bold, children, dim, NS, rolloutTrace, rolloutTraceReplay, say, scene } from './demo-cli.js';
import { workloadScenes } from './demo-workloads.js';

/** Where the demo writes its recording and report (ignored by git). */
const DEMO_FILES = fileURLToPath(new URL('../.tmp/demo/', import.meta.url));

let cluster: LocalCluster | undefined;

function nginxDeployment(name: string, image: string): V1Deployment {
  const labels = { app: name };
  return {
    metadata: { name, namespace: NS, labels },
    spec: {
      replicas: 3,
      // A pod must stay ready 2 s to count as available: slow enough to see the phases.
      minReadySeconds: 2,
      selector: { matchLabels: labels },
      strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 1, maxUnavailable: 0 } },
      template: {
        metadata: { labels, annotations: { 'sim.rollout-trace.dev/nginx': 'logs=nginx: ready for start up' } },
        spec: { containers: [{ name: 'nginx', image, ports: [{ containerPort: 80 }] }] },
      },
    },
  };
}

async function main(): Promise<void> {
  say(
    bold(
      'rollout-trace demo: the seed articles (kubespy, the Deployment controller), replayed on an embedded Kubernetes 1.20 control plane',
    ),
  );
  say(dim('Starting etcd, kube-apiserver, controller-manager, scheduler and the simulated kubelet...'));
  cluster = await startLocalCluster({ log: (l) => process.stderr.write(dim(`   ${l}`) + '\n') });
  const kc = cluster.kubeConfig;
  const kubeconfig = cluster.kubeconfigPath;
  const apps = kc.makeApiClient(AppsV1Api);
  const core = kc.makeApiClient(CoreV1Api);
  await core.createNamespace({ body: { metadata: { name: NS } } });
  await waitFor(async () => ((await core.readNamespacedServiceAccount({ name: 'default', namespace: NS })).secrets ?? []).length > 0);

  scene(1, 'deploy nginx', [
    'We deploy the example application: a Deployment "nginx" with 3 replicas of nginx:1.15-alpine.',
    "rollout-trace follows the Deployment, its ReplicaSet and its Pods until Pulumi's success predicate holds.",
  ]);
  await apps.createNamespacedDeployment({ namespace: NS, body: nginxDeployment('nginx', 'nginx:1.15-alpine') });
  await rolloutTrace(['deploy', 'nginx'], kubeconfig);

  scene(2, 'roll out a new image (nginx:1.12-alpine)', [
    'The three phases of a rollout: the Deployment creates a new revision and a new ReplicaSet;',
    'the new ReplicaSet scales up while the old one scales down; the rollout completes.',
  ]);
  // Trace first, change second (like Pulumi does): --min-generation makes the CLI wait for it.
  const generation = (await apps.readNamespacedDeployment({ name: 'nginx', namespace: NS })).metadata!.generation!;
  say(dim('(once rollout-trace has started, the demo changes the image; each new pod takes ~4 s to pull it)'));
  await rolloutTrace(['deploy', 'nginx', '--min-generation', String(generation + 1)], kubeconfig, {
    afterStart: () =>
      updateDeployment(apps, 'nginx', (d) => {
        d.spec!.template.spec!.containers[0]!.image = 'nginx:1.12-alpine';
        d.spec!.template.metadata!.annotations = { 'sim.rollout-trace.dev/nginx': 'slow-start;seconds=4' };
      }),
  });

  scene(3, 'kill a pod', [
    'We delete one of the pods. The ReplicaSet controller notices and starts a replacement;',
    'no rollout is triggered and the revision does not change. (--watch-for keeps tracing after the verdict.)',
  ]);
  // Announced before the CLI starts: writing while its live view redraws would garble a terminal.
  const victim = await somePod(core, 'nginx');
  say(dim(`(once rollout-trace has given its verdict, the demo runs: kubectl delete pod ${victim})`));
  await rolloutTrace(['deploy', 'nginx', '--watch-for', '12s'], kubeconfig, {
    afterVerdict: async () => {
      await delay(2500);
      await core.deleteNamespacedPod({ name: victim, namespace: NS });
    },
  });

  scene(4, 'relabel a pod', [
    'We remove the app label from one pod. The ReplicaSet controller releases it (removes itself from',
    'ownerReferences) and treats it as gone: a new pod is started, and the relabeled pod keeps running, orphaned.',
  ]);
  const relabeled = await somePod(core, 'nginx');
  say(dim(`(once rollout-trace has given its verdict, the demo runs: kubectl label pod ${relabeled} app-)`));
  await rolloutTrace(['deploy', 'nginx', '--watch-for', '12s'], kubeconfig, {
    afterVerdict: async () => {
      await delay(2500);
      const pod = await core.readNamespacedPod({ name: relabeled, namespace: NS });
      pod.metadata!.labels = { quarantined: 'true' };
      await core.replaceNamespacedPod({ name: relabeled, namespace: NS, body: pod });
    },
  });

  scene(5, 'a broken rollout: the image tag does not exist', [
    'Part 1\'s exercise: "make the image tag nonsense". Pulumi would wait 10 minutes;',
    'rollout-trace names the pod, the container and the cause within seconds and exits 1.',
  ]);
  await updateDeployment(apps, 'nginx', (d) => {
    d.spec!.template.spec!.containers[0]!.image = 'nginx:1.99-does-not-exist';
  });
  mkdirSync(DEMO_FILES, { recursive: true });
  const recording = join(DEMO_FILES, 'broken-rollout.rtrec.gz');
  const report = join(DEMO_FILES, 'broken-rollout.html');
  await rolloutTrace(['deploy', 'nginx', '--record', recording, '--report', report], kubeconfig);
  say('');
  say(dim('The trace was recorded: replayed with no cluster, at 4 times its pace, it says the same.'));
  await rolloutTraceReplay([recording, '--speed', '4']);
  say(bold(`The HTML report of this rollout: ${report} (open it in a browser)`));

  scene(6, 'roll back (kubectl rollout undo)', [
    'From the Deployment controller article: "you can rollback a deployment with kubectl rollout undo".',
    "The template of revision 2 comes back as revision 4: the controller re-uses revision 2's ReplicaSet (its",
    'pods never stopped: maxUnavailable is 0) and scales the broken one down. rollout-trace names the rollback.',
  ]);
  const beforeUndo = (await apps.readNamespacedDeployment({ name: 'nginx', namespace: NS })).metadata!.generation!;
  say(dim('(once rollout-trace has started, the demo runs: kubectl rollout undo deployment/nginx)'));
  await rolloutTrace(['deploy', 'nginx', '--min-generation', String(beforeUndo + 1)], kubeconfig, {
    afterStart: () => rolloutUndo(apps, 'nginx'),
  });

  scene(7, 'a volume that does not exist', [
    'Part 1\'s other exercise: "add a volume that doesn\'t exist". The pod mounts a ConfigMap that was',
    'never created; the kubelet cannot mount it, so the container never starts.',
  ]);
  const web = nginxDeployment('web', 'nginx:1.15-alpine');
  web.spec!.template.spec!.volumes = [{ name: 'config', configMap: { name: 'web-config' } }];
  web.spec!.template.spec!.containers[0]!.volumeMounts = [{ name: 'config', mountPath: '/etc/nginx/conf.d' }];
  await apps.createNamespacedDeployment({ namespace: NS, body: web });
  await rolloutTrace(['deploy', 'web'], kubeconfig);

  scene(8, 'a crashing app, its logs streamed live', [
    "Part 1's third exercise: a container that exits. With --follow-logs the new pods' output streams",
    "into the log while it happens (secrets masked), and the summary keeps the crashed instance's last lines.",
  ]);
  const api = nginxDeployment('api', 'nginx:1.15-alpine');
  api.spec!.replicas = 1;
  api.spec!.template.metadata!.annotations = {
    // Never Ready (its readiness probe fails) and exits after 2 s, like an app that cannot reach its database.
    'sim.rollout-trace.dev/nginx':
      'crash;not-ready;after=2;message=cannot reach db:5432;logs=connecting with DB_PASSWORD=hunter2|ERROR: cannot reach db:5432',
  };
  api.spec!.template.spec!.containers[0]!.readinessProbe = { httpGet: { path: '/healthz', port: 80 }, periodSeconds: 2 };
  await apps.createNamespacedDeployment({ namespace: NS, body: api });
  await rolloutTrace(['deploy', 'api', '--follow-logs', '--log-grep', 'DB|ERROR|fatal'], kubeconfig);

  await workloadScenes(kc, kubeconfig);

  say('');
  say(bold('Done.') + dim(' Stopping the control plane.'));
}

async function updateDeployment(apps: AppsV1Api, name: string, change: (d: V1Deployment) => void): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    const d = await apps.readNamespacedDeployment({ name, namespace: NS });
    change(d);
    try {
      await apps.replaceNamespacedDeployment({ name, namespace: NS, body: d });
      return;
    } catch (err) {
      // 409: the controller updated the status meanwhile; read again.
      if (attempt >= 5 || (err as { code?: number }).code !== 409) throw err;
    }
  }
}

/** What `kubectl rollout undo` does: put the previous revision's pod template back. */
async function rolloutUndo(apps: AppsV1Api, name: string): Promise<void> {
  const d = await apps.readNamespacedDeployment({ name, namespace: NS });
  const revision = (o: { metadata?: { annotations?: Record<string, string> } }) =>
    Number(o.metadata?.annotations?.['deployment.kubernetes.io/revision'] ?? 0);
  const current = revision(d);
  const owned = (await apps.listNamespacedReplicaSet({ namespace: NS })).items.filter((rs) =>
    rs.metadata?.ownerReferences?.some((o) => o.uid === d.metadata?.uid),
  );
  const previous = owned.filter((rs) => revision(rs) < current).sort((a, b) => revision(b) - revision(a))[0];
  if (!previous?.spec?.template) throw new Error(`no revision of ${name} before ${current} to roll back to`);
  const template = structuredClone(previous.spec.template);
  delete template.metadata?.labels?.['pod-template-hash'];
  await updateDeployment(apps, name, (live) => {
    live.spec!.template = template;
  });
}

async function somePod(core: CoreV1Api, app: string): Promise<string> {
  const pods = await core.listNamespacedPod({ namespace: NS, labelSelector: `app=${app}` });
  const running = pods.items
    .filter((p) => !p.metadata?.deletionTimestamp)
    .sort((a, b) => a.metadata!.name!.localeCompare(b.metadata!.name!));
  if (running.length === 0) throw new Error(`no pod of ${app} to pick`);
  return running[0]!.metadata!.name!;
}

async function waitFor(check: () => Promise<boolean>, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await check().catch(() => false)) return;
    if (Date.now() > deadline) throw new Error('timed out waiting for the demo namespace');
    await delay(200);
  }
}

async function shutdown(code: number): Promise<never> {
  for (const child of children) child.kill('SIGTERM');
  await cluster?.stop().catch(() => undefined);
  process.exit(code);
}

process.on('SIGINT', () => void shutdown(130));
process.on('SIGTERM', () => void shutdown(143));
try {
  await main();
  await shutdown(0);
} catch (err) {
  process.stderr.write(`demo failed: ${err instanceof Error ? err.message : String(err)}\n`);
  await shutdown(1);
}
