/**
 * Status conditions as controllers built on apimachinery's `meta.SetStatusCondition` write them:
 * `lastTransitionTime` moves only when the status changes; reason, message and
 * `observedGeneration` are replaced every time.
 */

/** One entry of `status.conditions`. */
export interface Condition {
  type: string;
  status: 'True' | 'False' | 'Unknown';
  reason: string;
  message: string;
  lastTransitionTime?: string;
  observedGeneration?: number;
}

/** The condition of `type`, if any. */
export function findCondition(conditions: Condition[] | undefined, type: string): Condition | undefined {
  return conditions?.find((c) => c.type === type);
}

/** `conditions` with `next` set (added, or replacing the one of its type). */
export function setCondition(conditions: Condition[] | undefined, next: Condition, now = new Date()): Condition[] {
  const list = [...(conditions ?? [])];
  const i = list.findIndex((c) => c.type === next.type);
  const old = i < 0 ? undefined : list[i];
  const lastTransitionTime = old && old.status === next.status ? old.lastTransitionTime : now.toISOString();
  const merged = { ...next, lastTransitionTime };
  if (i < 0) list.push(merged);
  else list[i] = merged;
  return list;
}

/** `conditions` without the one of `type`. */
export function removeCondition(conditions: Condition[] | undefined, type: string): Condition[] {
  return (conditions ?? []).filter((c) => c.type !== type);
}
