import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { KubeConfig } from '@kubernetes/client-node';
import { watchStats } from '../../../src/cluster/index.js';
import { RolloutTraceError } from '../../../src/errors.js';
import type { TrackOptions } from '../../../src/track/index.js';
import { resolveTrackOptions, trackRollout, trackRollouts } from '../../../src/track/index.js';
import { sharedKubeConfigLoader } from '../../../src/track/options.js';

const KC = [
  'apiVersion: v1',
  'clusters: [{name: c, cluster: {server: "https://127.0.0.1:1"}}]',
  'users: [{name: u, user: {token: t}}]',
  'contexts: [{name: x, context: {cluster: c, user: u, namespace: ctx-ns}}]',
  'current-context: x',
  '',
].join('\n');

function badInput(opts: TrackOptions, ...fragments: string[]): void {
  let caught: unknown;
  try {
    resolveTrackOptions(opts);
  } catch (err) {
    caught = err;
  }
  assert.ok(caught instanceof RolloutTraceError, `expected RolloutTraceError for ${JSON.stringify(opts)}`);
  assert.equal(caught.code, 'bad-input');
  for (const f of fragments) assert.ok(caught.message.includes(f), `message lacks ${JSON.stringify(f)}: ${caught.message}`);
}

describe('track option validation', () => {
  it('rejects bad names with the DNS-1123 rule', () => {
    badInput({ name: 'My_App', kubeconfig: KC }, '"My_App"', 'DNS-1123 subdomain');
    badInput({ name: '', kubeconfig: KC }, 'non-empty string');
    badInput({ name: 'a'.repeat(254), kubeconfig: KC }, 'at most 253');
  });

  it('rejects bad namespaces with the DNS-1123 label rule', () => {
    badInput({ name: 'web', namespace: 'prod.eu', kubeconfig: KC }, '"prod.eu"', 'DNS-1123 label');
    badInput({ name: 'web', namespace: 'x'.repeat(64), kubeconfig: KC }, 'at most 63');
  });

  it('rejects timeouts that are not positive finite numbers', () => {
    for (const t of [0, -5, Number.NaN, Number.POSITIVE_INFINITY]) {
      badInput({ name: 'web', timeoutSeconds: t, kubeconfig: KC }, 'timeoutSeconds must be a positive number of seconds', String(t));
    }
    badInput({ name: 'web', timeoutSeconds: '60' as unknown as number, kubeconfig: KC }, 'timeoutSeconds');
    for (const t of [0, -1, Number.NaN, Number.POSITIVE_INFINITY, '5' as unknown as number]) {
      badInput(
        { name: 'web', noProgressTimeoutSeconds: t, kubeconfig: KC },
        'noProgressTimeoutSeconds must be a positive number of seconds',
        String(t),
      );
    }
  });

  it('rejects other bad values', () => {
    badInput({ name: 'web', notFoundGraceSeconds: -1, kubeconfig: KC }, 'notFoundGraceSeconds');
    badInput({ name: 'web', logs: { tailLines: 0 }, kubeconfig: KC }, 'tailLines');
    badInput({ name: 'web', baselineRevision: 'v2', kubeconfig: KC }, 'baselineRevision', '"v2"');
    badInput({ name: 'web', minGeneration: 1.5, kubeconfig: KC }, 'minGeneration');
    badInput({ name: 'web', policy: { classes: { 'no-such-class': {} } } as never, kubeconfig: KC }, 'no-such-class');
  });

  it('validates the logs option: follow, grep, redact, limits', () => {
    badInput({ name: 'web', logs: 'yes' as never, kubeconfig: KC }, 'logs must be false or', '"yes"');
    badInput({ name: 'web', logs: { follow: 'on' as never }, kubeconfig: KC }, 'logs.follow must be true, false or', '"on"');
    badInput(
      { name: 'web', logs: { follow: { grep: '(' } }, kubeconfig: KC },
      'logs.follow.grep',
      'grep pattern "(" is not a valid regular expression',
    );
    badInput({ name: 'web', logs: { redact: ['a|'] }, kubeconfig: KC }, 'logs.redact', 'matches the empty string');
    badInput({ name: 'web', logs: { redact: 'x' as never }, kubeconfig: KC }, 'logs.redact must be a list');
    badInput({ name: 'web', logs: { follow: { maxStreams: 0 } }, kubeconfig: KC }, 'logs.follow.maxStreams must be a positive integer');
    badInput({ name: 'web', logs: { follow: { containers: [''] } }, kubeconfig: KC }, 'logs.follow.containers');
    const r = resolveTrackOptions({
      name: 'web',
      kubeconfig: KC,
      logs: { follow: { grep: 'ERR', containers: ['app'] }, redact: ['hunter\\d'] },
    });
    assert.ok(r.logs !== false && r.logs.follow);
    assert.deepEqual(r.logs.follow.containers, ['app']);
    assert.equal(r.logs.follow.maxStreams, 4);
    assert.equal(r.logs.follow.maxLines, 200);
    assert.equal(r.logs.follow.filter('ERR hunter2'), 'ERR ***');
    assert.equal(r.logs.follow.filter('INFO fine'), undefined);
    assert.equal(r.logs.redact('INFO hunter7'), 'INFO ***', 'tails: redaction without the grep');
  });

  it('applies defaults: the context namespace, 600 s, 20 log lines, 30 s grace', () => {
    const r = resolveTrackOptions({ name: 'web', kubeconfig: KC });
    assert.equal(r.namespace, 'ctx-ns');
    assert.equal(r.timeoutSeconds, 600);
    assert.ok(r.logs !== false);
    assert.equal(r.logs.tailLines, 20);
    assert.equal(r.logs.follow, undefined, 'the live log stream is off by default');
    assert.equal(r.logs.redact('DB_PASSWORD=x1'), 'DB_PASSWORD=***', 'tails are redacted by default');
    assert.equal(r.notFoundGraceSeconds, 30);
    assert.equal(r.noProgressTimeoutSeconds, undefined, 'the no-progress timeout is off by default');
    assert.equal(resolveTrackOptions({ name: 'web', kubeconfig: KC, noProgressTimeoutSeconds: 45 }).noProgressTimeoutSeconds, 45);
    assert.equal(resolveTrackOptions({ name: 'web', namespace: 'n', kubeconfig: KC, logs: false }).logs, false);
  });

  it('trackRollout rejects the verdict and opens nothing on bad input', async () => {
    const before = JSON.stringify(watchStats());
    const t = trackRollout({ name: 'Bad Name', kubeconfig: KC });
    await assert.rejects(t.verdict, (err: unknown) => err instanceof RolloutTraceError && err.code === 'bad-input');
    const seen: string[] = [];
    await assert.rejects(async () => {
      for await (const e of t) seen.push(e.type);
    }, /DNS-1123/);
    assert.deepEqual(seen, []);
    assert.equal(JSON.stringify(watchStats()), before);
  });

  it('trackRollout reports a bad kubeconfig as a kubeconfig error', async () => {
    const t = trackRollout({ name: 'web', kubeconfig: '/nonexistent/kubeconfig' });
    await assert.rejects(
      t.verdict,
      (err: unknown) => err instanceof RolloutTraceError && err.code === 'kubeconfig' && err.message.includes('/nonexistent/kubeconfig'),
    );
  });

  it('trackRollouts validates every option set before opening anything', async () => {
    const before = JSON.stringify(watchStats());
    const m = trackRollouts([
      { name: 'ok', kubeconfig: KC },
      { name: 'web', timeoutSeconds: -1, kubeconfig: KC },
    ]);
    await assert.rejects(m.verdicts, /timeoutSeconds/);
    assert.equal(JSON.stringify(watchStats()), before);
  });

  it('sharedKubeConfigLoader loads each kubeconfig and context once, and never caches a failure', () => {
    const load = sharedKubeConfigLoader();
    const a = resolveTrackOptions({ name: 'a', kubeconfig: KC }, load);
    const b = resolveTrackOptions({ name: 'b', kubeconfig: KC }, load);
    assert.equal(a.kc, b.kc, 'the same text and context: one KubeConfig');
    const other = resolveTrackOptions({ name: 'c', kubeconfig: KC, context: 'x' }, load);
    assert.notEqual(other.kc, a.kc, 'another context: its own KubeConfig');
    const given = new KubeConfig();
    given.loadFromString(KC);
    const g1 = resolveTrackOptions({ name: 'a', kubeconfig: given }, load);
    assert.equal(resolveTrackOptions({ name: 'b', kubeconfig: given }, load).kc, g1.kc, 'the same object: one copy');
    assert.notEqual(g1.kc, given, "the caller's object is still copied");
    for (let i = 0; i < 2; i++) {
      assert.throws(
        () => resolveTrackOptions({ name: 'a', kubeconfig: KC, context: 'nope' }, load),
        (err: unknown) => err instanceof RolloutTraceError && err.code === 'kubeconfig' && err.message.includes('"nope"'),
      );
    }
  });
});
