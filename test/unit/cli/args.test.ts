import assert from 'node:assert/strict';
import { it } from 'node:test';
import { parseCli } from '../../../src/cli/args.js';
import { parseReplayArgs } from '../../../src/cli/replay-args.js';
import { UsageError } from '../../../src/cli/usage-error.js';

function options(argv: string[]) {
  const parsed = parseCli(argv);
  assert.equal(parsed.kind, 'run');
  return parsed.options;
}

it('log flags: --follow-logs with --log-grep, --log-container and repeatable --redact', () => {
  assert.deepEqual(options(['deploy', 'web']).logs, { tailLines: 20 }, 'default: tails only, no stream');
  assert.deepEqual(
    options([
      'deploy',
      'web',
      '--follow-logs',
      '--log-grep',
      'ERROR|WARN',
      '--log-container',
      'app',
      '--redact',
      'hunter\\d',
      '--redact',
      'sk_\\w+',
    ]).logs,
    {
      tailLines: 20,
      redact: ['hunter\\d', 'sk_\\w+'],
      follow: { grep: 'ERROR|WARN', containers: ['app'] },
    },
  );
  assert.deepEqual(
    options(['deploy', 'web', '--redact', 'x+', '--log-lines', '5']).logs,
    { tailLines: 5, redact: ['x+'] },
    '--redact alone masks the tails',
  );
  assert.equal(options(['deploy', 'web', '--no-logs']).logs, false);
});

it('log flags: mistakes name the flag and the value', () => {
  const cases: [string[], RegExp][] = [
    [['deploy', 'web', '--follow-logs', '--log-grep', '(oops'], /^--log-grep "\(oops": is not a valid regular expression/],
    [['deploy', 'web', '--redact', '[a-'], /^--redact "\[a-": is not a valid regular expression/],
    [['deploy', 'web', '--redact', '.*'], /^--redact "\.\*": matches the empty string/],
    [['deploy', 'web', '--log-grep', 'ERROR'], /^--log-grep filters the live log stream, which is off; add --follow-logs\.$/],
    [['deploy', 'web', '--log-container', 'app'], /^--log-container filters the live log stream/],
    [['deploy', 'web', '--follow-logs', '--no-logs'], /^--no-logs and --follow-logs contradict each other/],
  ];
  for (const [argv, message] of cases) {
    assert.throws(
      () => parseCli(argv),
      (err: unknown) => err instanceof UsageError && message.test(err.message),
      argv.join(' '),
    );
  }
});

it('policy flags: the paused class and --settle', () => {
  assert.deepEqual(options(['deploy', 'web', '--fail-after', 'paused=2m', '--settle', '10s']).policy, {
    classes: { paused: { action: 'fail', afterSeconds: 120 } },
    settleSeconds: 10,
  });
  assert.deepEqual(options(['deploy', 'web', '--warn-only', 'paused', '--settle', '0']).policy, {
    classes: { paused: { action: 'warn' } },
    settleSeconds: 0,
  });
  assert.throws(
    () => options(['deploy', 'web', '--settle', 'soon']),
    (err: unknown) => err instanceof UsageError && /^--settle "soon" is not a duration/.test(err.message),
  );
});

it('policy flags: deployment-deleted, the former name of workload-deleted, is still accepted', () => {
  assert.deepEqual(options(['sts', 'db', '--warn-only', 'deployment-deleted']).policy, {
    classes: { 'workload-deleted': { action: 'warn' } },
  });
  assert.deepEqual(options(['deploy', 'web', '--fail-after', 'workload-deleted=5']).policy, {
    classes: { 'workload-deleted': { action: 'fail', afterSeconds: 5 } },
  });
});

it('policy flags: --tolerate CLASS=PODS and --success N (ready pods)', () => {
  assert.deepEqual(options(['deploy', 'web', '--tolerate', 'crash-loop=1', '--fail-after', 'crash-loop=30s', '--success', '2']).policy, {
    classes: { 'crash-loop': { action: 'fail', afterSeconds: 30, tolerate: 1 } },
    success: { mode: 'pods', pods: 2 },
  });
  assert.deepEqual(options(['deploy', 'web', '--success', '75%']).policy, { success: { mode: 'percent', percent: 75 } });
  const cases: [string[], RegExp][] = [
    [['deploy', 'web', '--tolerate', 'crash-loop'], /^--tolerate "crash-loop" must look like CLASS=PODS/],
    [['deploy', 'web', '--tolerate', 'crash-loop=two'], /^--tolerate crash-loop="two" is not a number of pods; use an integer >= 0/],
    [['deploy', 'web', '--tolerate', 'crashes=1'], /crashes/],
    [['deploy', 'web', '--success', '0'], /^--success "0" is not supported; .*a number of ready pods such as 2\.$/],
    [['deploy', 'web', '--success', 'most'], /^--success "most" is not supported/],
  ];
  for (const [argv, message] of cases) {
    assert.throws(
      () => parseCli(argv),
      (err: unknown) => err instanceof UsageError && message.test(err.message),
      argv.join(' '),
    );
  }
});

