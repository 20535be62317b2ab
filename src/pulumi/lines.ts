/**
 * Turns rollout events into the one-line status messages shown in `pulumi up`'s Info column
 * (and printed one per row line by the non-interactive display in CI).
 *
 * The Info column shows only the first line of a message, so every line here is a single line.
 */
import type { RolloutEvent } from '../core/types.js';

/** A status line and the severity it is logged with. */
export interface StatusLine {
  severity: 'info' | 'warn';
  text: string;
}

function oneLine(text: string): string {
  const flat = text.replace(/\s*\n\s*/g, ' ').trim();
  return flat.length > 200 ? `${flat.slice(0, 197)}...` : flat;
}

function seconds(ms: number): string {
  return `${Math.max(0, Math.round(ms / 1000))}s`;
}

/**
 * The status line for one event, or undefined for events that are not worth a line
 * (e.g. the final verdict, which the caller reports in full).
 */
export function statusLine(e: RolloutEvent): StatusLine | undefined {
  const info = (text: string): StatusLine => ({ severity: 'info', text: oneLine(text) });
  const warn = (text: string): StatusLine => ({ severity: 'warn', text: oneLine(text) });
  switch (e.type) {
    case 'started':
      return info(`tracing Deployment ${e.deployment.namespace}/${e.deployment.name}`);
    case 'waiting':
      return info(e.message);
    case 'revision':
      if (e.change === 'initial') return info(`revision ${e.revision}`);
      return info(
        e.change === 'rollback'
          ? `revision ${e.revision}: rollback to an earlier pod template (was ${e.previous ?? '?'})`
          : `revision ${e.revision}: new pod template (was ${e.previous ?? 'none'})`,
      );
    case 'superseded':
      return warn(`revision ${e.revision} superseded by revision ${e.by}`);
    case 'phase':
      return info(e.message);
    case 'replicaset': {
      const head = `ReplicaSet ${e.name} (rev ${e.revision}, ${e.role}): `;
      // An old ReplicaSet being scaled down has more ready pods than it wants: say so plainly.
      if (e.ready > e.desired) return info(`${head}${e.ready} ready, scaling down to ${e.desired}`);
      return info(`${head}${e.ready}/${e.desired} ready, ${e.available} available`);
    }
    case 'pod': {
      const from = e.previous ? `${e.previous} → ` : '';
      const rev = e.revision ? ` (rev ${e.revision})` : '';
      const detail = e.detail ? ` [${e.detail}]` : '';
      return info(`pod ${e.name}${rev}: ${from}${e.state}${detail}`);
    }
    case 'pod-deleted':
      return info(`pod ${e.name} deleted`);
    case 'pod-orphaned':
      return warn(`pod ${e.name} no longer matches ReplicaSet ${e.replicaSet} (relabeled)`);
    case 'condition': {
      const why = [e.reason, e.message].filter(Boolean).join(': ');
      const line = `condition ${e.condition}=${e.status}${why ? ` (${why})` : ''}`;
      return e.status === 'False' ? warn(line) : info(line);
    }
    case 'paused':
      return warn('rollout paused (spec.paused=true)');
    case 'resumed':
      return info('rollout resumed');
    case 'scaled':
      return info(`scaled ${e.from} → ${e.to} replicas (no new rollout)`);
    case 'progress':
      return info(e.message);
    case 'k8s-event': {
      const ev = e.event;
      // Normal events (SuccessfulCreate, ScalingReplicaSet, Pulled...) repeat what the ReplicaSet
      // and pod lines already say; like the provider (which logs them at debug), keep only warnings.
      if (ev.type !== 'Warning') return undefined;
      return warn(`event ${ev.reason} ${ev.object}: ${ev.message}${ev.count > 1 ? ` (x${ev.count})` : ''}`);
    }
    case 'problem': {
      const p = e.problem;
      const when = e.failsAt !== undefined ? ` (fails the rollout in ${seconds(e.failsAt - e.at)} if it persists)` : '';
      return warn(`${p.object.kind} ${p.object.name}: ${p.explanation}${when}`);
    }
    case 'problem-cleared':
      return info(`resolved: ${e.problem.object.kind} ${e.problem.object.name}: ${e.problem.reason}`);
    case 'verdict':
      return undefined;
  }
}
