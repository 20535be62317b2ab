import assert from 'node:assert/strict';
import { it } from 'node:test';
import type { RolloutEvent } from '../../../src/core/index.js';
import { palette } from '../../../src/report/colors.js';
import { formatVerdict } from '../../../src/report/format-verdict.js';
import { RolloutView } from '../../../src/report/rollout-view.js';
import { renderTree } from '../../../src/report/tree.js';

const base = {
  at: 0,
  deployment: { namespace: 'shop', name: 'db' },
  workload: { kind: 'StatefulSet' as const, namespace: 'shop', name: 'db' },
  kind: 'StatefulSet' as const,
};

it("a StatefulSet's tree names its kind and lists its pods (no ReplicaSet)", () => {
  const view = new RolloutView();
  const events: RolloutEvent[] = [
    { ...base, type: 'revision', revision: 'db-7d9', change: 'initial' },
    { ...base, type: 'pod', name: 'db-0', revision: 'db-7d9', state: 'ready' },
    { ...base, type: 'pod', name: 'db-1', revision: 'db-7d9', state: 'pending' },
  ];
  let v = view.apply(events[0]!);
  for (const e of events.slice(1)) v = view.apply(e);
  assert.equal(
    renderTree(v, palette(false)),
    ['StatefulSet shop/db · revision db-7d9', '  └─ pods', '     ├─ ✓ db-0 ready', '     └─ ○ db-1 pending'].join('\n'),
  );
});

it("a succeeded Job's verdict prints its pods' log tails (--logs-on-success)", () => {
  const text = formatVerdict({
    outcome: 'succeeded',
    deployment: { namespace: 'shop', name: 'migrate' },
    workload: { kind: 'Job', namespace: 'shop', name: 'migrate' },
    kind: 'Job',
    summary: 'job migrate complete: 1/1 succeeded, 0 running in 3.0s',
    problems: [],
    replicas: { desired: 1, ready: 1, updated: 1, available: 1 },
    startedAt: 0,
    finishedAt: 3000,
    pulumiMessages: [],
    hints: [],
    logs: [{ pod: 'migrate-x', container: 'app', previous: false, lines: ['applied 0042_users'] }],
  });
  assert.match(text, /^✔ Job shop\/migrate: SUCCEEDED - job migrate complete/);
  assert.match(text, /Pod\/migrate-x\n {6}logs of "app" \(current instance, last 1 line\)\n {8}│ applied 0042_users$/);
});
