/**
 * CLI: `node --import tsx local-cluster/kubelet/main.ts --kubeconfig PATH [--nodes N]`
 * (`--name-prefix P --no-provisioner`: more Nodes beside a cluster's own kubelet).
 * Prints exactly one stdout line, `kubelet ready: <node,node>`, once every Node is Ready; logs go
 * to stderr. Stops cleanly on SIGTERM/SIGINT.
 */
import { parseArgs } from 'node:util';
import { startKubelet } from './index.js';

const USAGE = 'usage: main.ts --kubeconfig PATH [--nodes N] [--name-prefix P] [--cpu 4] [--memory 8Gi] [--max-pods 110] [--no-provisioner]';

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      kubeconfig: { type: 'string' },
      nodes: { type: 'string' },
      'name-prefix': { type: 'string' },
      cpu: { type: 'string' },
      memory: { type: 'string' },
      'max-pods': { type: 'string' },
      'no-provisioner': { type: 'boolean' },
    },
  });
  const kubeconfig = values.kubeconfig ?? process.env.KUBECONFIG;
  if (!kubeconfig) {
    process.stderr.write(`missing --kubeconfig\n${USAGE}\n`);
    process.exit(2);
  }
  const log = (line: string) => process.stderr.write(`${new Date().toISOString()} ${line}\n`);
  const kubelet = await startKubelet({
    kubeconfig,
    nodes: values.nodes ? Number(values.nodes) : undefined,
    namePrefix: values['name-prefix'],
    cpu: values.cpu,
    memory: values.memory,
    maxPods: values['max-pods'] ? Number(values['max-pods']) : undefined,
    // One provisioner per cluster: a second kubelet process (more Nodes) runs without.
    provisioner: !values['no-provisioner'],
    log,
  });
  process.stdout.write(`kubelet ready: ${kubelet.nodes.join(',')}\n`);
  let stopping = false;
  const shutdown = (signal: string) => {
    if (stopping) return;
    stopping = true;
    log(`${signal}: stopping`);
    kubelet.stop().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
}

main().catch((err: unknown) => {
  process.stderr.write(`simulated kubelet failed: ${(err as Error).message}\n`);
  process.exit(1);
});
