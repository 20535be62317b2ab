// The program most teams write first, in gate mode: a database from a chart, a migration Job that
// runs once the database rolled out, and the app, which starts only once the migration succeeded.
// The dependencies are written the plain way (`dependsOn: [db]`, `dependsOn: [migrate]`): in gate
// mode rollout-trace holds each workload's outputs until its rollout's verdict, so every
// dependency waits for the rollout as it would for the provider's own await.
//
//   pulumi up                                    # the chart, then the migration, then the app
//   pulumi config set version 1.5.0 && pulumi up # a new migration Job (a Job's template cannot
//                                                # change: it is replaced), then the app's rollout
//
// A migration that fails stops `pulumi up` within seconds with its exit code and last log lines,
// and the app is not touched: its new version never runs against the old schema.

import * as k8s from '@pulumi/kubernetes';
import * as pulumi from '@pulumi/pulumi';
import { traceWorkloads } from 'rollout-trace/pulumi';

// First, before any resource: every Deployment, StatefulSet, DaemonSet and Job gets its trace.
traceWorkloads({ mode: 'gate', timeoutSeconds: 300 });

const config = new pulumi.Config();
const namespace = config.get('namespace') ?? 'default';
const version = config.get('version') ?? '1.4.0';
const image = `registry.local/shop/api:${version}`;

// A chart's children are created by the provider (helm.v4.Chart): their own await stays, and
// `dependsOn: [db]` waits for all of them; rollout-trace still reports their causes as they happen.
const db = new k8s.helm.v4.Chart('db', { chart: './charts/db', namespace, values: { image: 'postgres:16' } });

const migrate = new k8s.batch.v1.Job(
  'migrate',
  {
    metadata: { namespace },
    spec: {
      backoffLimit: 1,
      template: {
        spec: {
          restartPolicy: 'Never',
          containers: [{ name: 'migrate', image, args: ['migrate'], env: [{ name: 'DB_HOST', value: 'db-postgres' }] }],
        },
      },
    },
  },
  { dependsOn: [db] },
);

const labels = { app: 'api' };
const api = new k8s.apps.v1.Deployment(
  'api',
  {
    metadata: { namespace },
    spec: {
      replicas: 2,
      selector: { matchLabels: labels },
      template: {
        metadata: { labels },
        spec: {
          containers: [{ name: 'api', image, ports: [{ containerPort: 8080 }], env: [{ name: 'DB_HOST', value: 'db-postgres' }] }],
        },
      },
    },
  },
  { dependsOn: [migrate] },
);

new k8s.core.v1.Service('api', {
  metadata: { namespace },
  spec: { selector: labels, ports: [{ port: 80, targetPort: 8080, protocol: 'TCP' }] },
});

// Read once the app rolled out (its outputs wait for the verdict, as they would for the provider's await).
export const apiDeployment = api.metadata.name;
