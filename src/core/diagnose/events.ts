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

/** Warning events, most recent first. */
export function warningDigests(events: CoreV1Event[]): EventDigest[] {
  return events
    .filter((e) => e.type === 'Warning')
    .sort((a, b) => eventTime(b) - eventTime(a))
    .map(digestEvent);
}

/** The most recent event matching `pred`. */
export function latestEvent(events: CoreV1Event[], pred: (e: CoreV1Event) => boolean): CoreV1Event | undefined {
  return events.filter(pred).sort((a, b) => eventTime(b) - eventTime(a))[0];
}
