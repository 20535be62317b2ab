/** Event helpers for diagnosis. */
import type { CoreV1Event } from '@kubernetes/client-node';
import { eventCount, eventTime } from '../k8s.js';
import type { EventDigest } from '../types.js';

/** Condenses a Kubernetes Event. */
export function digestEvent(e: CoreV1Event): EventDigest {
  return {
    type: e.type === 'Warning' ? 'Warning' : 'Normal',
    reason: e.reason ?? '',
    message: e.message ?? '',
    object: `${e.involvedObject?.kind ?? ''}/${e.involvedObject?.name ?? ''}`,
    count: eventCount(e),
    lastSeen: new Date(eventTime(e)).toISOString(),
  };
}

/** The kubelet's terse echo of a failure (`Error: ErrImagePull`) next to its detailed event. */
const ECHO = /^Error: \w+$/;

/**
 * Warning events, most recent first, one per reason and message (the most recent), without
 * `Error: <Reason>` echoes of an event with the same object and reason that says more.
 */
export function warningDigests(events: CoreV1Event[]): EventDigest[] {
  const digests = events
    .filter((e) => e.type === 'Warning')
    .sort((a, b) => eventTime(b) - eventTime(a))
    .map(digestEvent);
  const detailed = new Set(digests.filter((d) => !ECHO.test(d.message)).map((d) => `${d.object}\u0000${d.reason}`));
  const seen = new Set<string>();
  return digests.filter((d) => {
    if (ECHO.test(d.message) && detailed.has(`${d.object}\u0000${d.reason}`)) return false;
    const key = `${d.reason}\u0000${d.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** The most recent event matching `pred`. */
export function latestEvent(events: CoreV1Event[], pred: (e: CoreV1Event) => boolean): CoreV1Event | undefined {
  return events.filter(pred).sort((a, b) => eventTime(b) - eventTime(a))[0];
}
