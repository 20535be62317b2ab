/**
 * Pods deleted while their problem is open, on the real control plane: in an update to a crashing
 * template, a Deployment's pod and a StatefulSet's pod (recreated under the same name) are deleted
 * once their crash loop is seen; the
 * failed verdict still carries the deleted pod's exit code, termination message and log lines,
 * read when the problem was seen, with hints that still work.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { RolloutEvent } from '../../../src/core/types.js';
import { createStatefulSet, editStatefulSet } from '../../helpers/workloads.js';
import {
  assertStillRunning,
  clients,
  createDeployment,
  describeVerdict,
  eventSeen,
  namespaceFor,
  type Traced,
  trace,
  updateDeployment,
  waitRolledOut,
  waitUntil,
} from './helpers.js';

const CRASH = { app: 'crash;exitCode=3;message=config missing;after=1;logs=starting web|loading /etc/web.conf' };
/** Ready only after 5 s: every pod crashes before it is Ready, so no pod of the update ever counts as rolled out. */
const PROBE = { readinessProbe: { httpGet: { path: '/', port: 80 }, initialDelaySeconds: 5, periodSeconds: 1 } };

/** Waits for the first crash, then deletes its pod (with `grace` seconds, else its own): @returns the pod's name. */
async function deleteFirstCrashing(ns: string, events: RolloutEvent[], grace?: number): Promise<string> {
  const seen = await eventSeen(
    events,
    (e) => e.type === 'problem' && e.problem.exitCode === 3,
    'a problem of a container that exited with code 3',
    90_000,
  );
  const name = seen.type === 'problem' ? seen.problem.object.name : '';
  assertStillRunning(events, `pod ${name} is deleted`);
  // As `kubectl delete pod` (its grace period), or at once.
  await clients().core.deleteNamespacedPod({ namespace: ns, name, ...(grace !== undefined ? { gracePeriodSeconds: grace } : {}) });
  return name;
}

function assertKeptCause(r: Traced, pod: string): void {
  assert.equal(r.verdict.outcome, 'failed', describeVerdict(r));
  const kept = r.verdict.problems.find((p) => p.podDeleted && p.object.name === pod);
  assert.ok(kept, `the deleted pod's cause: ${JSON.stringify(r.verdict.problems.map((p) => [p.id, p.podDeleted]))}`);
  assert.equal(kept.exitCode, 3);
  assert.equal(kept.terminationMessage, 'config missing');
  const lines = (kept.logs ?? []).flatMap((l) => l.lines);
  assert.ok(lines.includes('loading /etc/web.conf'), `its log lines: ${JSON.stringify(kept.logs)}`);
  assert.ok(
    kept.hints.every((h) => !/ logs | describe pod /.test(h)),
    `hints that still work: ${kept.hints.join(' | ')}`,
  );
  const live = r.events.find((e) => e.type === 'problem-cleared' && e.problem.object.name === pod && e.problem.podDeleted);
  assert.ok(live, 'said live: deleted with its problem open');
}

describe('pods deleted with their problem open', { concurrency: true }, () => {
  it('a Deployment pod deleted in its crash loop: the failed verdict keeps its exit code, message and log lines', async (t) => {
    const ns = await namespaceFor(t, 'deleted-deploy');
    await createDeployment(ns, 'web', { replicas: 1 });
    await waitRolledOut(ns, 'web');
    const changed = await updateDeployment(ns, 'web', { replicas: 1, image: 'nginx:1.20', behaviour: CRASH, container: PROBE });
    let pod = '';
    const r = await trace(ns, 'web', { timeoutSeconds: 120, minGeneration: changed.metadata?.generation }, async (events) => {
      pod = await deleteFirstCrashing(ns, events);
    });
    assertKeptCause(r, pod);
  });

  it('a StatefulSet pod deleted in its crash loop and recreated under its name: the failed verdict keeps the deleted one', async (t) => {
    const ns = await namespaceFor(t, 'deleted-sts');
    await createStatefulSet(ns, 'db', { replicas: 1 });
    await waitUntil(
      async () => (await clients().apps.readNamespacedStatefulSet({ name: 'db', namespace: ns })).status?.readyReplicas === 1,
      {
        what: 'StatefulSet db ready',
        timeoutMs: 90_000,
      },
    );
    await editStatefulSet(ns, 'db', (s) => {
      s.spec!.template.metadata = { ...s.spec!.template.metadata, annotations: { 'sim.rollout-trace.dev/app': CRASH.app } };
      Object.assign(s.spec!.template.spec!.containers[0]!, PROBE);
    });
    let pod = '';
    const r = await trace(ns, 'db', { kind: 'StatefulSet', timeoutSeconds: 120 }, async (events) => {
      pod = await deleteFirstCrashing(ns, events);
    });
    assert.equal(pod, 'db-0');
    assertKeptCause(r, pod);
  });
});
