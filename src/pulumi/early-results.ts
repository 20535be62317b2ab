/**
 * The results of a trace that ends without judging a rollout: not traced (a provider that renders
 * YAML, an unreachable cluster the provider skips), cannot trace (unknown settings, a refused
 * provider, an unreadable cluster), and an unchanged workload found rolled out. Each says its one
 * line on the component's row; a gate that cannot trace fails its resource instead.
 */
import * as pulumi from '@pulumi/pulumi';
import type { Verdict } from '../core/index.js';
import type { Baseline } from './baseline.js';
import { onUnreadableCluster } from './decisions.js';
import type { RolloutResult } from './rollout-trace-args.js';
import type { StatusLine } from './status-lines.js';
import { unchangedLine } from './wording.js';

/** Says a line on the component's row; `ephemeral` false keeps it in the update's output. */
export type SayLine = (line: StatusLine, ephemeral?: boolean) => void;

/** What an early end needs of its component. */
export interface EarlyEndHost {
  readonly resource: pulumi.Resource;
  readonly gate: boolean;
  readonly say: SayLine;
}

/** Not traced, and why (a permanent line). */
export function skipped(host: EarlyEndHost, why: string): RolloutResult {
  const summary = `not traced: ${why}`;
  host.say({ severity: 'info', text: summary }, false);
  return { outcome: 'skipped', summary };
}

/** Cannot trace: a gate fails its resource (its error is the report); observe mode warns. */
export function cannotTrace(host: EarlyEndHost, why: string): RolloutResult {
  const summary = `rollout-trace cannot trace this Deployment: ${why}`;
  if (host.gate) throw new pulumi.ResourceError(summary, host.resource, true);
  host.say({ severity: 'warn', text: summary }, false);
  return { outcome: 'cancelled', summary };
}

/** The cluster could not be read before the update. */
export function unreadable(host: EarlyEndHost, why: string, skipUpdateUnreachable: boolean): RolloutResult {
  switch (onUnreadableCluster({ dryRun: pulumi.runtime.isDryRun(), skipUpdateUnreachable })) {
    case 'skip':
      return skipped(
        host,
        `the cluster cannot be read (${why}) and the provider skips updates of an unreachable cluster (skipUpdateUnreachable)`,
      );
    case 'preview': {
      // A preview never fails because of us, not even in gate mode.
      const summary = `preview: rollout-trace could not read the cluster: ${why}`;
      host.say({ severity: 'warn', text: summary }, false);
      return { outcome: 'previewed', summary, change: 'unknown' };
    }
    default:
      return cannotTrace(host, `could not read the cluster: ${why}`);
  }
}

/**
 * An unchanged workload that the trace found rolled out without announcing anything: one quiet
 * line, outcome `unchanged`. Undefined when there is a rollout to conclude.
 */
export function quietlyUnchanged(host: EarlyEndHost, baseline: Baseline, verdict: Verdict, announced: boolean): RolloutResult | undefined {
  if (announced || verdict.outcome !== 'succeeded') return undefined;
  const summary = unchangedLine(baseline);
  host.say({ severity: 'info', text: summary });
  return { outcome: 'unchanged', summary, revision: verdict.revision, change: 'unchanged' };
}
