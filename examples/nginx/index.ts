// The kubespy trace-deployment example (nginx, 3 replicas), traced by rollout-trace.
//
//   pulumi up                                   # first rollout (revision 1)
//   pulumi config set image nginx:1.12-alpine
//   pulumi up                                   # watch revision 2 replace revision 1, pod by pod
//
// Observe mode: the kubernetes provider keeps its own await; rollout-trace streams each
// ReplicaSet and pod change into the `nginx-rollout` row while it runs.

import * as k8s from '@pulumi/kubernetes';
import * as pulumi from '@pulumi/pulumi';
import { rolloutOf, traceDeployments } from 'rollout-trace/pulumi';

// Before any Deployment (and provider) is created: every Deployment below gets a trace.
traceDeployments();

const config = new pulumi.Config();
const appLabels = { app: 'nginx' };

const nginx = new k8s.apps.v1.Deployment('nginx', {
  metadata: { name: 'nginx', namespace: config.get('namespace') },
  spec: {
    selector: { matchLabels: appLabels },
    replicas: config.getNumber('replicas') ?? 3,
    template: {
      metadata: { labels: appLabels },
      spec: { containers: [{ name: 'nginx', image: config.get('image') ?? 'nginx:1.11-alpine' }] },
    },
  },
});

export const name = nginx.metadata.name;
export const rollout = rolloutOf(nginx)!.summary;
