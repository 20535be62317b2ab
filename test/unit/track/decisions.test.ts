/**
 * The tracker's decisions (src/track/decisions.ts), from tables: held verdicts, the not-found
 * grace and its error, the no-progress and log-target gates, the tick delay.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import type { Observation, Verdict } from '../../../src/core/index.js';
import { RolloutTraceError } from '../../../src/errors.js';
import {
  abortReason,
  admit,
  type Gate,
  INITIAL_GATE,
  noProgressMayFire,
  notFoundError,
  notFoundMessage,
  onVerdict,
  refreshesLogTargets,
  tickDelay,
  trackingError,
  wantsLogTails,
} from '../../../src/track/decisions.js';
import { apiServerWaiting, logLine, trackerWarning } from '../../../src/track/own-events.js';
import { failedVerdict, successVerdict } from '../report/fixtures.js';

const REF = { namespace: 'prod', name: 'web' };
const WREF = { kind: 'Deployment' as const, ...REF };

/** One observation by its short name: `deployment`, `pod`, `event` (upserts), `synced`, `tick`, `timeout`, `cancel`. */
function observation(kind: string, at: number): Observation {
  switch (kind) {
    case 'deployment':
      return { type: 'upsert', kind: 'Deployment', object: { metadata: { name: 'web' } }, at };
    case 'pod':
      return { type: 'upsert', kind: 'Pod', object: { metadata: { name: 'web-1' } }, at };
    case 'event':
      return { type: 'upsert', kind: 'Event', object: { metadata: { name: 'web.1' }, involvedObject: {} }, at };
    case 'synced':
    case 'tick':
      return { type: kind, at };
    case 'timeout':
      return { type: 'timeout', at, timeoutSeconds: 600 };
    case 'cancel':
      return { type: 'cancel', at };
    default:
      throw new Error(`no observation ${kind}`);
  }
}

function verdictOf(outcome: Verdict['outcome']): Verdict {
  return { ...(outcome === 'failed' ? failedVerdict() : successVerdict()), outcome };
}

/**
 * Runs steps through the gate as the tracker does. A step is an observation's short name, at
 * time = its index; `name:outcome` when the core answers it with a verdict. Returns what the
 * tracker would do: `grace start|cancel`, `hold <outcome>`, `publish <outcome>@<at>` (the last).
 */
function drive(steps: string[]): string[] {
  let gate: Gate = INITIAL_GATE;
  let final = false; // the core's state after its verdict: it answers nothing more
  const did: string[] = [];
  for (const [at, step] of steps.entries()) {
    const [kind, answer] = step.split(':') as [string, Verdict['outcome'] | undefined];
    const obs = observation(kind, at);
    const admitted = admit(gate, obs);
    gate = admitted.gate;
    if (admitted.grace) did.push(`grace ${admitted.grace}`);
    if (admitted.release) return [...did, `publish ${admitted.release.verdict.outcome}@${admitted.release.at}`];
    if (!answer || final) continue;
    final = true;
    const decided = onVerdict(gate, obs, { verdict: verdictOf(answer), at });
    gate = decided.gate;
    if (decided.publish) return [...did, `publish ${decided.publish.verdict.outcome}@${decided.publish.at}`];
    did.push(`hold ${answer}`);
  }
  return did;
}

