/**
 * managedFields cut out of the apiserver's JSON before parsing: the parsed object is exactly the
 * one parsed whole with managedFields deleted, or, for any shape the cut does not expect, the one
 * parsed whole. Lines are written in the apiserver's field order (metadata first, managedFields
 * its last field).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseWithoutManagedFields, withoutManagedFields } from '../../../src/cluster/managed-fields.js';

const entry = (manager: string, fieldsV1: unknown = { 'f:status': { 'f:conditions': { 'k:{"type":"Ready"}': { '.': {} } } } }) => ({
  manager,
  operation: 'Update',
  apiVersion: 'v1',
  time: '2026-11-26T06:56:14Z',
  fieldsType: 'FieldsV1',
  fieldsV1,
});

function pod(name: string, managedFields: unknown[] | undefined, annotations?: Record<string, string>) {
  return {
    kind: 'Pod',
    apiVersion: 'v1',
    metadata: {
      name,
      namespace: 'prod',
      uid: `uid-${name}`,
      resourceVersion: '264',
      labels: { app: 'web' },
      ...(annotations ? { annotations } : {}),
      ownerReferences: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'web-1', uid: 'u', controller: true }],
      ...(managedFields ? { managedFields } : {}),
    },
    spec: { containers: [{ name: 'app', image: 'nginx', ports: [{ containerPort: 80 }] }] },
    status: { phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }] },
  };
}

/** What parsing whole and deleting managedFields gives. */
function parsedThenStripped(json: string): unknown {
  const value = JSON.parse(json) as {
    object?: { metadata?: Record<string, unknown> };
    items?: Array<{ metadata?: Record<string, unknown> }>;
  };
  for (const o of [value.object, ...(value.items ?? [])]) if (o?.metadata) delete o.metadata.managedFields;
  return value;
}

const watchLine = (object: unknown) => JSON.stringify({ type: 'MODIFIED', object });

describe('withoutManagedFields', () => {
  it("cuts a pod's managedFields out of a watch line; the rest parses to the same object", () => {
    const line = watchLine(pod('a', [entry('kube-controller-manager'), entry('kubelet')]));
    const cut = withoutManagedFields(line);
    assert.ok(cut.length < line.length - 300, `${line.length} -> ${cut.length}`);
    assert.ok(!cut.includes('managedFields'));
    assert.deepEqual(JSON.parse(cut), parsedThenStripped(line));
  });

  it("cuts an Event's (metadata, then involvedObject)", () => {
    const event = {
      kind: 'Event',
      apiVersion: 'v1',
      metadata: { name: 'e1', namespace: 'prod', resourceVersion: '9', managedFields: [entry('kube-scheduler', { 'f:count': {} })] },
      involvedObject: { kind: 'Pod', name: 'a' },
      reason: 'FailedScheduling',
      type: 'Warning',
    };
    const line = watchLine(event);
    assert.deepEqual(JSON.parse(withoutManagedFields(line)), parsedThenStripped(line));
    assert.ok(!withoutManagedFields(line).includes('managedFields'));
  });

  it("cuts every item's in a list body", () => {
    const body = JSON.stringify({
      kind: 'PodList',
      metadata: { resourceVersion: '5' },
      items: ['a', 'b', 'c'].map((n) => pod(n, [entry('m')])),
    });
    const cut = withoutManagedFields(body);
    assert.ok(!cut.includes('managedFields'));
    assert.deepEqual(JSON.parse(cut), parsedThenStripped(body));
  });

  it('leaves a text without managedFields as it is (the same string)', () => {
    const line = watchLine(pod('a', undefined, { managedFields: '[not,really]' }));
    assert.equal(withoutManagedFields(line), line);
  });

  it('a manager name that quotes the end pattern is a string, never the end: that object is left whole', () => {
    const line = watchLine(pod('a', [entry('evil]},"spec":{"x":1}'), entry('kubelet')]));
    assert.equal(withoutManagedFields(line), line);
    const quiet = watchLine(pod('b', [entry('kubelet'), entry('evil},"spec":{"x":1}')]));
    assert.deepEqual(JSON.parse(withoutManagedFields(quiet)), parsedThenStripped(quiet));
  });

  it('a `]` inside a manager name: that object is left whole, the next one still cut', () => {
    const body = JSON.stringify({ items: [pod('a', [entry('tool[v2]')]), pod('b', [entry('m')])] });
    const cut = withoutManagedFields(body);
    const parsed = JSON.parse(cut) as { items: Array<{ metadata: { managedFields?: unknown } }> };
    assert.ok(parsed.items[0]?.metadata.managedFields, 'left whole');
    assert.equal(parsed.items[1]?.metadata.managedFields, undefined, 'cut');
    assert.deepEqual(parsed, JSON.parse(body.replace(/,"managedFields":\[\{"manager":"m"[^\]]*\]/, '')));
  });

  it('metadata as the last field (`]}}`) is left whole', () => {
    const line = JSON.stringify({
      type: 'BOOKMARK',
      object: { kind: 'Pod', metadata: { resourceVersion: '7', managedFields: [entry('m')] } },
    });
    assert.equal(withoutManagedFields(line), line);
  });
});

describe('parseWithoutManagedFields', () => {
  it('an array inside an entry (a shape not expected): the cut text does not parse, so the whole text is parsed', () => {
    const line = watchLine(pod('a', [{ ...entry('m', { 'f:x': [1, 2] }), subresource: 'status' }]));
    assert.notEqual(withoutManagedFields(line), line, 'the cut was attempted');
    assert.throws(() => JSON.parse(withoutManagedFields(line)));
    assert.deepEqual(parseWithoutManagedFields(line), JSON.parse(line));
  });

  it('parses a line without managedFields as JSON.parse does, and throws on what is not JSON', () => {
    const line = watchLine(pod('a', undefined));
    assert.deepEqual(parseWithoutManagedFields(line), JSON.parse(line));
    assert.throws(() => parseWithoutManagedFields('{"type":"MODIFIED","object":{"metadata":{"name":"a","managedFields":[{}]},"spec":'));
  });
});
