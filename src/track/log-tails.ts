/**
 * Attaches log tails to a verdict (the core does no I/O): read at the verdict where the pod is
 * still there, else the tails the {@link LogCapture} read when the problem (or the succeeded pod)
 * was seen.
 */
import type { KubeConfig } from '@kubernetes/client-node';
import { POD_GONE_UNREAD } from '../cluster/index.js';
import type { LogTail, Problem, Verdict } from '../core/index.js';
import { isLogged, type LogCapture, MAX_LOGGED_PODS, readTails, wantsPrevious } from './log-capture.js';

export { withoutRepeatedTail } from './log-capture.js';

/** Where a verdict's tails come from: the cluster, its tail length and redaction, what was read earlier. */
export interface TailSource {
  kc: KubeConfig;
  tailLines: number;
  redact: (line: string) => string;
  capture?: LogCapture;
}

/**
 * Returns `verdict` with `logs` filled on its pod/container problems (the first
 * {@link MAX_LOGGED_PODS} pods): the current instance and, for crashes, the previous one, each
 * line passed through `redact`. A pod deleted before the verdict gets the tails read when its
 * problem was seen. Never throws; failed reads are recorded in `LogTail.error`.
 */
export async function withLogTails(verdict: Verdict, source: TailSource): Promise<Verdict> {
  const ns = verdict.deployment.namespace;
  const pods = new Set<string>();
  const chosen = verdict.problems.map((p) => {
    if (!isLogged(p) || (!pods.has(p.object.name) && pods.size >= MAX_LOGGED_PODS)) return false;
    pods.add(p.object.name);
    return true;
  });
  const problems = await Promise.all(
    verdict.problems.map(async (p, i): Promise<Problem> => (chosen[i] ? { ...p, logs: await tailsOf(p, ns, source) } : p)),
  );
  return { ...verdict, problems };
}

async function tailsOf(p: Problem, ns: string, source: TailSource): Promise<LogTail[]> {
  const container = p.container ?? '';
  const early = p.podDeleted ? await source.capture?.captured(p.object.name, container) : undefined;
  if (early) return early;
  // A pod being deleted may still be read; one gone meanwhile gets what was read when its problem was seen.
  const fresh = await readTails(source.kc, ns, { pod: p.object.name, container, previous: wantsPrevious(p) }, source.tailLines);
  if (fresh.some((t) => t.error === undefined)) return fresh.map((t) => ({ ...t, lines: t.lines.map(source.redact) }));
  const later = await source.capture?.captured(p.object.name, container);
  if (later) return later;
  if (!p.podDeleted) return fresh;
  return [{ pod: p.object.name, container, previous: false, lines: [], error: POD_GONE_UNREAD }];
}

/**
 * Returns a succeeded Job's `verdict` with the log tails of `containers` (its succeeded pods'),
 * each line passed through `redact`: read now, or, for a pod gone by now (a TTL, a clean-up), as
 * read when it was seen succeeded. Never throws; failed reads are recorded in `LogTail.error`.
 */
export async function withSuccessLogs(
  verdict: Verdict,
  containers: ReadonlyArray<{ pod: string; container: string }>,
  source: TailSource,
): Promise<Verdict> {
  if (containers.length === 0) return verdict;
  const ns = verdict.deployment.namespace;
  const tails = await Promise.all(
    containers.map(async (c) => {
      const [fresh] = await readTails(source.kc, ns, { ...c, previous: false }, source.tailLines);
      const tail = fresh ?? { ...c, previous: false, lines: [] };
      if (tail.error === undefined) return [{ ...tail, lines: tail.lines.map(source.redact) }];
      return (await source.capture?.captured(c.pod, c.container)) ?? [tail];
    }),
  );
  return { ...verdict, logs: tails.flat() };
}
