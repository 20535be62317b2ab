/**
 * Volume mounts of one pod (the volume manager): missing ConfigMaps, Secrets and claims are
 * retried with the reconciler's back-off (500 ms doubling to 2m2s), each failure a `FailedMount`
 * Event, and "Unable to attach or mount volumes" once the mount timeout passes.
 */

import type { ObjectLookup } from './references.js';
import { volumeProblems } from './references.js';
import type { WorkerHost } from './worker-context.js';

const MAX_MOUNT_BACKOFF_MS = 122_000;

/** The mount state of one pod's volumes. */
export class VolumeMounts {
  /** Every volume is mounted. */
  ready = false;
  private readonly retry = new Map<string, { delay: number; next: number }>();
  private waitSince?: number;

  /** Returns undefined when every volume is mounted, else ms until the next attempt. */
  async mount(host: WorkerHost, lookup: ObjectLookup): Promise<number | undefined> {
    const problems = await volumeProblems(host.pod, lookup);
    if (problems.length === 0) {
      this.ready = true;
      return undefined;
    }
    const now = Date.now();
    let nextTry = now + host.ctx.syncRetryMs;
    for (const p of problems) {
      if (!p.event) continue;
      const retry = this.retry.get(p.volume);
      if (!retry || now >= retry.next) {
        // The volume reconciler's exponential back-off: 500 ms doubling up to 2m2s.
        const delay = retry ? Math.min(retry.delay * 2, MAX_MOUNT_BACKOFF_MS) : 500;
        this.retry.set(p.volume, { delay, next: now + delay });
        host.ctx.recorder.event(host.podRef(), 'Warning', 'FailedMount', p.event);
      }
      nextTry = Math.min(nextTry, this.retry.get(p.volume)!.next);
    }
    this.waitSince ??= now;
    if (now - this.waitSince >= host.ctx.mountTimeoutMs) {
      const unmounted = problems.map((p) => p.volume).sort();
      const all = (host.pod.spec?.volumes ?? []).map((v) => v.name).sort();
      host.ctx.recorder.event(
        host.podRef(),
        'Warning',
        'FailedMount',
        `Unable to attach or mount volumes: unmounted volumes=[${unmounted.join(' ')}], unattached volumes=[${all.join(' ')}]: timed out waiting for the condition`,
      );
      this.waitSince = now;
    }
    return Math.max(50, nextTry - now);
  }
}