describe('tracker decisions', () => {
  it('holds a verdict reached before synced, and publishes the verdict reached first, at its own time', () => {
    const rows: [string, string[], string[]][] = [
      [
        'after synced: published at once',
        ['synced', 'deployment', 'pod:succeeded'],
        ['grace start', 'grace cancel', 'publish succeeded@2'],
      ],
      [
        'before synced: held until synced',
        ['deployment', 'pod:succeeded', 'tick', 'synced'],
        ['grace cancel', 'hold succeeded', 'publish succeeded@1'],
      ],
      ['a failure is held the same way', ['deployment', 'pod:failed', 'synced'], ['grace cancel', 'hold failed', 'publish failed@1']],
      [
        'ticks and object changes do not release it',
        ['pod:succeeded', 'tick', 'pod', 'event', 'deployment'],
        ['hold succeeded', 'grace cancel'],
      ],
      ['the deadline publishes the held verdict, not timed-out', ['pod:succeeded', 'timeout'], ['hold succeeded', 'publish succeeded@0']],
      ['a cancel publishes the held verdict, not cancelled', ['pod:failed', 'cancel'], ['hold failed', 'publish failed@0']],
      ['a timeout before synced is never held', ['deployment', 'timeout:timed-out'], ['grace cancel', 'publish timed-out@1']],
      ['a cancel before synced is never held', ['cancel:cancelled'], ['publish cancelled@0']],
    ];
    for (const [what, steps, want] of rows) assert.deepEqual(drive(steps), want, what);
  });

  it('the not-found grace starts when the synced lists show no Deployment, and ends when it appears', () => {
    const rows: [string, string[], string[]][] = [
      ['listed before synced: no grace', ['deployment', 'synced', 'tick'], ['grace cancel']],
      ['missing at synced: grace', ['pod', 'synced', 'tick', 'pod'], ['grace start']],
      ['created during the grace: it ends', ['synced', 'tick', 'deployment', 'deployment', 'tick'], ['grace start', 'grace cancel']],
      ['a verdict held at synced: published, no grace', ['pod:failed', 'synced'], ['hold failed', 'publish failed@0']],
    ];
    for (const [what, steps, want] of rows) assert.deepEqual(drive(steps), want, what);
  });

  it('not found: an error only when the grace ran out with no Deployment seen', () => {
    const facts = {
      name: 'web',
      namespace: 'prod',
      target: 'cluster "kind" (https://127.0.0.1:6443)',
      graceSeconds: 30,
      deployments: [],
      kind: 'Deployment' as const,
    };
    const missing = admit(INITIAL_GATE, observation('synced', 0)).gate;
    const appeared = admit(missing, observation('deployment', 1)).gate;
    const error = notFoundError(missing, facts);
    assert.ok(error instanceof RolloutTraceError);
    assert.equal(error.code, 'workload-not-found');
    assert.equal(notFoundError(appeared, facts), undefined, 'appeared during the grace: tracking goes on');
  });

  it('not found: the words name the Deployment, namespace, cluster, grace and what is there', () => {
    const base = {
      name: 'web',
      namespace: 'prod',
      target: 'cluster "kind" (https://127.0.0.1:6443)',
      graceSeconds: 30,
      kind: 'Deployment' as const,
    };
    const head = 'Deployment "web" was not found in namespace "prod" of cluster "kind" (https://127.0.0.1:6443) within 30 s.';
    const ten = ['j', 'i', 'h', 'g', 'f', 'e', 'd', 'c', 'b', 'a'];
    const rows: [string, string[], string][] = [
      ['none', [], `${head} Namespace "prod" has no Deployments. Check the name and namespace.`],
      ['nameless ones skipped', [''], `${head} Namespace "prod" has no Deployments. Check the name and namespace.`],
      ['sorted', ['webb', 'api', ''], `${head} Deployments in "prod": "api", "webb". Check the name and namespace.`],
      [
        'eight listed',
        ten.slice(2),
        `${head} Deployments in "prod": "a", "b", "c", "d", "e", "f", "g", "h". Check the name and namespace.`,
      ],
      [
        'more than eight',
        ten,
        `${head} Deployments in "prod": "a", "b", "c", "d", "e", "f", "g", "h", and 2 more. Check the name and namespace.`,
      ],
    ];
    for (const [what, deployments, want] of rows) assert.equal(notFoundMessage({ ...base, deployments }), want, what);
  });

  it('no-progress may fire only once the Deployment was seen; log targets refresh only once synced', () => {
    const at = (steps: string[]) => steps.reduce((g, s, i) => admit(g, observation(s, i)).gate, INITIAL_GATE);
    assert.equal(noProgressMayFire(at(['synced', 'pod'])), false, 'missing: the not-found grace decides');
    assert.equal(noProgressMayFire(at(['deployment'])), true);
    const rows: [string[], string, boolean][] = [
      [[], 'pod', false],
      [[], 'deployment', false],
      [['synced'], 'synced', true],
      [['synced'], 'pod', true],
      [['synced'], 'deployment', true],
      [['synced'], 'event', false],
      [['synced'], 'tick', false],
    ];
    for (const [before, kind, want] of rows) {
      const obs = observation(kind, 9);
      assert.equal(refreshesLogTargets(admit(at(before), obs).gate, obs), want, `${before.join(',')} then ${kind}`);
    }
  });

  it('the next tick: the period, or 1 ms after the earliest deadline to come', () => {
    const rows: [string, number[], number][] = [
      ['no deadline', [], 1000],
      ['a deadline within the period', [1300], 301],
      ['the earliest counts', [1800, 1300, 1500], 301],
      ['a deadline now', [1000], 1],
      ['a past deadline is ignored', [999], 1000],
      ['a deadline after the period', [5000], 1000],
    ];
    for (const [what, deadlines, want] of rows) assert.equal(tickDelay(1000, 1000, deadlines), want, what);
  });

  it('log tails for failed and timed-out verdicts that name problems', () => {
    const rows: [Verdict, boolean][] = [
      [verdictOf('failed'), true],
      [{ ...verdictOf('failed'), outcome: 'timed-out' }, true],
      [{ ...verdictOf('failed'), problems: [] }, false],
      [{ ...verdictOf('failed'), outcome: 'succeeded' }, false],
      [{ ...verdictOf('failed'), outcome: 'cancelled' }, false],
    ];
    for (const [v, want] of rows) assert.equal(wantsLogTails(v), want, `${v.outcome} with ${v.problems.length} problems`);
  });

  it('errors and abort reasons', () => {
    const own = new RolloutTraceError('forbidden', 'no');
    assert.equal(trackingError(own), own);
    const wrapped = trackingError(new Error('socket hang up'));
    assert.deepEqual([wrapped.code, wrapped.message], ['cluster-unreachable', 'Tracking failed: socket hang up']);
    assert.equal(trackingError('odd').message, 'Tracking failed: odd');
    const rows: [unknown, string | undefined][] = [
      [undefined, undefined],
      ['deploy cancelled', 'deploy cancelled'],
      [AbortSignal.abort().reason, 'aborted'],
      [new Error('SIGTERM'), 'SIGTERM'],
      [42, '42'],
    ];
    for (const [reason, want] of rows) assert.equal(abortReason(reason), want, String(reason));
  });

  it("the tracker's own events", () => {
    const at = Date.UTC(2026, 10, 23, 19, 0, 0);
    assert.deepEqual(apiServerWaiting(WREF, 'retrying', at), {
      type: 'waiting',
      reason: 'api-server',
      message: 'retrying',
      at,
      workload: WREF,
      deployment: REF,
      kind: 'Deployment',
    });
    assert.deepEqual(trackerWarning(WREF, 'NodesNotReadable', 'no nodes', at), {
      type: 'k8s-event',
      event: {
        type: 'Warning',
        reason: 'NodesNotReadable',
        message: 'no nodes',
        object: 'rollout-trace',
        count: 1,
        lastSeen: '2026-11-23T19:00:00.000Z',
      },
      at,
      workload: WREF,
      deployment: REF,
      kind: 'Deployment',
    });
    assert.deepEqual(
      logLine(WREF, { pod: 'web-1', container: 'app', instance: 'containerd://1', revision: '2', finished: false }, 'hi', at),
      {
        type: 'log',
        at,
        workload: WREF,
        deployment: REF,
        kind: 'Deployment',
        pod: 'web-1',
        container: 'app',
        revision: '2',
        line: 'hi',
      },
    );
  });

  it('decisions.ts and own-events.ts are pure: no clock, no timers, no I/O imports', () => {
    for (const file of ['decisions.ts', 'own-events.ts']) {
      const text = readFileSync(new URL(`../../../src/track/${file}`, import.meta.url), 'utf8');
      const code = text.replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, '');
      assert.doesNotMatch(code, /Date\.now|new Date\(\)|performance\.|setTimeout|setInterval|setImmediate|queueMicrotask|process\./, file);
      const imports = [...code.matchAll(/from '([^']+)'/g)].map((m) => m[1]);
      for (const from of imports) assert.ok(['../core/index.js', '../errors.js'].includes(from!), `${file} imports ${from}`);
    }
  });
});
