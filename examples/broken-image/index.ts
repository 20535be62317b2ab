// Gate mode with a broken image: rollout-trace owns the await (the Deployment gets
// `pulumi.com/waitFor` on its name, so the provider returns once its controller saw the write), so
// `pulumi up` fails in ~10 s with the reason, the pod's events and kubectl hints, instead of
// waiting 10 minutes for the provider's timeout.
//
//   pulumi up                                        # fails: image "nginx:1.99-does-not-exist" not found
//   pulumi config set image nginx:1.19 && pulumi up  # succeeds; the ConfigMap is created after the rollout

import * as k8s from '@pulumi/kubernetes';
import * as pulumi from '@pulumi/pulumi';
import { gatedDeployment } from 'rollout-trace/pulumi';

const config = new pulumi.Config();
const labels = { app: 'web' };

const { deployment, trace } = gatedDeployment(
  'web',
  {
    metadata: { namespace: config.get('namespace') },
    spec: {
      replicas: 2,
      selector: { matchLabels: labels },
      template: {
        metadata: { labels },
        spec: { containers: [{ name: 'web', image: config.get('image') ?? 'nginx:1.99-does-not-exist' }] },
      },
    },
  },
  {},
  {
    // Fail a missing image after 5 s instead of the default 10 s; give up after 3 minutes.
    policy: { classes: { 'image-pull-not-found': { afterSeconds: 5 } } },
    timeoutSeconds: 180,
  },
);

// Created only once the rollout succeeded: it depends on the gate, not just on the Deployment.
const released = new k8s.core.v1.ConfigMap(
  'web-released',
  { metadata: { namespace: config.get('namespace') }, data: { deployment: deployment.metadata.name } },
  { dependsOn: [trace.ready] },
);

export const outcome = trace.outcome;
export const releasedConfigMap = released.metadata.name;
// The cause as data (class, pod, container, reason, hint), e.g. for `pulumi stack output --json`
// in observe mode; undefined when the rollout succeeded.
export const failure = trace.failure;
