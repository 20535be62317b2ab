/**
 * The demo's StatefulSet, DaemonSet and Job scenes (9-11): a migration Job that fails with its
 * log, a StatefulSet whose volume claim cannot bind, a DaemonSet that cannot run on a tainted
 * node. The controllers are the real ones; the claim is refused by the local cluster's simulated
 * provisioner (StorageClass `sim-broken`), the tainted node is one more simulated kubelet.
 */
import { AppsV1Api, BatchV1Api, type KubeConfig, type V1PodTemplateSpec } from '@kubernetes/client-node';
import { startKubelet } from '../local-cluster/kubelet/index.js';
import { dim, NS, rolloutTrace, say, scene } from './demo-cli.js';

function template(app: string, image: string, behaviour?: string): V1PodTemplateSpec {
  return {
    metadata: { labels: { app }, annotations: behaviour ? { [`sim.rollout-trace.dev/${app}`]: behaviour } : {} },
    spec: { containers: [{ name: app, image }] },
  };
}

/** Runs scenes 9-11 against the cluster of `kc` (its kubeconfig file is `kubeconfig`). */
export async function workloadScenes(kc: KubeConfig, kubeconfig: string): Promise<void> {
  const apps = kc.makeApiClient(AppsV1Api);

  scene(9, 'a migration Job that fails, with its log', [
    'A Job runs the database migration before the new release. Its container exits 1; the Job retries',
    'once (backoffLimit 1) and fails. `kubectl wait --for=condition=complete` would wait for its timeout;',
    "rollout-trace reports the failing pod while the Job retries, then the exit code and the migration's last lines.",
  ]);
  const migrate = template(
    'migrate',
    'alpine:3.19',
    'crash;exitCode=1;after=2;logs=applying 0042_add_users|ERROR: relation "accounts" does not exist',
  );
  migrate.spec!.restartPolicy = 'Never';
  await kc.makeApiClient(BatchV1Api).createNamespacedJob({
    namespace: NS,
    body: { metadata: { name: 'migrate' }, spec: { backoffLimit: 1, template: migrate } },
  });
  await rolloutTrace(['job', 'migrate'], kubeconfig);

  scene(10, 'a StatefulSet whose volume claim cannot bind', [
    'A database StatefulSet asks each pod for a volume of StorageClass "sim-broken", whose provisioner',
    'always fails. The pod stays Pending; rollout-trace names the claim, the StorageClass and what the',
    'provisioner said, and that the later ordinals wait for pod 0.',
  ]);
  await apps.createNamespacedStatefulSet({
    namespace: NS,
    body: {
      metadata: { name: 'db' },
      spec: {
        serviceName: 'db',
        replicas: 2,
        selector: { matchLabels: { app: 'db' } },
        template: {
          ...template('db', 'postgres:13'),
          spec: { containers: [{ name: 'db', image: 'postgres:13', volumeMounts: [{ name: 'data', mountPath: '/var/lib/postgresql' }] }] },
        },
        volumeClaimTemplates: [
          {
            metadata: { name: 'data' },
            spec: { accessModes: ['ReadWriteOnce'], storageClassName: 'sim-broken', resources: { requests: { storage: '1Gi' } } },
          },
        ],
      },
    },
  });
  await rolloutTrace(['sts', 'db', '--timeout', '90s'], kubeconfig);

  scene(11, 'a DaemonSet that cannot run on a tainted node', [
    'A log-shipper DaemonSet should run on every node. A new node joins with the taint dedicated=gpu:NoSchedule,',
    'which the DaemonSet does not tolerate. The rollout succeeds on the other nodes, and rollout-trace names',
    'the node the agent will not run on, and why.',
  ]);
  const gpu = await startKubelet({
    kubeconfig: kc,
    nodes: 1,
    namePrefix: 'gpu',
    taints: [{ key: 'dedicated', value: 'gpu', effect: 'NoSchedule' }],
  });
  try {
    say(dim('(a node "gpu-1" with the taint dedicated=gpu:NoSchedule joined the cluster)'));
    await apps.createNamespacedDaemonSet({
      namespace: NS,
      body: {
        metadata: { name: 'log-shipper' },
        spec: { selector: { matchLabels: { app: 'log-shipper' } }, template: template('log-shipper', 'fluent/fluent-bit:2.2') },
      },
    });
    await rolloutTrace(['ds', 'log-shipper'], kubeconfig);
  } finally {
    await gpu.stop();
  }
}
