/**
 * Where the program declared a workload, from the stack at its construction: past the Pulumi
 * SDKs' frames and this library's own, as the SDK picks the registration's source position; the
 * position in words, and as a GitHub Actions annotation with its properties escaped.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { declarationIn, githubAnnotation, positionWords } from '../../../src/pulumi/declared-at.js';

const OWN = '/app/node_modules/rollout-trace/dist/';

test('the declaring frame: the first outside the Pulumi SDKs (their async frames after it too), this library and node internals', () => {
  const stack = [
    'Error',
    `    at declaredHere (${OWN}pulumi/declared-at.js:40:12)`,
    `    at Object.transformation (${OWN}pulumi/transforms.js:88:7)`,
    '    at applyTransformations (/app/node_modules/@pulumi/pulumi/resource.js:230:31)',
    '    at new Resource (/app/node_modules/@pulumi/pulumi/resource.js:210:20)',
    '    at new Deployment (/app/node_modules/@pulumi/kubernetes/apps/v1/deployment.js:120:9)',
    '    at Object.<anonymous> (/app/index.ts:12:17)',
    '    at Module._compile (node:internal/modules/cjs/loader:1554:14)',
    '    at async Stack.initialize (/app/node_modules/@pulumi/runtime/stack.ts:79:28)',
  ].join('\n');
  assert.deepEqual(declarationIn(stack, OWN), { file: '/app/index.ts', line: 12, column: 17 });
  // ESM frames (`at file:///...`) and a helper of this library called by the program (no SDK frame above).
  const helper = [
    'Error',
    `    at traced (${OWN}pulumi/deployments.js:95:3)`,
    '    at file:///app/infra/web.ts:7:3',
    '    at async main (file:///app/index.ts:3:1)',
  ].join('\n');
  assert.deepEqual(declarationIn(helper, OWN), { file: '/app/infra/web.ts', line: 7, column: 3 });
  assert.equal(
    declarationIn(['Error', '    at process.processTicksAndRejections (node:internal/process/task_queues:105:5)'].join('\n'), OWN),
    undefined,
  );
});

test('in words, relative to the repository; as a GitHub annotation with its properties escaped', () => {
  const at = { file: '/repo/infra/index.ts', line: 12, column: 17 };
  assert.equal(positionWords(at, '/repo'), 'infra/index.ts:12');
  assert.equal(positionWords(at, '/elsewhere'), '/repo/infra/index.ts:12');
  assert.equal(
    githubAnnotation(at, '/repo', 'Deployment prod/web', 'pod web-1: image "x:1" not found\n50% of: pods, here'),
    '::error file=infra/index.ts,line=12,col=17,title=Deployment prod/web::pod web-1: image "x:1" not found%0A50%25 of: pods, here',
  );
  assert.match(githubAnnotation({ ...at, file: '/repo/a,b:c.ts' }, '/repo', 't', 'm'), /^::error file=a%2Cb%3Ac\.ts,line=12/);
});
