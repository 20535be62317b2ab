/**
 * Log tails read when they are first worth reading, not only at the verdict: a failing
 * container's tail as soon as its problem is seen, a succeeded Job pod's tail as soon as it is seen
 * succeeded. A pod can be gone by the verdict (the Job controller deletes a failed Job's active
 * pods, an eviction, a scale-down, a TTL): its tail read then is what the summary shows. Owned by
 * the tracker; reads start on its events and never block them.
 */
import type { KubeConfig } from '@kubernetes/client-node';
import { fetchLogTail } from '../cluster/index.js';
import type { LogTail, Problem } from '../core/index.js';

/** Classes whose container ran, so its log says something. */
const LOGGED = new Set<Problem['class']>([
  'crash-loop',
  'oom-killed',
  'init-container',
  'init-running',
  'readiness-probe',
  'job-pod-failed',
]);
/** Classes where the crashed (previous) instance holds the interesting lines. */
const CRASHED = new Set<Problem['class']>(['crash-loop', 'oom-killed', 'init-container']);
/**
 * Pods whose logs are read for one trace, early or at the verdict (docs/verdicts.md): one trace
 * should not read dozens of logs, and the first failures say why.
 */
export const MAX_LOGGED_PODS = 5;
/** A log read that fails for a reason that can pass (no answer, a cut connection) is retried this long (ms). */
const LOG_RETRY_MS = 60_000;
/** How long a verdict waits for reads still under way (ms). */
const CAPTURE_WAIT_MS = 5000;

/** `pending`, or undefined once {@link CAPTURE_WAIT_MS} have passed without it. */
async function withinWait<T>(pending: Promise<T>): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), CAPTURE_WAIT_MS);
  });
  return Promise.race([pending, late]).finally(() => clearTimeout(timer));
}

/** Whether `p` is a problem whose container log is worth reading. */
export function isLogged(p: Problem): boolean {
  return p.object.kind === 'Pod' && p.container !== undefined && (LOGGED.has(p.class) || p.class.startsWith('custom:'));
}

/** Whether the crashed (previous) instance of `p`'s container holds the lines. */
export function wantsPrevious(p: Problem): boolean {
  return CRASHED.has(p.class) || (p.restartCount ?? 0) > 0;
}

/** One container of one pod. */
export interface PodContainer {
  pod: string;
  container: string;
}

/** Reads and keeps log tails as problems and succeeded pods are seen. */
export class LogCapture {
  /** `pod/container` -> the tails read last for it. */
  private readonly tails = new Map<string, Promise<LogTail[]>>();
  /** `pod/container` -> the restart count when its tail was last read (read again after a restart). */
  private readonly readAt = new Map<string, number>();
  private readonly pods = new Set<string>();
  private readonly succeeded = new Map<string, PodContainer>();
  /** `pod/container` -> its streamed instances, oldest first: their last lines ({@link kept}). */
  private readonly streamed = new Map<string, Array<{ instance: string; lines: string[]; at: number }>>();

  constructor(
    private readonly kc: KubeConfig,
    private readonly namespace: string,
    private readonly tailLines: number,
    private readonly redact: (line: string) => string,
  ) {}

  /** A `problem` event: reads its container's tail now (again after a restart), within the pod bound. */
  problemSeen(p: Problem): void {
    if (!isLogged(p) || p.podDeleted) return;
    const key = `${p.object.name}/${p.container}`;
    const restarts = p.restartCount ?? 0;
    if (this.readAt.has(key) && (this.readAt.get(key) ?? 0) >= restarts) return;
    if (!this.admit(p.object.name)) return;
    this.readAt.set(key, restarts);
    this.tails.set(key, this.read(p.object.name, p.container ?? '', wantsPrevious(p)));
  }

  /** A succeeded Job pod's containers: each read once (their logs are complete). */
  succeededSeen(containers: ReadonlyArray<PodContainer>): void {
    for (const c of containers) {
      const key = `${c.pod}/${c.container}`;
      if (this.tails.has(key) || !this.admit(c.pod)) continue;
      this.succeeded.set(key, c);
      this.tails.set(key, this.read(c.pod, c.container, false));
    }
  }

