/**
 * Parses the per-container behaviour annotations described in local-cluster/simulated-kubelet.md:
 * `sim.rollout-trace.dev/<container>: "<behaviour>[;key=value...]"`.
 */

/** Annotation key prefix selecting a container's simulated behaviour. */
export const BEHAVIOUR_ANNOTATION_PREFIX = 'sim.rollout-trace.dev/';

/** One container's simulated behaviour. */
export interface Behaviour {
  /** Exit after `afterSeconds` with this code (`crash`, `oom`). */
  exit?: { code: number; reason: 'Completed' | 'Error' | 'OOMKilled'; message?: string; afterSeconds: number };
  /** The readiness probe keeps failing. */
  notReady: boolean;
  /** The liveness probe keeps failing (the kubelet kills and restarts the container). */
  notLive: boolean;
  /** The startup probe keeps failing (`not-started`): never started, killed and restarted. */
  notStarted: boolean;
  /** Extra seconds the container stays ContainerCreating (`slow-start`). */
  slowStartSeconds: number;
  /** How many pulls fail with a transient error before one succeeds (`pull-transient`). */
  transientPullFailures: number;
  /** Extra stdout lines (`logs=a|b`). */
  logs: string[];
  /** Prints `tick N` every this many seconds while running (`tick=1`); 0: never. */
  tickSeconds: number;
  /** Never exits on its own (`waits`): an init container waiting for something that never comes. */
  waits: boolean;
}

/** Reads the behaviour for `container` from the pod's annotations (a plain container when absent). */
export function behaviourFor(annotations: Record<string, string> | undefined, container: string): Behaviour {
  const result: Behaviour = {
    notReady: false,
    notLive: false,
    notStarted: false,
    slowStartSeconds: 0,
    transientPullFailures: 0,
    logs: [],
    tickSeconds: 0,
    waits: false,
  };
  const raw = annotations?.[`${BEHAVIOUR_ANNOTATION_PREFIX}${container}`];
  if (!raw) return result;
  const parts = raw
    .split(';')
    .map((p) => p.trim())
    .filter(Boolean);
  const kv = new Map<string, string>();
  const words: string[] = [];
  for (const part of parts) {
    const eq = part.indexOf('=');
    if (eq > 0) kv.set(part.slice(0, eq).trim(), part.slice(eq + 1));
    else words.push(part);
  }
  const num = (key: string, fallback: number): number => {
    const v = Number(kv.get(key));
    return kv.has(key) && Number.isFinite(v) ? v : fallback;
  };
  for (const word of words) {
    switch (word) {
      case 'crash': {
        // exitCode=0: a main process that ends normally (`Completed`); restartPolicy Always restarts it.
        const code = num('exitCode', 1);
        result.exit = {
          code,
          reason: code === 0 ? 'Completed' : 'Error',
          message: kv.get('message'),
          afterSeconds: num('after', 1),
        };
        break;
      }
      case 'oom':
        result.exit = { code: 137, reason: 'OOMKilled', message: kv.get('message'), afterSeconds: num('after', 1) };
        break;
      case 'not-ready':
        result.notReady = true;
        break;
      case 'not-live':
        result.notLive = true;
        break;
      case 'not-started':
        result.notStarted = true;
        break;
      case 'slow-start':
        result.slowStartSeconds = num('seconds', 20);
        break;
      case 'pull-transient':
        result.transientPullFailures = num('failures', 1);
        break;
      case 'waits':
        result.waits = true;
        break;
      default:
        break;
    }
  }
  const tick = num('tick', 0);
  if (tick > 0) result.tickSeconds = tick;
  const logs = kv.get('logs');
  if (logs) result.logs = logs.split('|');
  // Bytes an annotation's `;`/`|` syntax cannot carry (terminal escapes, control bytes), base64-encoded
  // UTF-8, printed line by line as a container would write them.
  const logs64 = kv.get('logs64');
  if (logs64) result.logs.push(...Buffer.from(logs64, 'base64').toString('utf8').split('\n'));
  const message64 = kv.get('message64');
  if (message64 && result.exit) result.exit.message = Buffer.from(message64, 'base64').toString('utf8');
  // One line of N characters (an annotation cannot hold 1 MB): `long line ` and then `x`s.
  const longLine = num('long-line', 0);
  if (longLine > 0) result.logs.push(`long line ${'x'.repeat(Math.max(0, longLine - 10))}`);
  return result;
}
