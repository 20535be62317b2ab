/**
 * Which watch events a tracker of one Deployment can need. A namespace watch is shared by every
 * tracked Deployment; forwarding another Deployment's ReplicaSets, Pods and Events to a tracker
 * only costs it reducer work. The filter is deliberately loose (names, not UIDs): the core
 * decides ownership exactly; this only drops what can never belong to the Deployment.
 */

import type { KindToObject, WatchedKind, WorkloadKind } from '../core/index.js';
import { KIND_FACTS, ownerOfKind, ownsItsPods } from '../core/index.js';

type Owned = { metadata?: { ownerReferences?: Array<{ kind?: string; name?: string; controller?: boolean }> } };

/**
 * Whether `object` (of `kind`, seen as `type`) may concern the workload `workloadName` of kind
 * `targetKind` (default Deployment). A StatefulSet's, DaemonSet's or Job's pods are owned by it
 * directly; ReplicaSets never concern it.
 * Deletions of ReplicaSets, Pods and Events always pass (the core must be able to forget what it
 * cached; it ignores the rest cheaply), and so does a Pod with no
 * controller owner: the ReplicaSet removing its ownerReference is how a pod is orphaned.
 */
export function mayConcern(
  workloadName: string,
  type: 'upsert' | 'delete',
  kind: WatchedKind,
  object: KindToObject[WatchedKind],
  targetKind: WorkloadKind,
): boolean {
  const prefix = `${workloadName}-`;
  switch (kind) {
    case 'Deployment':
    case 'StatefulSet':
    case 'DaemonSet':
    case 'Job':
      return kind === targetKind && object.metadata?.name === workloadName;
    case 'PersistentVolumeClaim':
    case 'Node':
      return true;
    case 'Event': {
      if (type === 'delete') return true;
      const involved = (object as KindToObject['Event']).involvedObject;
      const name = involved?.name ?? '';
      return involved?.kind === 'PersistentVolumeClaim' || name === workloadName || name.startsWith(prefix);
    }
    case 'ReplicaSet': {
      if (!KIND_FACTS[targetKind].ownedVia.includes('ReplicaSet')) return false;
      if (type === 'delete') return true;
      const owner = ownerOfKind(object, 'Deployment');
      return owner === undefined || owner.name === workloadName || (object.metadata?.name ?? '').startsWith(prefix);
    }
    case 'Pod': {
      if (type === 'delete') return true;
      if (ownsItsPods(targetKind)) return ownerOfKind(object, targetKind)?.name === workloadName;
      const rs = ownerOfKind(object, 'ReplicaSet');
      if (rs) return (rs.name ?? '').startsWith(prefix);
      return !(object as Owned).metadata?.ownerReferences?.some((r) => r.controller);
    }
  }
}

/**
 * The reasons of a pod's routine Normal Events (the scheduler's and the kubelet's): in a busy
 * namespace nearly all of its Events. None is shown or read by a built-in diagnosis, and no
 * Warning carries one of these reasons. `Pulled` is not among them: it says how long the image
 * pull took (the verdict's timings), one Event per container start.
 */
export const ROUTINE_POD_REASONS: readonly string[] = ['Scheduled', 'Pulling', 'Created', 'Started', 'Killing'];

/**
 * The reasons the Event list leaves out: the routine ones and `Pulled`. A `Pulled` Event is as
 * numerous as a pod's routine ones (one per container start, for every pod of the namespace), and
 * only the timings of the pods started while the trace runs read it: the watch (and the Event
 * replay) brings those. A pod started before the trace has an unknown image pull.
 */
export const UNLISTED_EVENT_REASONS: readonly string[] = [...ROUTINE_POD_REASONS, 'Pulled'];

/**
 * True for a pod's routine Normal Event ({@link ROUTINE_POD_REASONS}). Only a tracker with user
 * classifiers (which are shown a pod's Events) needs them; the others are not sent them.
 */
export function isRoutinePodEvent(e: KindToObject['Event']): boolean {
  return e.type === 'Normal' && e.involvedObject?.kind === 'Pod' && ROUTINE_POD_REASONS.includes(e.reason ?? '');
}

const ROUTINE_REASON_IN_LINE = new RegExp(`"reason":"(?:${ROUTINE_POD_REASONS.join('|')})"`);
const FIRST_RESOURCE_VERSION = /"resourceVersion":"([^"\\]*)"/;

/**
 * The resourceVersion of a watch line that is certainly a pod's routine Normal Event
 * ({@link isRoutinePodEvent}), read without parsing it; undefined for any other line. The
 * apiserver writes an Event's fields in a fixed order: metadata (its resourceVersion is the first
 * in the line), involvedObject (`kind` first), reason, ..., type. A quote inside a string value is
 * escaped, so a message cannot fake these keys; a line with `"type":"Warning"` anywhere is never
 * passed over, so a Warning never is.
 */
export function routinePodEventLineVersion(line: string): string | undefined {
  if (!line.includes('"involvedObject":{"kind":"Pod"') || !line.includes('"type":"Normal"')) return undefined;
  if (line.includes('"type":"Warning"') || !ROUTINE_REASON_IN_LINE.test(line)) return undefined;
  return FIRST_RESOURCE_VERSION.exec(line)?.[1];
}

/** True when the object has a controller ownerReference (a ReplicaSet's pod, a Deployment's ReplicaSet). */
export function isControlled(obj: { metadata?: { ownerReferences?: Array<{ controller?: boolean }> } } | undefined): boolean {
  return obj?.metadata?.ownerReferences?.some((o) => o.controller === true) ?? false;
}

/**
 * The resourceVersion of a watch line that is not an ADDED (nor an ERROR) event, read without
 * parsing it; undefined for any other line. A watch event is written `{"type":"...","object":{...}}`
 * and an object's metadata (its resourceVersion the first in the line) comes before its spec.
 */
export function notAddedLineVersion(line: string): string | undefined {
  if (!line.startsWith('{"type":"MODIFIED"') && !line.startsWith('{"type":"DELETED"') && !line.startsWith('{"type":"BOOKMARK"')) {
    return undefined;
  }
  return FIRST_RESOURCE_VERSION.exec(line)?.[1];
}
