/**
 * CLI: `node --import tsx local-cluster/controllers/main.ts --kubeconfig PATH
 * [--no-load-balancer] [--no-ingress] [--no-certificates] [--pool CIDR|RANGE ...]`.
 * Prints exactly one stdout line, `controllers ready: load-balancer,ingress-nginx,certificates`
 * (the ones running), once each has listed what it watches; logs go to stderr. Stops cleanly on
 * SIGTERM/SIGINT.
 */
import { parseArgs } from 'node:util';
import { startControllers } from './index.js';

const USAGE = 'usage: main.ts --kubeconfig PATH [--no-load-balancer] [--no-ingress] [--no-certificates] [--pool CIDR|RANGE ...]';

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      kubeconfig: { type: 'string' },
      'no-load-balancer': { type: 'boolean' },
      'no-ingress': { type: 'boolean' },
      'no-certificates': { type: 'boolean' },
      pool: { type: 'string', multiple: true },
    },
  });
  const kubeconfig = values.kubeconfig ?? process.env.KUBECONFIG;
  if (!kubeconfig) {
    process.stderr.write(`missing --kubeconfig\n${USAGE}\n`);
    process.exit(2);
  }
  const log = (line: string) => process.stderr.write(`${new Date().toISOString()} ${line}\n`);
  const controllers = await startControllers({
    kubeconfig,
    loadBalancer: values['no-load-balancer'] ? false : values.pool ? { pools: [{ name: 'default', addresses: values.pool }] } : {},
    ingress: values['no-ingress'] ? false : {},
    certificates: !values['no-certificates'],
    log,
  });
  process.stdout.write(`controllers ready: ${controllers.names.join(',')}\n`);
  let stopping = false;
  const shutdown = (signal: string) => {
    if (stopping) return;
    stopping = true;
    log(`${signal}: stopping`);
    controllers.stop().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
}

main().catch((err: unknown) => {
  process.stderr.write(`simulated controllers failed: ${(err as Error).message}\n`);
  process.exit(1);
});
