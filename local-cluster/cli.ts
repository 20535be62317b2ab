/**
 * `npm run -s cluster:up [-- --dir D --nodes N --no-kubelet --no-load-balancer --no-ingress --no-certificates]`: starts the embedded control plane in
 * the background and prints `export KUBECONFIG=<path>` as its last line.
 * `npm run -s cluster:down [-- --dir D]`: stops everything `cluster:up` started.
 */
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { startLocalCluster } from './control-plane.js';
import { cacheDir } from './paths.js';
import { isAlive, killGroup } from './processes.js';

interface State {
  dir: string;
  kubeconfigPath: string;
  pids: Record<string, number>;
}

const USAGE =
  'usage: cluster.ts up [--dir DIR] [--nodes N] [--no-kubelet] [--no-load-balancer] [--no-ingress] [--no-certificates] | down [--dir DIR]';

function parseCommandLine() {
  try {
    return parseArgs({
      allowPositionals: true,
      options: {
        dir: { type: 'string' },
        nodes: { type: 'string' },
        'no-kubelet': { type: 'boolean' },
        'no-load-balancer': { type: 'boolean' },
        'no-ingress': { type: 'boolean' },
        'no-certificates': { type: 'boolean' },
      },
    });
  } catch (e) {
    process.stderr.write(`${(e as Error).message}\n${USAGE}\n`);
    return undefined;
  }
}

async function main(): Promise<number> {
  const parsed = parseCommandLine();
  if (!parsed) return 2;
  const { values, positionals } = parsed;
  const dir = path.resolve(values.dir ?? path.join(cacheDir(), 'cluster'));
  const stateFile = path.join(dir, 'state.json');
  const command = positionals[0];
  if (command === 'down') return down(stateFile, dir);
  if (command !== 'up') {
    process.stderr.write(`unknown command "${command ?? ''}": expected "up" or "down".\n${USAGE}\n`);
    return 2;
  }
  const nodes = values.nodes === undefined ? 2 : Number(values.nodes);
  if (!Number.isInteger(nodes) || nodes < 1 || nodes > 50) {
    process.stderr.write(`--nodes "${values.nodes}" is not valid: give a whole number from 1 to 50.\n`);
    return 2;
  }
  const existing = readState(stateFile);
  if (existing && Object.values(existing.pids).every(isAlive)) {
    process.stderr.write(`[cluster] already running (${dir})\n`);
    process.stdout.write(`export KUBECONFIG=${existing.kubeconfigPath}\n`);
    return 0;
  }
  if (existing) await down(stateFile, dir);
  const controllers = {
    loadBalancer: !values['no-load-balancer'],
    ingress: !values['no-ingress'],
    certificates: !values['no-certificates'],
  };
  const cluster = await startLocalCluster({ dir, detach: true, nodes, kubelet: !values['no-kubelet'], controllers });
  const state: State = { dir, kubeconfigPath: cluster.kubeconfigPath, pids: cluster.pids };
  writeFileSync(stateFile, JSON.stringify(state, null, 2));
  process.stderr.write(`[cluster] running in the background; stop it with: npm run -s cluster:down\n`);
  process.stdout.write(`export KUBECONFIG=${cluster.kubeconfigPath}\n`);
  return 0;
}

function readState(file: string): State | undefined {
  if (!existsSync(file)) return undefined;
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as State;
  } catch {
    return undefined;
  }
}

async function down(stateFile: string, dir: string): Promise<number> {
  const state = readState(stateFile);
  if (!state) {
    process.stderr.write(`[cluster] nothing to stop: no cluster state in ${dir}\n`);
    return 0;
  }
  for (const [name, pid] of Object.entries(state.pids).reverse()) {
    if (isAlive(pid)) process.stderr.write(`[cluster] stopping ${name} (pid ${pid})\n`);
    await killGroup(pid);
  }
  rmSync(dir, { recursive: true, force: true });
  process.stderr.write('[cluster] stopped\n');
  return 0;
}

main().then(
  (code) => process.exit(code),
  (err) => {
    process.stderr.write(`${(err as Error).message}\n`);
    process.exit(1);
  },
);
