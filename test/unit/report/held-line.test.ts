/** The success hold and the paused problem as plain / Pulumi lines (describeEvent). */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { describeEvent } from '../../../src/report/index.js';

const base = {
  at: 0,
  deployment: { namespace: 'demo', name: 'web' },
  workload: { kind: 'Deployment' as const, namespace: 'demo', name: 'web' },
};

test('a held event prints as "holding success: ..." (a warning, one subject so it never repeats)', () => {
  const line = describeEvent({
    ...base,
    type: 'held',
    message: 'pod web-2-a container "app" restarted after it exited with code 3 (1 restart); success once it has stayed Ready 5s (in 4.0s)',
    pods: ['web-2-a'],
    until: 5000,
  });
  assert.deepEqual(line, {
    subject: 'held',
    text: 'holding success: pod web-2-a container "app" restarted after it exited with code 3 (1 restart); success once it has stayed Ready 5s (in 4.0s)',
    level: 'warn',
  });
});
