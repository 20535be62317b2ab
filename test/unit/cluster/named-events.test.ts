/**
 * The pure parts of the named Event list (src/cluster/named-events.ts): the key prefixes that cover
 * a set of workloads' Events, and the `continue` token that starts a list at one of them.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { continueAt, NAME_PREFIX_MAX, namePrefixes } from '../../../src/cluster/named-events.js';

describe('namePrefixes: the key ranges that hold the workloads’ Events', () => {
  it('one range per name, sorted; a name another one starts covers it', () => {
    assert.deepEqual(namePrefixes(['web', 'db', 'web-canary', 'web']), ['db', 'web']);
  });
  it('a long name is cut where a generated pod name cuts it', () => {
    const long = 'a'.repeat(70);
    assert.deepEqual(namePrefixes([long]), ['a'.repeat(NAME_PREFIX_MAX)]);
    // A Deployment's pod: `<name>-<hash>-` cut to 58 characters, then 5 random ones.
    const pod = `${`${long}-7f9c6d5b4-`.slice(0, 58)}x2k9q`;
    assert.ok(pod.startsWith(namePrefixes([long])[0] as string));
  });
  it('no names: no range', () => {
    assert.deepEqual(namePrefixes([]), []);
  });
});

describe('continueAt: the token kube-apiserver decodes to a start key and a revision', () => {
  it('base64url JSON with the version, the revision as a number and the start key', () => {
    const token = continueAt('web', 12345n);
    assert.match(token, /^[A-Za-z0-9_-]+$/);
    assert.deepEqual(JSON.parse(Buffer.from(token, 'base64url').toString()), { v: 'meta.k8s.io/v1', rv: 12345, start: 'web' });
  });
});
