/**
 * pk's annotations read as pk reads them (provider/pkg/metadata/overrides.go, annotations.go):
 * `pulumi.com/timeoutSeconds` with Go's `strconv.Atoi`, `skipAwait` and `replaceUnready` equal to
 * `"true"` exactly, an empty `waitFor` as none. Both our reading (src/pulumi/plan.ts) and the
 * harness' stand-in provider's (test/pulumi/harness/k8s-await.ts).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { chooseTimeout, GATE_WAIT_FOR, gateAnnotations } from '../../../src/pulumi/decisions.js';
import { goAtoi, planFromInputs } from '../../../src/pulumi/plan.js';
import { awaitKind, awaitSeconds } from '../../pulumi/harness/k8s-await.js';

/**
 * Go 1.19's `strconv.Atoi` on each text (64-bit int), printed by a Go program: undefined where it
 * returned an error.
 */
const ATOI: [string, number | undefined][] = [
  ['60', 60],
  ['600s', undefined],
  ['90s', undefined],
  ['1.5', undefined],
  [' 60', undefined],
  ['+60', 60],
  ['-60', -60],
  ['0060', 60],
  ['00000000000000000000000000060', 60],
  ['0', 0],
  // The int64 bounds (as near as a JavaScript number gets).
  ['9223372036854775807', Number(2n ** 63n - 1n)],
  ['-9223372036854775808', Number(-(2n ** 63n))],
  ['9223372036854775808', undefined],
  ['-9223372036854775809', undefined],
  ['60 ', undefined],
  ['', undefined],
  ['+', undefined],
  ['-', undefined],
  ['+-1', undefined],
  ['--1', undefined],
  ['1_000', undefined],
  ['١٢', undefined],
  ['６０', undefined],
  ['0x10', undefined],
  ['1e3', undefined],
];

test("goAtoi: Go's strconv.Atoi, text by text", () => {
  for (const [text, want] of ATOI) assert.equal(goAtoi(text), want, JSON.stringify(text));
});

const planWith = (annotations: Record<string, string>) => planFromInputs('web', { metadata: { name: 'web', annotations }, spec: {} });

test('pulumi.com/timeoutSeconds: what Atoi refuses leaves the default (600 s), as pk does', () => {
  for (const [text, want] of ATOI) {
    const plan = planWith({ 'pulumi.com/timeoutSeconds': text });
    const expected = want !== undefined && want > 0 ? want : 600;
    assert.equal(chooseTimeout(undefined, undefined, plan, 'rollout').seconds, expected, JSON.stringify(text));
  }
});

test("the stand-in provider's await timeout reads the annotation with Atoi too", () => {
  for (const [text, want] of ATOI) {
    assert.equal(awaitSeconds({ 'pulumi.com/timeoutSeconds': text }, undefined, 600), want ?? 600, JSON.stringify(text));
  }
  assert.equal(awaitSeconds({ 'pulumi.com/timeoutSeconds': '30' }, 90, 600), 90, 'customTimeouts first');
});

test('skipAwait is "true" exactly (pk IsAnnotationTrue); an empty waitFor is none (pk ReadyCondition)', () => {
  const rows: [Record<string, string>, boolean, string | undefined][] = [
    [{ 'pulumi.com/skipAwait': 'true' }, true, undefined],
    [{ 'pulumi.com/skipAwait': 'True' }, false, undefined],
    [{ 'pulumi.com/skipAwait': ' true' }, false, undefined],
    [{ 'pulumi.com/skipAwait': '1' }, false, undefined],
    [{ 'pulumi.com/waitFor': '' }, false, undefined],
    [{ 'pulumi.com/waitFor': 'jsonpath={.status.phase}=Running' }, false, 'jsonpath={.status.phase}=Running'],
  ];
  for (const [annotations, skip, waitFor] of rows) {
    const plan = planWith(annotations);
    assert.deepEqual([plan.skipAwait, plan.waitFor], [skip, waitFor], JSON.stringify(annotations));
    assert.equal(awaitKind(annotations) === 'skip', skip, `stand-in: ${JSON.stringify(annotations)}`);
  }
  assert.equal(awaitKind({ 'pulumi.com/waitFor': '' }), 'deployment', 'stand-in: an empty waitFor runs the built-in await');
});

test('the gate adds its waitFor over an empty one (pk would run its built-in await), keeps a real one', () => {
  assert.equal(gateAnnotations({ 'pulumi.com/waitFor': '' })['pulumi.com/waitFor'], GATE_WAIT_FOR);
  assert.equal(gateAnnotations({ 'pulumi.com/waitFor': 'condition=Ready' })['pulumi.com/waitFor'], 'condition=Ready');
  assert.deepEqual(gateAnnotations({ 'pulumi.com/skipAwait': 'false' }), { 'pulumi.com/skipAwait': 'false' });
});
