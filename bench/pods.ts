/**
 * Reducer CPU per observation for one N-pod rollout (no cluster): each pod is created (already
 * scheduled, as the simulated kubelet's pods are seen), updated, started and becomes Ready, with the SuccessfulCreate, Scheduled, Pulled, Created and Started
 * Events; the ReplicaSet and the Deployment update their counts every 20 pods; a tick per
 * simulated second (every 100 observations). The rollout must end in success.
 *
 * The same for a StatefulSet or a DaemonSet of N pods (`--kind StatefulSet|DaemonSet`): its pods
 * are owned by it, its status is updated every 20 pods.
 *
 * Run: `node --import tsx bench/pods.ts [sizes=100,2000,20000] [--kind KIND]`. Prints µs per
 * observation over the whole replay and over its last 10 % (where a cost that grows with what is
 * cached shows).
 */
import type { Observation } from '../src/core/index.js';
import { initialState, reduce, resolvePolicy } from '../src/core/index.js';
import {
  availableTrue,
  daemonSetObject,
  deployment,
  event,
  pod,
  progressing,
  replicaSet,
  running,
  statefulSetObject,
  T0,
  TARGET,
  tick,
  up,
  waiting,
  workloadPod,
} from '../test/unit/core/builders.js';

type Kind = 'Deployment' | 'StatefulSet' | 'DaemonSet';
const kindArg = process.argv.indexOf('--kind');
const KIND = (kindArg > 0 ? process.argv[kindArg + 1] : 'Deployment') as Kind;
const NAME = KIND === 'Deployment' ? 'web' : KIND === 'StatefulSet' ? 'db' : 'agent';

/** The workload's own object with `ready` of `n` pods Ready (StatefulSet, DaemonSet). */
function owner(n: number, ready: number): Observation {
  if (KIND === 'StatefulSet') {
    const s = {
      readyReplicas: ready,
      availableReplicas: ready,
      currentRevision: 'db-1',
      updateRevision: 'db-1',
      updatedReplicas: n,
      currentReplicas: n,
    };
    return up('StatefulSet', statefulSetObject('db', { replicas: n }, s));
  }
  const s = { desiredNumberScheduled: n, currentNumberScheduled: n, updatedNumberScheduled: n, numberReady: ready, numberAvailable: ready };
  return up('DaemonSet', daemonSetObject('agent', s));
}

function observations(n: number): Observation[] {
  const rs = KIND === 'Deployment' ? 'web-7d4b9c8f6' : NAME;
  const out: Observation[] = [];
  let s = 1;
  const add = (o: Observation) => {
    out.push({ ...o, at: T0 + s * 1000 } as Observation);
    if (out.length % 100 === 0) out.push(tick(++s));
  };
  const dep = (ready: number) =>
    deployment({
      replicas: n,
      conditions: [progressing('ReplicaSetUpdated', rs)],
      status: { replicas: n, updatedReplicas: n, readyReplicas: ready, availableReplicas: ready },
    });
  if (KIND === 'Deployment') {
    add(up('Deployment', dep(0)));
    add(up('ReplicaSet', replicaSet({ name: rs, revision: '1', replicas: n, ready: 0 })));
  } else add(owner(n, 0));
  add({ type: 'synced', at: T0 });
  const revision = KIND === 'StatefulSet' ? 'db-1' : '1';
  const podOf = (name: string, o: Parameters<typeof pod>[0]) =>
    KIND === 'Deployment' ? pod(o) : workloadPod(KIND, NAME, { ...o, revision, node: `node-${name.slice(-3)}` });
  const podEvent = (name: string, reason: string) =>
    up('Event', event({ kind: 'Pod', name, reason, message: reason, type: 'Normal', at: s }));
  for (let i = 0; i < n; i++) {
    const name = `${rs}-p${i.toString(36).padStart(5, '0')}`;
    add(
      up(
        'Event',
        event({ kind: 'ReplicaSet', name: rs, reason: 'SuccessfulCreate', message: `Created pod: ${name}`, type: 'Normal', at: s }),
      ),
    );
    add(up('Pod', podOf(name, { name, rs, phase: 'Pending', containers: [waiting('ContainerCreating', undefined)] })));
    add(podEvent(name, 'Scheduled'));
    add(up('Pod', podOf(name, { name, rs, phase: 'Pending', containers: [waiting('ContainerCreating', undefined)] })));
    for (const reason of ['Pulled', 'Created', 'Started']) add(podEvent(name, reason));
    add(up('Pod', podOf(name, { name, rs, containers: [running('app', { ready: false })], ready: false })));
    add(up('Pod', podOf(name, { name, rs, containers: [running()] })));
    if ((i + 1) % 20 === 0 || i === n - 1) {
      if (KIND !== 'Deployment') add(owner(n, i + 1));
      else {
        add(up('ReplicaSet', replicaSet({ name: rs, revision: '1', replicas: n, ready: i + 1 })));
        add(up('Deployment', dep(i + 1)));
      }
    }
  }
  if (KIND === 'Deployment') {
    add(up('Deployment', deployment({ replicas: n, conditions: [availableTrue, progressing('NewReplicaSetAvailable', rs)] })));
  }
  return out;
}

function measure(n: number): void {
  const obs = observations(n);
  const target = KIND === 'Deployment' ? TARGET : { ...TARGET, name: NAME, kind: KIND };
  let state = initialState(target, resolvePolicy({}), T0);
  let verdict: string | undefined;
  let verdictUs = 0;
  const tail = Math.floor(obs.length * 0.9);
  const started = process.cpuUsage();
  let tailStarted = started;
  for (let i = 0; i < obs.length; i++) {
    if (i === tail) tailStarted = process.cpuUsage();
    const before = verdict === undefined ? process.cpuUsage() : undefined;
    const [next, events] = reduce(state, obs[i]!);
    state = next;
    for (const e of events) if (e.type === 'verdict') verdict = e.verdict.outcome;
    if (before && verdict !== undefined) {
      const d = process.cpuUsage(before);
      verdictUs = d.user + d.system;
    }
  }
  const cpu = (from: NodeJS.CpuUsage) => {
    const d = process.cpuUsage(from);
    return d.user + d.system;
  };
  const all = cpu(started) / obs.length;
  const last = cpu(tailStarted) / (obs.length - tail);
  console.log(
    `${KIND} ${String(n).padStart(6)} pods: ${obs.length} observations, verdict ${verdict ?? 'none'}; ` +
      `${all.toFixed(1)} µs per observation, ${last.toFixed(1)} µs over the last 10 %; ` +
      `the observation that gave the verdict ${(verdictUs / 1000).toFixed(1)} ms`,
  );
  if (verdict !== 'succeeded') process.exitCode = 1;
}

const sizes = process.argv[2] !== undefined && !process.argv[2].startsWith('--') ? process.argv[2] : '100,2000,20000';
for (const n of sizes.split(',').map(Number)) measure(n);
