/**
 * Attaches log tails to the failing problems of a verdict (the core does no I/O).
 */
import type { KubeConfig } from '@kubernetes/client-node';
import { fetchLogTail } from '../cluster/index.js';
import type { LogTail, Problem, Verdict } from '../core/index.js';

/** Classes whose container ran, so its log says something. */
const LOGGED = new Set<Problem['class']>(['crash-loop', 'oom-killed', 'init-container', 'readiness-probe', 'job-pod-failed']);
/** Classes where the crashed (previous) instance holds the interesting lines. */
const CRASHED = new Set<Problem['class']>(['crash-loop', 'oom-killed', 'init-container']);
/** Upper bound of problems to fetch logs for (one verdict should not fetch dozens of logs). */
const MAX_PROBLEMS = 3;

/**
 * Returns `verdict` with `logs` filled on its pod/container problems: the current instance and,
 * for crashes, the previous one, each line passed through `redact`. Never throws; fetch failures are recorded in `LogTail.error`.
 */
export async function withLogTails(
  kc: KubeConfig,
  verdict: Verdict,
  tailLines: number,
  redact: (line: string) => string = (line) => line,
): Promise<Verdict> {
  const ns = verdict.deployment.namespace;
  let budget = MAX_PROBLEMS;
  const problems = await Promise.all(
    verdict.problems.map(async (p): Promise<Problem> => {
      if (p.object.kind !== 'Pod' || !p.container || !(LOGGED.has(p.class) || p.class.startsWith('custom:')) || budget <= 0) return p;
      budget--;
      const wantPrevious = CRASHED.has(p.class) || (p.restartCount ?? 0) > 0;
      const fetches: Promise<LogTail>[] = [];
      if (wantPrevious) fetches.push(previousTail(kc, ns, p.object.name, p.container, tailLines));
      fetches.push(fetchLogTail(kc, ns, p.object.name, p.container, { previous: false, tailLines }));
      const logs = withoutRepeatedTail((await Promise.all(fetches)).map((tail) => ({ ...tail, lines: tail.lines.map(redact) })));
      return { ...p, logs };
    }),
  );
  return { ...verdict, problems };
}

/**
 * Returns a succeeded Job's `verdict` with the log tails of `containers` (its succeeded pods'),
 * each line passed through `redact`. Never throws; fetch failures are recorded in `LogTail.error`.
 */
export async function withSuccessLogs(
  kc: KubeConfig,
  verdict: Verdict,
  containers: ReadonlyArray<{ pod: string; container: string }>,
  tailLines: number,
  redact: (line: string) => string,
): Promise<Verdict> {
  if (containers.length === 0) return verdict;
  const ns = verdict.deployment.namespace;
  const tails = await Promise.all(containers.map((c) => fetchLogTail(kc, ns, c.pod, c.container, { previous: false, tailLines })));
  return { ...verdict, logs: tails.map((t) => ({ ...t, lines: t.lines.map(redact) })) };
}

/**
 * A crashed container's current log repeats its crashed one: while it waits to restart
 * (CrashLoopBackOff) the kubelet serves the crashed instance both as `previous` and as the current
 * log, and right after a restart the new instance has printed the same lines so far, without the
 * crash. Both would print the same lines twice (a 1 MB line twice over). A current tail that
 * {@link repeats} the previous one is dropped; the previous instance's tail says it all.
 */
export function withoutRepeatedTail(tails: LogTail[]): LogTail[] {
  const previous = tails.find((t) => t.previous && t.error === undefined);
  if (!previous || previous.lines.length === 0) return tails;
  return tails.filter((t) => t.previous || t.error !== undefined || !repeats(t.lines, previous.lines));
}

/**
 * Whether the `current` tail holds nothing but the start of the `previous` tail: from some line on
 * it equals the previous tail's first lines, and that run is at least half of it (the lines before
 * it are older lines of the same output, outside the previous tail's window: tails of N lines of
 * the same output, the crashed one longer by its crash lines, overlap by all but those). A current
 * tail that matches less, or does not reach the previous one's first line, is kept.
 */
function repeats(current: string[], previous: string[]): boolean {
  for (let from = 0; from <= Math.floor((current.length - 1) / 2); from++) {
    const rest = current.slice(from);
    if (rest.length <= previous.length && rest.every((line, i) => line === previous[i])) return true;
  }
  return false;
}

/**
 * The crashed instance's tail. Right at a restart the kubelet may not have rotated the instances
 * yet and answers with an empty log; one short retry gets the real one.
 */
async function previousTail(kc: KubeConfig, ns: string, pod: string, container: string, tailLines: number): Promise<LogTail> {
  const first = await fetchLogTail(kc, ns, pod, container, { previous: true, tailLines });
  if (first.lines.length > 0 || first.error) return first;
  await new Promise((r) => setTimeout(r, 300));
  return fetchLogTail(kc, ns, pod, container, { previous: true, tailLines });
}
