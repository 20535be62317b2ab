/**
 * `--watch`: after the verdict the tracker closes its watches, so the CLI keeps following the
 * Deployments itself (kubespy-style) to show pods being killed and replaced, or relabeled and
 * orphaned. It emits the same {@link RolloutEvent}s the tracker does (`pod`, `pod-deleted`,
 * `pod-orphaned`, `replicaset`, `revision`), built on the source's self-healing KindWatcher.
 */
import type { KubeConfig, V1Deployment, V1Pod, V1ReplicaSet } from '@kubernetes/client-node';
import { KindWatcher } from '../cluster/kind-watcher.js';
import { kindApis } from '../cluster/kinds.js';
import { REVISION_ANNOTATION } from '../core/k8s.js';
import { podView } from '../core/pod-state.js';
import type { DeploymentRef, RolloutEvent } from '../core/types.js';
import type { RolloutTraceError } from '../errors.js';

/** A running follower; `stop()` closes every watch. */
export interface Follower {
  stop(): void;
  /** Resolves with a fatal watch error (e.g. forbidden), if one happens. */
  readonly failed: Promise<RolloutTraceError>;
}

interface KnownPod {
  name: string;
  replicaSet: string;
  text: string;
}

/** Follows `names` in `namespace`, calling `emit` for each change. */
export function followDeployments(
  kc: KubeConfig,
  namespace: string,
  names: string[],
  emit: (e: RolloutEvent) => void,
  now: () => number = Date.now,
): Follower {
  const apis = kindApis(kc);
  const deployments = new Map<string, V1Deployment>(); // by uid
  const replicaSets = new Map<string, V1ReplicaSet>(); // by uid
  const rsText = new Map<string, string>();
  const pods = new Map<string, KnownPod>(); // by pod uid, the pods reported as ours
  const podObjects = new Map<string, V1Pod>(); // by uid, every pod of the namespace
  const revisions = new Map<string, string>(); // deployment name -> revision
  let reportFatal!: (err: RolloutTraceError) => void;
  const failed = new Promise<RolloutTraceError>((resolve) => (reportFatal = resolve));

  const refOf = (name: string): DeploymentRef => ({ namespace, name });
  const ourDeployment = (uid: string | undefined) => {
    const d = uid !== undefined ? deployments.get(uid) : undefined;
    return d && names.includes(d.metadata?.name ?? '') ? d : undefined;
  };
  const ownerUid = (o: { metadata?: { ownerReferences?: { uid: string; controller?: boolean }[] } }) =>
    o.metadata?.ownerReferences?.find((r) => r.controller === true)?.uid;
  const deploymentOfRs = (rs: V1ReplicaSet | undefined) => (rs ? ourDeployment(ownerUid(rs)) : undefined);

  const onDeployment = (type: 'upsert' | 'delete', d: V1Deployment) => {
    const uid = d.metadata?.uid ?? '';
    if (type === 'delete') deployments.delete(uid);
    else deployments.set(uid, d);
    const name = d.metadata?.name ?? '';
    if (!names.includes(name) || type === 'delete') return;
    // The three watches sync in any order: attribute what arrived before its owner.
    if (!revisions.has(name)) for (const rs of replicaSets.values()) onReplicaSet('upsert', rs);
    const revision = d.metadata?.annotations?.[REVISION_ANNOTATION];
    const previous = revisions.get(name);
    if (revision !== undefined && revision !== previous) {
      revisions.set(name, revision);
      if (previous !== undefined) {
        emit({ type: 'revision', at: now(), deployment: refOf(name), revision, previous, change: Number(revision) > Number(previous) ? 'new' : 'rollback' });
      }
    }
  };

  const onReplicaSet = (type: 'upsert' | 'delete', rs: V1ReplicaSet) => {
    const uid = rs.metadata?.uid ?? '';
    if (type === 'delete') {
      replicaSets.delete(uid);
      return;
    }
    replicaSets.set(uid, rs);
    const d = deploymentOfRs(rs);
    if (!d) return;
    const revision = rs.metadata?.annotations?.[REVISION_ANNOTATION] ?? '';
    const e: RolloutEvent = {
      type: 'replicaset',
      at: now(),
      deployment: refOf(d.metadata!.name!),
      name: rs.metadata?.name ?? '',
      revision,
      role: revision === d.metadata?.annotations?.[REVISION_ANNOTATION] ? 'new' : 'old',
      desired: rs.spec?.replicas ?? 0,
      ready: rs.status?.readyReplicas ?? 0,
      available: rs.status?.availableReplicas ?? 0,
      created: !rsText.has(uid),
    };
    const text = JSON.stringify([e.role, e.desired, e.ready, e.available]);
    if (rsText.get(uid) === text) return;
    const firstSight = !rsText.has(uid);
    rsText.set(uid, text);
    emit(e);
    if (firstSight) for (const pod of podObjects.values()) if (ownerUid(pod) === uid) onPod('upsert', pod);
  };

  const onPod = (type: 'upsert' | 'delete', pod: V1Pod) => {
    const uid = pod.metadata?.uid ?? '';
    const name = pod.metadata?.name ?? '';
    const known = pods.get(uid);
    if (type === 'delete') podObjects.delete(uid);
    else podObjects.set(uid, pod);
    const rs = replicaSets.get(ownerUid(pod) ?? '');
    const d = deploymentOfRs(rs);
    if (type === 'delete') {
      if (known) {
        pods.delete(uid);
        const owner = [...replicaSets.values()].find((r) => r.metadata?.name === known.replicaSet);
        const dep = deploymentOfRs(owner);
        if (dep) emit({ type: 'pod-deleted', at: now(), deployment: refOf(dep.metadata!.name!), name, replicaSet: known.replicaSet });
      }
      return;
    }
    if (!d || !rs) {
      // Owned before, not now: the ReplicaSet released it (labels changed).
      if (known) {
        pods.delete(uid);
        const owner = [...replicaSets.values()].find((r) => r.metadata?.name === known.replicaSet);
        const dep = deploymentOfRs(owner);
        if (dep) emit({ type: 'pod-orphaned', at: now(), deployment: refOf(dep.metadata!.name!), name, replicaSet: known.replicaSet });
      }
      return;
    }
    const view = podView(pod);
    const rsName = rs.metadata?.name ?? '';
    const text = JSON.stringify([view.state, view.detail ?? '']);
    if (known?.text === text) return;
    pods.set(uid, { name, replicaSet: rsName, text });
    emit({
      type: 'pod',
      at: now(),
      deployment: refOf(d.metadata!.name!),
      name,
      replicaSet: rsName,
      revision: rs.metadata?.annotations?.[REVISION_ANNOTATION],
      state: view.state,
      ...(view.detail !== undefined ? { detail: view.detail } : {}),
      ...(view.node !== undefined ? { node: view.node } : {}),
    });
  };

  const handlers = <T>(change: (type: 'upsert' | 'delete', o: T) => void) => ({
    change,
    synced: () => undefined,
    contact: () => undefined,
    fatal: (err: RolloutTraceError) => reportFatal(err),
  });
  // Deployments first so ReplicaSets and Pods can be attributed as soon as they arrive.
  const watchers = [
    new KindWatcher(kc, namespace, apis.Deployment, handlers(onDeployment)),
    new KindWatcher(kc, namespace, apis.ReplicaSet, handlers(onReplicaSet)),
    new KindWatcher(kc, namespace, apis.Pod, handlers(onPod)),
  ];
  for (const w of watchers) w.start();
  return {
    failed,
    stop() {
      for (const w of watchers) w.stop();
    },
  };
}
