/**
 * Outages of one control-plane component, for fault tests: kill it, freeze it (SIGSTOP: its
 * sockets stay open but nothing answers), thaw it, and start it again with the very same command
 * line (same ports, same certificates, same etcd data), then wait until it is healthy again.
 */
import { waitFor } from './probes.js';
import { type Component, isAlive, killGroup, signalGroup, sleep, startComponent } from './processes.js';

/**
 * The processes a {@link LocalCluster} runs (`kubelet` is the simulated one, all its Nodes;
 * `controllers` the simulated load-balancer, Ingress and certificate controllers).
 */
export type ComponentName = 'etcd' | 'kube-apiserver' | 'kube-controller-manager' | 'kube-scheduler' | 'kubelet' | 'controllers';

/** Health probes by component; a component without one is healthy once it stayed up for 1 s. */
export type HealthProbes = Partial<Record<ComponentName, (c: Component) => Promise<boolean>>>;

/** Fault switches on the components of a running cluster. */
export interface ComponentFaults {
  /** Kills the component at once (SIGKILL to its process group). Its ports and data stay for {@link restart}. */
  kill(name: ComponentName): Promise<void>;
  /** Freezes the component (SIGSTOP to its process group): connections stay open, nothing answers. */
  freeze(name: ComponentName): void;
  /** Resumes a frozen component (SIGCONT). */
  thaw(name: ComponentName): void;
  /**
   * Starts the component again with its original command line (killing it first if it still
   * runs) and resolves once it is healthy, as {@link waitHealthy}.
   */
  restart(name: ComponentName, timeoutMs?: number): Promise<void>;
  /**
   * Resolves once the component answers its health probe: etcd `/health`, kube-apiserver
   * `/readyz`, the simulated kubelet's `kubelet ready:` line of its latest start (the controllers'
   * `controllers ready:`); the
   * controller-manager and scheduler once they stayed up for 1 s. Throws if it exits or after
   * `timeoutMs` (default 60 s).
   */
  waitHealthy(name: ComponentName, timeoutMs?: number): Promise<void>;
}

/**
 * Fault switches over `components` (the cluster's live list: a restart replaces the entry, so
 * stopping the cluster stops the new process) keeping `pids` up to date.
 */
export function componentFaults(components: Component[], probes: HealthProbes, pids: Record<string, number>): ComponentFaults {
  const find = (name: ComponentName): Component => {
    const c = components.find((x) => x.name === name);
    if (!c) throw new Error(`local cluster: no component "${name}" (running: ${components.map((x) => x.name).join(', ')})`);
    return c;
  };
  const pidOf = (name: ComponentName): number => {
    const pid = find(name).child.pid;
    if (pid === undefined) throw new Error(`local cluster: ${name} has no process`);
    return pid;
  };
  const waitHealthy = async (name: ComponentName, timeoutMs = 60_000): Promise<void> => {
    const c = find(name);
    const probe = probes[name] ?? (async () => (await sleep(1000), isAlive(c.child.pid ?? -1)));
    await waitFor(name, c, () => probe(c), timeoutMs);
  };
  return {
    kill: (name) => killGroup(pidOf(name), 0),
    freeze: (name) => signalGroup(pidOf(name), 'SIGSTOP'),
    thaw: (name) => signalGroup(pidOf(name), 'SIGCONT'),
    waitHealthy,
    async restart(name, timeoutMs) {
      const old = find(name);
      if (old.child.pid !== undefined) await killGroup(old.child.pid, 0);
      const { command, args, logFile, cwd } = old;
      const next = startComponent({ name, command, args, logFile, cwd });
      components[components.indexOf(old)] = next;
      pids[name] = next.child.pid!;
      await waitHealthy(name, timeoutMs);
    },
  };
}
