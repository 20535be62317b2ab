import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { test } from 'node:test';
import { createSink, JSON_SCHEMA_VERSION } from '../../../src/report/index.js';
import { failedRollout } from './fixtures.js';

test('json sink - one parseable object per event with schemaVersion 1, verdict last', async () => {
  const stream = new PassThrough();
  let out = '';
  stream.on('data', (c: Buffer) => (out += c.toString()));
  const sink = createSink({ output: 'json', stream, env: { FORCE_COLOR: '1', GITHUB_ACTIONS: 'true' } });
  const events = failedRollout();
  for (const e of events) sink.write(e);
  await sink.close();
  const lines = out.trimEnd().split('\n');
  assert.equal(lines.length, events.length);
  const objects = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
  assert.equal(JSON_SCHEMA_VERSION, 1);
  for (const [i, o] of objects.entries()) {
    assert.equal(o.schemaVersion, 1);
    assert.equal(o.type, events[i]!.type);
    assert.equal(o.time, new Date(events[i]!.at).toISOString());
    assert.deepEqual(o.deployment, { namespace: 'demo', name: 'nginx' });
  }
  const last = objects.at(-1)! as { type: string; verdict: { outcome: string; problems: { class: string }[] } };
  assert.equal(last.type, 'verdict');
  assert.equal(last.verdict.outcome, 'failed');
  assert.equal(last.verdict.problems[0]!.class, 'image-pull-not-found');
  assert.doesNotMatch(out, /\u001b\[|::error/);
});
