/**
 * The simulated kubelet's back-off and registry rules, checked without a cluster: the kubelet's
 * 10 s -> 300 s doubling (flowcontrol.Backoff), Go duration formatting, and which image
 * references the simulated registry pulls.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { behaviourFor } from '../../../local-cluster/kubelet/behaviour.js';
import { goDuration, KubeletBackoff } from '../../../local-cluster/kubelet/kubelet-backoff.js';
import { pull, resolvedImageName } from '../../../local-cluster/kubelet/registry.js';

test('container back-off doubles from 10s to a 300s cap and resets after 2x the cap of quiet', () => {
  const b = new KubeletBackoff(10_000, 300_000);
  let now = 0;
  const delays: string[] = [];
  for (let i = 0; i < 7; i++) {
    b.next('k', now, now);
    delays.push(goDuration(b.get('k')));
    assert.equal(b.isInBackOffSince('k', now, now + b.get('k') - 1), true);
    assert.equal(b.isInBackOffSince('k', now, now + b.get('k')), false);
    now += b.get('k');
  }
  assert.deepEqual(delays, ['10s', '20s', '40s', '1m20s', '2m40s', '5m0s', '5m0s']);
  b.next('k', now + 600_001, now + 600_001);
  assert.equal(b.get('k'), 10_000);
});

test('Go duration formatting matches time.Duration.String()', () => {
  assert.equal(goDuration(1_025.299855), '1.025299855s');
  assert.equal(goDuration(350), '350ms');
  assert.equal(goDuration(90_000), '1m30s');
});

test("the simulated registry pulls known images and rejects nonsense with docker's messages", () => {
  assert.equal(pull('nginx:1.19').ok, true);
  assert.equal(pull('registry.local/shop/api:2.1.0').ok, true);
  assert.equal(resolvedImageName('nginx'), 'nginx:latest');
  const notFound = pull('nginx:nonexistent');
  assert.equal(notFound.ok, false);
  assert.match(!notFound.ok ? notFound.message : '', /manifest for nginx:nonexistent not found: manifest unknown/);
  const denied = pull('acme/nope');
  assert.match(
    !denied.ok ? denied.message : '',
    /pull access denied for acme\/nope, repository does not exist or may require 'docker login'/,
  );
  const dns = pull('registry.invalid/app:1');
  assert.match(!dns.ok ? dns.message : '', /lookup registry\.invalid .*no such host/);
});

test('behaviour annotations parse into the documented behaviours', () => {
  const b = behaviourFor({ 'sim.rollout-trace.dev/app': 'crash;exitCode=2;message=boom;after=0.5;logs=a|b' }, 'app');
  assert.deepEqual(b.exit, { code: 2, reason: 'Error', message: 'boom', afterSeconds: 0.5 });
  assert.deepEqual(b.logs, ['a', 'b']);
  assert.equal(behaviourFor({ 'sim.rollout-trace.dev/app': 'oom' }, 'app').exit?.code, 137);
  assert.equal(behaviourFor({}, 'app').exit, undefined);
  assert.equal(behaviourFor({ 'sim.rollout-trace.dev/app': 'tick=0.5' }, 'app').tickSeconds, 0.5);
  assert.equal(behaviourFor({}, 'app').tickSeconds, 0);
});
