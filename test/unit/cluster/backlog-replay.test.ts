/**
 * The pure parts of the Event backlog's replay (src/cluster/backlog-replay.ts): reading a watch
 * line's type and revision without parsing it, the apiserver's "too old" answer, and revisions.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { etcdRevision, oldestKept } from '../../../src/cluster/backlog-replay.js';
import { notAddedLineVersion } from '../../../src/cluster/relevance.js';

const line = (type: string, rv: string, extra = '') =>
  `{"type":"${type}","object":{"kind":"Pod","apiVersion":"v1","metadata":{"name":"web-1","namespace":"ns","uid":"u1","resourceVersion":"${rv}"${extra}},"spec":{}}}`;

describe('notAddedLineVersion: pass over what is not a creation, unparsed', () => {
  it('MODIFIED, DELETED and BOOKMARK lines: their revision', () => {
    assert.equal(notAddedLineVersion(line('MODIFIED', '42')), '42');
    assert.equal(notAddedLineVersion(line('DELETED', '43')), '43');
    assert.equal(
      notAddedLineVersion('{"type":"BOOKMARK","object":{"kind":"Pod","apiVersion":"v1","metadata":{"resourceVersion":"44"}}}'),
      '44',
    );
  });
  it('an ADDED line is parsed (undefined)', () => {
    assert.equal(notAddedLineVersion(line('ADDED', '45')), undefined);
  });
  it('an ERROR line is parsed (undefined), whatever it carries', () => {
    const gone = '{"type":"ERROR","object":{"kind":"Status","metadata":{},"message":"too old resource version: 1 (2)","code":410}}';
    assert.equal(notAddedLineVersion(gone), undefined);
  });
  it('a label or annotation cannot fake the type: only the line start counts', () => {
    const faked = line('ADDED', '46', ',"labels":{"x":"{\\"type\\":\\"MODIFIED\\""}');
    assert.equal(notAddedLineVersion(faked), undefined);
  });
});

describe("oldestKept: the watch cache's oldest revision from kube-apiserver's 410 answer", () => {
  it('reads the number in parentheses', () => {
    assert.equal(oldestKept('too old resource version: 30489 (31012)'), 31012n);
  });
  it('anything else: undefined', () => {
    assert.equal(oldestKept('The resourceVersion for the provided watch is too old.'), undefined);
    assert.equal(oldestKept(undefined), undefined);
  });
});

describe('etcdRevision: a resourceVersion as an etcd revision', () => {
  it('decimal digits', () => assert.equal(etcdRevision('123456'), 123456n));
  it('not a number (an apiserver that is not etcd-backed): undefined', () => {
    for (const v of ['', 'abc', '12a', '-1', undefined]) assert.equal(etcdRevision(v), undefined, String(v));
  });
});
