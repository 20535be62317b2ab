/**
 * The Pulumi integration's decisions (src/pulumi/decisions.ts), from tables.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  type ChangeKind,
  changeKind,
  chooseTimeout,
  durationSeconds,
  GATE_WAIT_FOR,
  gateAnnotations,
  jobRemovedAfterItRan,
  type LiveDeployment,
  notTracedBecause,
  onUnreadableCluster,
  providerAwaitDiffers,
  showsWrite,
  skipsUpdateUnreachable,
  traceDecision,
  type WriteEffect,
  waitTarget,
  writeEffect,
} from '../../../src/pulumi/decisions.js';
import { planFromInputs } from '../../../src/pulumi/plan.js';
import type { TemplateChange } from '../../../src/pulumi/template-diff.js';
import { changeLine } from '../../../src/pulumi/wording.js';

const plan = (spec: Record<string, unknown> = {}, annotations: Record<string, string> = {}) =>
  planFromInputs('web', { metadata: { name: 'web', annotations }, spec: { selector: { matchLabels: { app: 'web' } }, ...spec } });
const live: LiveDeployment = { uid: 'u1', generation: 4, revision: '3', replicas: 2, selector: { app: 'web' } };
const imageChange: TemplateChange = { path: 'spec.containers[web].image', planned: 'a:2', live: 'a:1' };

test('change kind', () => {
  const rows: [string, ReturnType<typeof plan>, LiveDeployment | undefined, TemplateChange[], ChangeKind][] = [
    ['no live object', plan(), undefined, [], 'create'],
    ['selector changed: replaced', plan({ selector: { matchLabels: { app: 'web2' } } }), live, [imageChange], 'replace'],
    ['selector gained a label: replaced', plan({ selector: { matchLabels: { app: 'web', tier: 'x' } } }), live, [], 'replace'],
    ['template changed', plan(), live, [imageChange], 'rollout'],
    ['replicas only', plan({ replicas: 5 }), live, [], 'scale'],
    ['same replicas', plan({ replicas: 2 }), live, [], 'unchanged'],
    ['nothing declared differs', plan(), live, [], 'unchanged'],
  ];
  for (const [what, p, l, changes, want] of rows) assert.equal(changeKind(p, l, changes), want, what);
});

test("change kind: each kind's replacement fields (pk diff.go forceNew), declared against live", () => {
  const sts = (spec: Record<string, unknown>) =>
    planFromInputs('db', { metadata: { name: 'db' }, spec: { selector: { matchLabels: { app: 'db' } }, ...spec } }, 'StatefulSet');
  const job = (spec: Record<string, unknown>) => planFromInputs('migrate', { metadata: { name: 'migrate' }, spec }, 'Job');
  const claim = { metadata: { name: 'data' }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } };
  // Live, with the apiserver's defaults filled in.
  const liveClaim = { ...claim, spec: { ...claim.spec, volumeMode: 'Filesystem' }, status: { phase: 'Pending' } };
  const liveSts: LiveDeployment = {
    uid: 's1',
    generation: 2,
    replicas: 2,
    selector: { app: 'db' },
    replacedOn: { podManagementPolicy: 'OrderedReady', revisionHistoryLimit: 10, serviceName: 'db', volumeClaimTemplates: [liveClaim] },
  };
  const liveJob: LiveDeployment = { uid: 'j1', generation: 1, replacedOn: { completions: 1, parallelism: 1 } };
  const rows: [string, ReturnType<typeof plan>, LiveDeployment, ChangeKind][] = [
    [
      'StatefulSet: nothing declared differs (defaults left out)',
      sts({ serviceName: 'db', volumeClaimTemplates: [claim] }),
      liveSts,
      'unchanged',
    ],
    ['StatefulSet: podManagementPolicy changed', sts({ podManagementPolicy: 'Parallel' }), liveSts, 'replace'],
    ['StatefulSet: serviceName changed', sts({ serviceName: 'db-headless' }), liveSts, 'replace'],
    ['StatefulSet: revisionHistoryLimit changed', sts({ revisionHistoryLimit: 3 }), liveSts, 'replace'],
    [
      'StatefulSet: a claim template grew',
      sts({ volumeClaimTemplates: [{ ...claim, spec: { ...claim.spec, resources: { requests: { storage: '2Gi' } } } }] }),
      liveSts,
      'replace',
    ],
    ['StatefulSet: replicas only', sts({ replicas: 3 }), liveSts, 'scale'],
    [
      'DaemonSet: selector changed (pk diff.go L50/L54 `daemonset`)',
      planFromInputs('agent', { metadata: { name: 'agent' }, spec: { selector: { matchLabels: { app: 'agent-v2' } } } }, 'DaemonSet'),
      { uid: 'd1', generation: 2, selector: { app: 'agent' }, replacedOn: {} },
      'replace',
    ],
    [
      'StatefulSet: the same claim size spelled otherwise (the apiserver keeps its own spelling)',
      sts({ volumeClaimTemplates: [{ ...claim, spec: { ...claim.spec, resources: { requests: { storage: '1024Mi' } } } }] }),
      liveSts,
      'unchanged',
    ],
    [
      'StatefulSet: the same claim size in the exponent form',
      sts({ volumeClaimTemplates: [{ ...claim, spec: { ...claim.spec, resources: { requests: { storage: '1.073741824e9' } } } }] }),
      liveSts,
      'unchanged',
    ],
    [
      'StatefulSet: 1G is not 1Gi (a claim template changed)',
      sts({ volumeClaimTemplates: [{ ...claim, spec: { ...claim.spec, resources: { requests: { storage: '1G' } } } }] }),
      liveSts,
      'replace',
    ],
    ['Job: parallelism changed', job({ parallelism: 2 }), liveJob, 'replace'],
    ['Job: completions changed', job({ completions: 3 }), liveJob, 'replace'],
    ['Job: the same completions', job({ completions: 1 }), liveJob, 'unchanged'],
  ];
  for (const [what, p, l, want] of rows) assert.equal(changeKind(p, l, []), want, what);
});

test('change kind: pulumi.com/replaceUnready replaces a Job that is not complete, and only a Job (pk provider.go Diff)', () => {
  const unready = { 'pulumi.com/replaceUnready': 'true' };
  const job = (annotations: Record<string, string>) =>
    planFromInputs('migrate', { metadata: { name: 'migrate', annotations }, spec: {} }, 'Job');
  const liveJob = (complete: boolean): LiveDeployment => ({ uid: 'j1', generation: 1, replacedOn: {}, complete });
  const rows: [string, ReturnType<typeof plan>, LiveDeployment, ChangeKind][] = [
    ['a failed or running Job with the annotation', job(unready), liveJob(false), 'replace'],
    ['a complete Job with the annotation', job(unready), liveJob(true), 'unchanged'],
    ['a failed Job without it: the provider awaits again', job({}), liveJob(false), 'unchanged'],
    ['any value but "true" is not the annotation', job({ 'pulumi.com/replaceUnready': 'True' }), liveJob(false), 'unchanged'],
    // pk logs "replaceUnready annotation is not supported for this resource" for other kinds.
    ['a Deployment carrying it', plan({}, unready), { ...live, complete: undefined }, 'unchanged'],
  ];
  for (const [what, p, l, want] of rows) assert.equal(changeKind(p, l, []), want, what);
  const b = { plan: job(unready), namespace: 'ns', change: 'replace' as const, changes: [], liveFacts: liveJob(false) };
  assert.equal(
    changeLine({ ...b, live: { metadata: { name: 'migrate' } } }),
    "Job ns/migrate is not complete and carries pulumi.com/replaceUnready: the provider replaces ns/migrate; tracing the new Job's first rollout",
  );
});

test('what the tracker waits for', () => {
  const rows: [ChangeKind, { generation?: number } | undefined, ReturnType<typeof waitTarget>][] = [
    ['create', undefined, { minGeneration: undefined, notFoundGraceSeconds: 60 }],
    ['create', { generation: 1 }, { minGeneration: 1, notFoundGraceSeconds: 60 }],
    // The new object of a replacement starts again at generation 1 (old + 1 = 5 would stall).
    ['replace', undefined, { minGeneration: 1, notFoundGraceSeconds: 60 }],
    ['replace', { generation: 1 }, { minGeneration: 1, notFoundGraceSeconds: 60 }],
    ['rollout', undefined, { baselineRevision: '3', minGeneration: 5 }],
    ['rollout', { generation: 7 }, { baselineRevision: '3', minGeneration: 7 }],
    ['scale', undefined, { minGeneration: 5 }],
    ['unchanged', undefined, { minGeneration: undefined }],
  ];
  for (const [change, written, want] of rows)
    assert.deepEqual(waitTarget(change, live, written, 'Deployment'), want, `${change} ${JSON.stringify(written)}`);
});

test('timeout: option, then customTimeouts, then pulumi.com/timeoutSeconds, then 600 s', () => {
  const annotated = plan({}, { 'pulumi.com/timeoutSeconds': '120' });
  const rows: [
    number | undefined,
    { create?: number; update?: number } | undefined,
    ReturnType<typeof plan>,
    ChangeKind,
    number,
    RegExp,
  ][] = [
    [30, { create: 90 }, annotated, 'create', 30, /timeoutSeconds option of rollout-trace/],
    [undefined, { create: 90, update: 45 }, annotated, 'create', 90, /customTimeouts\.create/],
    [undefined, { create: 90, update: 45 }, annotated, 'replace', 90, /customTimeouts\.create/],
    [undefined, { create: 90, update: 45 }, annotated, 'rollout', 45, /customTimeouts\.update/],
    [undefined, { create: 90 }, annotated, 'rollout', 120, /pulumi\.com\/timeoutSeconds/],
    [undefined, undefined, annotated, 'create', 120, /pulumi\.com\/timeoutSeconds/],
    [undefined, undefined, plan(), 'rollout', 600, /default timeout \(600s/],
  ];
  for (const [option, custom, p, change, seconds, source] of rows) {
    const got = chooseTimeout(option, custom, p, change);
    assert.equal(got.seconds, seconds, `${option} ${JSON.stringify(custom)} ${change}`);
    assert.match(got.source, source);
  }
});

test('custom timeout strings', () => {
  const rows: [string | undefined, number | undefined][] = [
    ['5m', 300],
    ['90s', 90],
    ['1h30m', 5400],
    ['1.5m', 90],
    ['', undefined],
    [undefined, undefined],
    ['ten minutes', undefined],
    ['5x', undefined],
  ];
  for (const [text, want] of rows) assert.equal(durationSeconds(text), want, String(text));
});

test('gate annotations: waitFor on the name unless the program chose the provider wait', () => {
  const rows: [Record<string, unknown> | undefined, Record<string, unknown>][] = [
    [undefined, { 'pulumi.com/waitFor': GATE_WAIT_FOR }],
    [{ team: 'a' }, { team: 'a', 'pulumi.com/waitFor': GATE_WAIT_FOR }],
    [{ 'pulumi.com/waitFor': 'condition=Available' }, { 'pulumi.com/waitFor': 'condition=Available' }],
    [{ 'pulumi.com/skipAwait': 'true' }, { 'pulumi.com/skipAwait': 'true' }],
  ];
  for (const [given, want] of rows) assert.deepEqual(gateAnnotations(given), want, JSON.stringify(given));
  assert.equal(GATE_WAIT_FOR, 'jsonpath={.metadata.name}');
});

test('not traced: reads, imports, renderYamlToDirectory', () => {
  assert.match(notTracedBecause({ readOrImport: 'read' }) ?? '', /Deployment\.get\(\)/);
  assert.match(notTracedBecause({ readOrImport: 'import' }) ?? '', /imported/);
  assert.match(notTracedBecause({ provider: { renderYamlToDirectory: 'out' } }) ?? '', /renders YAML to out \(renderYamlToDirectory\)/);
  assert.equal(notTracedBecause({ provider: {} }), undefined);
  assert.equal(notTracedBecause({}), undefined);
});

test('an unreadable cluster: skipUpdateUnreachable skips, preview reports, update cannot trace', () => {
  const rows: [boolean, boolean | undefined, string][] = [
    [false, true, 'skip'],
    [true, true, 'skip'],
    [true, false, 'preview'],
    [false, false, 'cannot-trace'],
    [false, undefined, 'cannot-trace'],
  ];
  for (const [dryRun, skip, want] of rows) assert.equal(onUnreadableCluster({ dryRun, skipUpdateUnreachable: skip }), want);
});

test('unchanged Deployments are judged on their live state; every other change is traced', () => {
  const rows: [ChangeKind, string][] = [
    ['unchanged', 'check-live'],
    ['create', 'trace'],
    ['replace', 'trace'],
    ['rollout', 'trace'],
    ['scale', 'trace'],
  ];
  for (const [change, want] of rows) assert.equal(traceDecision(change), want, change);
});

test("the provider's write decides whether a rollout follows (gate mode)", () => {
  const written = (generation: number, uid = 'u1') => ({ generation, uid });
  const rows: [ChangeKind, LiveDeployment | undefined, { generation?: number; uid?: string } | null | undefined, WriteEffect][] = [
    ['unchanged', live, written(4), 'nothing-changed'],
    ['unchanged', live, written(5), 'spec-changed'],
    ['rollout', live, written(4), 'nothing-changed'],
    ['scale', live, written(4), 'nothing-changed'],
    ['rollout', live, written(5), 'as-declared'],
    ['create', undefined, written(1), 'as-declared'],
    ['replace', live, written(1, 'u2'), 'as-declared'],
    // The spec comparison saw a replacement the engine did not make (`ignoreChanges` on the field,
    // `--target`): the provider handed back the same object.
    ['replace', live, written(4), 'nothing-changed'],
    ['replace', live, { generation: 1 }, 'as-declared'],
    // Another uid where the spec comparison saw none: the engine replaced it (`--replace`,
    // `replaceOnChanges`, `replaceUnready` on a Job that failed since the comparison read it).
    ['rollout', live, written(1, 'u2'), 'replaced'],
    ['unchanged', live, written(1, 'u2'), 'replaced'],
    ['scale', live, written(7, 'u2'), 'replaced'],
    ['unchanged', live, { generation: 1 }, 'as-declared'],
    ['unchanged', live, null, 'as-declared'],
    ['unchanged', live, undefined, 'as-declared'],
    ['unchanged', { ...live, generation: undefined }, written(4), 'as-declared'],
    // No provider call: the engine hands back the stored outputs, older than the live object an
    // HPA or `kubectl scale` bumped since (live 4, stored 3): nothing was written.
    ['rollout', live, written(3), 'nothing-changed'],
    ['scale', live, written(3), 'nothing-changed'],
    ['unchanged', live, written(3), 'nothing-changed'],
  ];
  for (const [declared, l, w, want] of rows) assert.equal(writeEffect(declared, l, w), want, `${declared} ${JSON.stringify(w)}`);
});

test('skipUpdateUnreachable: the provider setting wins, else PULUMI_K8S_SKIP_UPDATE_UNREACHABLE', () => {
  const rows: [unknown, string | undefined, boolean][] = [
    [true, undefined, true],
    ['true', 'false', true],
    [false, 'true', false],
    ['false', 'true', false],
    [undefined, 'true', true],
    [undefined, 'TRUE', false],
    [undefined, undefined, false],
  ];
  for (const [setting, env, want] of rows) assert.equal(skipsUpdateUnreachable(setting, env), want, `${setting} ${env}`);
});

test("observe mode: only an event about a newer generation shows the provider's write", () => {
  const shows = (type: string) => showsWrite({ type });
  // Still the baseline's generation (the core's `waiting`), the trace's start and end: no write seen.
  assert.equal(shows('started'), false);
  assert.equal(shows('waiting'), false);
  assert.equal(shows('verdict'), false);
  // The core judged the newer generation.
  for (const type of ['revision', 'replicaset', 'pod', 'progress', 'scaled', 'condition', 'k8s-event', 'problem', 'held']) {
    assert.equal(shows(type), true, type);
  }
});

test('generateName: read from the inputs only when no name is declared', () => {
  assert.equal(planFromInputs('api', { metadata: { generateName: 'api-gen-' } }).generateName, 'api-gen-');
  assert.equal(planFromInputs('api', { metadata: { name: 'api', generateName: 'api-gen-' } }).name, 'api');
  assert.equal(planFromInputs('api', { metadata: { generateName: '' } }).generateName, undefined);
});

test('wait targets per kind: a Job waits only for a generation the provider returned; others as a Deployment, without its revision', () => {
  const live = { uid: 'u', generation: 3, revision: 'r' };
  assert.deepEqual(waitTarget('replace', live, undefined, 'Job'), { minGeneration: undefined, notFoundGraceSeconds: 60 });
  assert.deepEqual(waitTarget('unchanged', { uid: 'u' }, {}, 'Job'), { minGeneration: undefined });
  assert.deepEqual(waitTarget('rollout', live, undefined, 'StatefulSet'), { minGeneration: 4 });
  assert.deepEqual(waitTarget('rollout', live, { generation: 5 }, 'DaemonSet'), { minGeneration: 5 });
  assert.deepEqual(waitTarget('rollout', live, undefined, 'Deployment'), { baselineRevision: 'r', minGeneration: 4 });
});

test('a Job whose pod template changed is replaced (the template is immutable)', () => {
  const job = planFromInputs('migrate', { metadata: { name: 'migrate' }, spec: { template: {} } }, 'Job');
  const change: TemplateChange = { path: 'containers[app].image', planned: 'b', live: 'a' };
  assert.equal(changeKind(job, { uid: 'u' }, [change]), 'replace');
  assert.equal(changeKind(job, { uid: 'u' }, []), 'unchanged');
});

test('a Job removed after it ran: no live Job before, the engine handed back one, still none after', () => {
  const rows: [Parameters<typeof jobRemovedAfterItRan>[0], boolean][] = [
    [{ kind: 'Job', change: 'create', writtenUid: 'u1', liveUidAfter: undefined }, true],
    // The provider created it: it lives right after its write.
    [{ kind: 'Job', change: 'create', writtenUid: 'u2', liveUidAfter: 'u2' }, false],
    // Nothing handed back (a skipped create): nothing to say.
    [{ kind: 'Job', change: 'create', writtenUid: undefined, liveUidAfter: undefined }, false],
    // A live Job before the update: judged on its live state, as before.
    [{ kind: 'Job', change: 'unchanged', writtenUid: 'u1', liveUidAfter: undefined }, false],
    [{ kind: 'Job', change: 'replace', writtenUid: 'u1', liveUidAfter: undefined }, false],
    // Other kinds never finish.
    [{ kind: 'Deployment', change: 'create', writtenUid: 'u1', liveUidAfter: undefined }, false],
  ];
  for (const [facts, want] of rows) assert.equal(jobRemovedAfterItRan(facts), want, JSON.stringify(facts));
});

test("observe mode: when the provider's own await of a StatefulSet ends otherwise than the trace", () => {
  const sts = (spec: Record<string, unknown>, annotations: Record<string, string> = {}) =>
    planFromInputs('db', { metadata: { name: 'db', annotations }, spec }, 'StatefulSet');
  const partition2 = sts({ updateStrategy: { type: 'RollingUpdate', rollingUpdate: { partition: 2 } } });
  const onDelete = sts({ updateStrategy: { type: 'OnDelete' } });
  const settled: LiveDeployment = { uid: 'u', generation: 3, revisionsDiffer: false };
  const unfinished: LiveDeployment = { uid: 'u', generation: 3, revisionsDiffer: true };
  assert.match(
    providerAwaitDiffers(partition2, 'rollout', settled) ?? '',
    /never ends: with partition 2 .* fails at its timeout .*skipAwait.*gate mode.*partition to 0$/,
  );
  assert.match(
    providerAwaitDiffers(onDelete, 'rollout', settled) ?? '',
    /OnDelete StatefulSet ready once its pods are Ready, still on the previous template/,
  );
  // A scale while an earlier rollout is unfinished: pk compares the live revisions.
  assert.match(providerAwaitDiffers(partition2, 'scale', unfinished) ?? '', /never ends: with partition 2/);
  assert.match(providerAwaitDiffers(onDelete, 'scale', unfinished) ?? '', /OnDelete StatefulSet ready/);
  const agree: [string, ReturnType<typeof sts>, ChangeKind, LiveDeployment | undefined][] = [
    ['no partition', sts({ updateStrategy: { type: 'RollingUpdate' } }), 'rollout', settled],
    ['partition 0', sts({ updateStrategy: { type: 'RollingUpdate', rollingUpdate: { partition: 0 } } }), 'rollout', settled],
    ['no strategy declared', sts({}), 'rollout', settled],
    // pk statefulset.go L430: generation 1 takes the revision branch, and a new object has one revision.
    ['a partitioned create', partition2, 'create', undefined],
    ['an OnDelete create', onDelete, 'create', undefined],
    ['a partitioned replacement (a new object)', partition2, 'replace', settled],
    ['an OnDelete replacement (a new object)', onDelete, 'replace', settled],
    // A scale of a settled StatefulSet keeps currentRevision == updateRevision.
    ['a partitioned scale', partition2, 'scale', settled],
    ['an OnDelete scale', onDelete, 'scale', settled],
    [
      'skipAwait: the provider does not wait',
      sts({ updateStrategy: { type: 'OnDelete' } }, { 'pulumi.com/skipAwait': 'true' }),
      'rollout',
      settled,
    ],
    [
      'waitFor: the provider waits for that instead',
      sts({ updateStrategy: { type: 'OnDelete' } }, { 'pulumi.com/waitFor': 'jsonpath={.metadata.name}' }),
      'rollout',
      settled,
    ],
    ['a Deployment', planFromInputs('web', { metadata: { name: 'web' }, spec: { strategy: { type: 'Recreate' } } }), 'rollout', live],
  ];
  for (const [what, plan, change, liveNow] of agree) assert.equal(providerAwaitDiffers(plan, change, liveNow), undefined, what);
});
