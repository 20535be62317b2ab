/**
 * The HTML report as text: self-contained (no script, stylesheet or font from elsewhere), every
 * cluster-supplied string escaped, a lane per pod with its states, and the verdict. The page in a
 * real browser: test/integration/report/html-report.test.ts.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { RolloutEvent } from '../../../src/core/index.js';
import { htmlReport } from '../../../src/report/index.js';

const workload = { kind: 'Deployment' as const, namespace: 'apps', name: 'web' };
const base = { workload, deployment: { namespace: 'apps', name: 'web' }, kind: 'Deployment' as const };
const T0 = Date.parse('2026-11-28T08:00:00Z');

test('self-contained, escaped, a lane per pod and the verdict', () => {
  const hostile = '<script>alert(1)</script><img src=x onerror=alert(2)> "quoted" & \u001b[2J';
  const events: RolloutEvent[] = [
    { type: 'started', at: T0, ...base },
    { type: 'pod', name: 'web-1', revision: '2', state: 'waiting', detail: hostile, at: T0 + 1000, ...base },
    {
      type: 'k8s-event',
      event: { type: 'Warning', reason: 'Failed', message: hostile, object: 'Pod/web-1', count: 1 },
      at: T0 + 2000,
      ...base,
    } as RolloutEvent,
    { type: 'pod', name: 'web-2', revision: '2', state: 'ready', at: T0 + 1500, ...base },
  ];
  const html = htmlReport(events, 'report <title>');
  assert.doesNotMatch(html, /<script|<img|onerror=alert\(2\)>|<link|@import|url\(|https?:\/\//i);
  assert.match(html, /&lt;script&gt;alert\(1\)&lt;\/script&gt;/);
  assert.match(html, /<title>report &lt;title&gt;<\/title>/);
  assert.ok(!html.includes('\u001b'), 'no control byte');
  assert.equal((html.match(/data-lane="web-/g) ?? []).length, 2);
  assert.match(html, /data-verdict="unfinished"/);
  assert.match(html, /The trace ended before a verdict/);
});