  /**
   * The containers whose logs a succeeded Job's verdict carries: those of `live` (the succeeded
   * pods there now) and of the succeeded pods read earlier and gone since, of the last `pods` pods by name.
   */
  successContainers(live: ReadonlyArray<PodContainer>, pods: number): PodContainer[] {
    const all = new Map<string, PodContainer>(this.succeeded);
    for (const c of live) all.set(`${c.pod}/${c.container}`, c);
    const names = [...new Set([...all.values()].map((c) => c.pod))].sort().slice(-pods);
    return [...all.values()].filter((c) => names.includes(c.pod)).sort((a, b) => (a.pod < b.pod ? -1 : a.pod > b.pod ? 1 : 0));
  }

  /**
   * What was read for `pod`'s `container`, once the read ends (at most a few seconds), else the
   * last lines streamed from it ({@link kept}); undefined if there is neither.
   */
  async captured(pod: string, container: string): Promise<LogTail[] | undefined> {
    const pending = this.tails.get(`${pod}/${container}`);
    const tails = pending ? await withinWait(pending) : undefined;
    const read = tails?.filter((t) => t.error === undefined && t.lines.length > 0);
    return read && read.length > 0 ? read : this.streamedTail(pod, container);
  }

  /**
   * A line streamed from a container instance (a Job's pods are streamed from their start, so a
   * pod the Job controller deletes the moment it fails still has its last lines): the last
   * `tailLines` of the latest two instances are kept.
   */
  kept(target: { pod: string; container: string; instance: string }, line: string): void {
    const key = `${target.pod}/${target.container}`;
    const instances = this.streamed.get(key) ?? [];
    let current = instances.find((i) => i.instance === target.instance);
    if (!current) {
      current = { instance: target.instance, lines: [], at: Date.now() };
      instances.push(current);
      if (instances.length > 2) instances.shift();
      this.streamed.set(key, instances);
    }
    current.lines.push(this.redact(line));
    if (current.lines.length > this.tailLines) current.lines.shift();
    current.at = Date.now();
  }

  private streamedTail(pod: string, container: string): LogTail[] | undefined {
    const instances = this.streamed.get(`${pod}/${container}`)?.filter((i) => i.lines.length > 0);
    if (!instances || instances.length === 0) return undefined;
    const last = instances.length - 1;
    return instances.map((i, n) => ({ pod, container, previous: n < last, lines: [...i.lines], capturedAt: i.at }));
  }

  private admit(pod: string): boolean {
    if (this.pods.has(pod)) return true;
    if (this.pods.size >= MAX_LOGGED_PODS) return false;
    this.pods.add(pod);
    return true;
  }

  private async read(pod: string, container: string, previous: boolean): Promise<LogTail[]> {
    const at = Date.now();
    const tails = await readTails(this.kc, this.namespace, { pod, container, previous }, this.tailLines);
    return tails.map((t) => ({ ...t, lines: t.lines.map(this.redact), capturedAt: at }));
  }
}

/**
 * The tails of one container: its current instance and, with `previous`, its crashed one first
 * (a current tail that only repeats the crashed one is dropped: {@link withoutRepeatedTail}).
 * Never throws; failed reads say why in `LogTail.error`.
 */
export async function readTails(
  kc: KubeConfig,
  ns: string,
  c: { pod: string; container: string; previous: boolean },
  tailLines: number,
): Promise<LogTail[]> {
  const reads: Promise<LogTail>[] = [];
  if (c.previous) reads.push(previousTail(kc, ns, c.pod, c.container, tailLines));
  reads.push(fetchLogTail(kc, ns, c.pod, c.container, { previous: false, tailLines, retryForMs: LOG_RETRY_MS }));
  return withoutRepeatedTail(await Promise.all(reads));
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
  const first = await fetchLogTail(kc, ns, pod, container, { previous: true, tailLines, retryForMs: LOG_RETRY_MS });
  if (first.lines.length > 0 || first.error) return first;
  await new Promise((r) => setTimeout(r, 300));
  return fetchLogTail(kc, ns, pod, container, { previous: true, tailLines });
}