it('-l/--selector picks Deployments instead of names; both, neither or an empty selector is a usage error', () => {
  const byLabel = options(['deploy', '-l', 'tier=web', '-n', 'shop']);
  assert.equal(byLabel.selector, 'tier=web');
  assert.deepEqual(byLabel.targets, []);
  assert.deepEqual(byLabel.selectorKinds, ['Deployment']);
  assert.equal(options(['deploy', '--selector', 'app in (a,b)']).selector, 'app in (a,b)');
  assert.equal(options(['deploy', 'web']).selector, undefined);
  const cases: [string[], RegExp][] = [
    [['deploy', 'web', '-l', 'tier=web'], /^give names or a label selector, not both \(names web and -l "tier=web"\)\.$/],
    [['deploy', '-l', ' '], /^--selector \(-l\) is empty/],
    [['deploy'], /^no Deployment named; usage: .* or rollout-trace deploy -l SELECTOR/],
    [['all'], /^"all" needs a label selector/],
  ];
  for (const [argv, message] of cases) {
    assert.throws(
      () => parseCli(argv),
      (err: unknown) => err instanceof UsageError && message.test(err.message),
      argv.join(' '),
    );
  }
});

it('durations: any length works (597h, 600h, 10000h); absurd ones are one-paragraph usage errors', () => {
  assert.equal(options(['deploy', 'web', '--timeout', '597h']).timeoutSeconds, 597 * 3600);
  assert.equal(options(['deploy', 'web', '--no-progress-timeout', '600h']).noProgressTimeoutSeconds, 600 * 3600);
  assert.equal(options(['deploy', 'web', '--timeout', '10000h', '--wait-for-creation', '700h']).waitForCreationSeconds, 700 * 3600);
  for (const [flag, value] of [
    ['--timeout', '9999999999999999999999h'],
    ['--no-progress-timeout', '1' + '0'.repeat(400)],
    ['--wait-for-creation', '99999999999999999999s'],
    ['--watch-for', '3000000000000h'],
  ] as const) {
    assert.throws(
      () => parseCli(['deploy', 'web', flag, value]),
      (e: unknown) =>
        e instanceof UsageError &&
        e.message.includes(`${flag} "${value}"`) &&
        /longer than the longest duration supported/.test(e.message) &&
        !e.message.includes('\n'),
      `${flag} ${value}`,
    );
  }
  assert.throws(
    () => parseCli(['deploy', 'web', '--fail-after', 'crash-loop=99999999999999999999h']),
    /--fail-after crash-loop "99999999999999999999h" cannot be used/,
  );
});

it('a value that starts with a dash: a negative number reaches its flag check; another flag means no value', () => {
  const cases: [string[], RegExp][] = [
    [['deploy', 'web', '--success', '-1'], /^--success "-1" is not supported; use full/],
    [['deploy', 'web', '--timeout', '-5m'], /^--timeout "-5m" is not a duration/],
    [['deploy', 'web', '--fail-after', '-3'], /^--fail-after "-3"/],
    [['deploy', 'web', '--timeout', '--no-logs'], /^flag --timeout needs a value and was followed by another flag; write --timeout VALUE/],
  ];
  for (const [argv, message] of cases) {
    assert.throws(
      () => parseCli(argv),
      (err: unknown) => err instanceof UsageError && message.test(err.message) && !err.message.includes('\n'),
      argv.join(' '),
    );
  }
  assert.throws(
    () => parseReplayArgs(['trace.jsonl', '--speed', '-2']),
    (err: unknown) => err instanceof UsageError && /^--speed "-2" must be a number above 0/.test(err.message),
  );
  assert.deepEqual(
    options(['deploy', 'web', '--', '-1']).targets.map((t) => t.name),
    ['web', '-1'],
    'after --, nothing is joined: a name',
  );
});
