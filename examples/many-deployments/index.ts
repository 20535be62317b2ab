// Several Deployments traced at once, on an explicit kubernetes provider: each gets its own
// `<name>-rollout` row, all watched through one shared watch per kind per namespace. The traces
// use the provider's own kubeconfig/context (captured because traceDeployments() ran first).

import * as k8s from '@pulumi/kubernetes';
import * as pulumi from '@pulumi/pulumi';
import { rolloutOf, traceDeployments } from 'rollout-trace/pulumi';

traceDeployments({ policy: { classes: { 'crash-loop': { afterSeconds: 30 } } } });

const config = new pulumi.Config();
const provider = new k8s.Provider('cluster', {
  kubeconfig: config.get('kubeconfig'), // content or path; unset = $KUBECONFIG / ~/.kube/config
  context: config.get('context'),
  namespace: config.get('namespace'),
});

function app(name: string, image: string, replicas: number): k8s.apps.v1.Deployment {
  const labels = { app: name };
  return new k8s.apps.v1.Deployment(
    name,
    {
      spec: {
        replicas,
        selector: { matchLabels: labels },
        template: { metadata: { labels }, spec: { containers: [{ name, image }] } },
      },
    },
    { provider },
  );
}

const deployments = [app('frontend', 'nginx:1.19', 3), app('api', 'httpd:2.4', 2), app('cache', 'redis:6.2', 1)];

export const rollouts = deployments.map((d) => rolloutOf(d)!.summary);
