import assert from 'node:assert/strict';
import { it } from 'node:test';
import { parseCli } from '../../../src/cli/args.js';
import { kindNamed, parseTargets } from '../../../src/cli/targets.js';
import { UsageError } from '../../../src/cli/usage-error.js';

it("kubectl's spellings name the four kinds", () => {
  const rows: [string, string | undefined][] = [
    ['deploy', 'Deployment'],
    ['deployments.apps', 'Deployment'],
    ['sts', 'StatefulSet'],
    ['StatefulSet', 'StatefulSet'],
    ['ds', 'DaemonSet'],
    ['daemonsets', 'DaemonSet'],
    ['job', 'Job'],
    ['jobs.batch', 'Job'],
    ['cronjob', undefined],
    ['pod', undefined],
  ];
  for (const [word, kind] of rows) assert.equal(kindNamed(word), kind, word);
});

it('KIND NAME..., KIND/NAME mixed in one call, and a name prefixed by its kind', () => {
  const rows: [string[], string[]][] = [
    [
      ['deploy', 'web', 'api'],
      ['Deployment/web', 'Deployment/api'],
    ],
    [['sts', 'db'], ['StatefulSet/db']],
    [['deploy', 'deployment/web'], ['Deployment/web']],
    [
      ['sts/db', 'deploy/web', 'job/migrate', 'ds/agent'],
      ['StatefulSet/db', 'Deployment/web', 'Job/migrate', 'DaemonSet/agent'],
    ],
    [
      ['deploy', 'web', 'sts/db'],
      ['Deployment/web', 'StatefulSet/db'],
    ],
    [['job', 'migrate', 'job/migrate'], ['Job/migrate']],
  ];
  for (const [argv, want] of rows) {
    const asked = parseTargets(argv, undefined);
    assert.ok('targets' in asked);
    assert.deepEqual(
      asked.targets.map((t) => `${t.kind}/${t.name}`),
      want,
      argv.join(' '),
    );
  }
});

it('-l picks from the kind named, or from every kind with "all"', () => {
  assert.deepEqual(parseTargets(['sts'], 'app=db'), { selectorKinds: ['StatefulSet'] });
  assert.deepEqual(parseTargets(['all'], 'part-of=shop'), { selectorKinds: ['Deployment', 'StatefulSet', 'DaemonSet', 'Job'] });
});

it('an unknown kind is one usage paragraph naming it and the valid kinds', () => {
  const rows: [string[], RegExp][] = [
    [['cronjob', 'nightly'], /^unknown kind "cronjob"; valid kinds are deploy \(deployment\), sts \(statefulset\), ds \(daemonset\), job /],
    [['pod/web-1'], /^unknown kind "pod" in "pod\/web-1"; valid kinds are deploy/],
    [['deploy', 'web', 'rs/web-abc'], /^unknown kind "rs" in "rs\/web-abc"/],
    [[], /^no workload named; usage: /],
  ];
  for (const [argv, message] of rows) {
    assert.throws(
      () => parseCli(argv),
      (err: unknown) => err instanceof UsageError && message.test(err.message) && !err.message.includes('\n'),
      argv.join(' '),
    );
  }
});

it('--logs-on-success turns on the success log tails; with --no-logs it is a usage error', () => {
  const asked = parseCli(['job', 'migrate', '--logs-on-success']);
  assert.ok(asked.kind === 'run' && asked.options.logs && asked.options.logs.onSuccess === true);
  const plain = parseCli(['job', 'migrate']);
  assert.ok(plain.kind === 'run' && plain.options.logs && plain.options.logs.onSuccess === undefined);
  assert.throws(
    () => parseCli(['job', 'migrate', '--logs-on-success', '--no-logs']),
    (err: unknown) => err instanceof UsageError && /^--no-logs and --logs-on-success contradict each other/.test(err.message),
  );
});
