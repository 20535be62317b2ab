/**
 * Kubernetes quantities, one table for both readers: the product's (src/pulumi/quantity.ts, the
 * value and the canonical text the API server stores) and the simulated kubelet's
 * (local-cluster/kubelet/quantity.ts, a plain number). Canonical texts are what kube-apiserver
 * 1.20 returns for the written text (apimachinery resource.Quantity `String()`).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseQuantity as kubeletQuantity } from '../../../local-cluster/kubelet/quantity.js';
import { parseQuantity } from '../../../src/pulumi/quantity.js';

/** Written text (or JSON number), its value, and the text the API server stores. */
const TABLE: [string | number, number, string][] = [
  ['0', 0, '0'],
  ['4', 4, '4'],
  [0.5, 0.5, '500m'],
  ['0.5', 0.5, '500m'],
  ['.5', 0.5, '500m'],
  ['500m', 0.5, '500m'],
  ['1000m', 1, '1'],
  ['1.5', 1.5, '1500m'],
  ['1.', 1, '1.'],
  ['12.345', 12.345, '12.345'],
  ['+1', 1, '+1'],
  ['-2', -2, '-2'],
  ['-500m', -0.5, '-500m'],
  ['100n', 100e-9, '100n'],
  ['250u', 250e-6, '250u'],
  ['1k', 1e3, '1k'],
  [1000, 1e3, '1k'],
  ['64M', 64e6, '64M'],
  ['64e6', 64e6, '64e6'],
  [64e6, 64e6, '64M'],
  ['64E6', 64e6, '64E6'],
  ['1.5e3', 1500, '1500'],
  ['1e-3', 1e-3, '1e-3'],
  ['1E', 1e18, '1E'],
  ['2G', 2e9, '2G'],
  ['3T', 3e12, '3T'],
  ['4P', 4e15, '4P'],
  ['1Ki', 1024, '1Ki'],
  ['1024Ki', 2 ** 20, '1Mi'],
  ['1024Mi', 2 ** 30, '1Gi'],
  ['1536Mi', 1536 * 2 ** 20, '1536Mi'],
  ['1.5Gi', 1.5 * 2 ** 30, '1536Mi'],
  ['0.5Gi', 2 ** 29, '512Mi'],
  ['0.5Ki', 512, '512'],
  ['1Gi', 2 ** 30, '1Gi'],
  ['2Ti', 2 * 2 ** 40, '2Ti'],
  ['1Pi', 2 ** 50, '1Pi'],
  ['1Ei', 2 ** 60, '1Ei'],
  ['1073741824', 2 ** 30, '1073741824'],
];

/** Pairs the API server reads as one value (a Deployment's template compares them so). */
const SAME_VALUE: [string | number, string][] = [
  [0.5, '500m'],
  ['1024Mi', '1Gi'],
  ['64e6', '64M'],
  [64e6, '64M'],
  ['1.5e3', '1500'],
  ['1000', '1k'],
  ['1024', '1Ki'],
  ['+1', '1'],
  ['1e3', '1k'],
];

const REFUSED = ['', 'abc', '1e', '1.2.3', '1Mi3', '1 Gi', '--1', '1x', 'Gi', '.', '+'];

test('quantities: value and the canonical text the API server stores, for every spelling', () => {
  for (const [written, value, canonical] of TABLE) {
    const q = parseQuantity(written);
    assert.ok(q, `${written} parses`);
    assert.equal(Number(q.nanos) / 1e9, value, `value of ${written}`);
    assert.equal(q.canonical, canonical, `canonical text of ${written}`);
  }
});

test('the simulated kubelet reads every spelling to the same value', () => {
  for (const [written, value] of TABLE) {
    const got = kubeletQuantity(String(written));
    assert.ok(Math.abs(got - value) <= Math.abs(value) * 1e-12, `kubelet value of ${written}: ${got} ≠ ${value}`);
  }
});

test('one value in two spellings: equal nanos; the canonical texts differ only where the format does', () => {
  for (const [a, b] of SAME_VALUE) {
    assert.equal(parseQuantity(a)?.nanos, parseQuantity(b)?.nanos, `${a} = ${b}`);
    assert.equal(kubeletQuantity(String(a)), kubeletQuantity(b), `kubelet: ${a} = ${b}`);
  }
  assert.equal(parseQuantity(0.5)?.canonical, parseQuantity('500m')?.canonical);
  assert.equal(parseQuantity('1024Mi')?.canonical, parseQuantity('1Gi')?.canonical);
  assert.notEqual(parseQuantity('64e6')?.canonical, parseQuantity('64M')?.canonical);
});

test('values below a nano unit round up, away from zero, as the API server rounds', () => {
  assert.equal(parseQuantity('1e-10')?.nanos, 1n);
  assert.equal(parseQuantity('1e-10')?.canonical, '1e-9');
  assert.equal(parseQuantity('0.0000000001')?.canonical, '1n');
  assert.equal(parseQuantity('-0.0000000001')?.nanos, -1n);
  assert.equal(parseQuantity('1.0000000001')?.canonical, '1000000001n');
});

test('what the API server refuses is refused by both readers', () => {
  for (const text of REFUSED) {
    assert.equal(parseQuantity(text), undefined, `product: ${JSON.stringify(text)}`);
    assert.throws(() => kubeletQuantity(text), /invalid quantity/, `kubelet: ${JSON.stringify(text)}`);
  }
});
