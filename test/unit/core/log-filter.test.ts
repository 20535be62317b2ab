import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { compileLogFilter, redactLine } from '../../../src/core/log-filter.js';

describe('log redaction and filtering', () => {
  it('masks the shapes secrets take in logs, and nothing else', () => {
    const table: Array<[string, string]> = [
      ['DB_PASSWORD=hunter2 connecting', 'DB_PASSWORD=*** connecting'],
      ['password: s3cret', 'password: ***'],
      ['{"api_key": "AKIA123", "ok": true}', '{"api_key": "***", "ok": true}'],
      ["client.secret='a b c' loaded", "client.secret='***' loaded"],
      ['token=abc&user=bob', 'token=***&user=bob'],
      ['Authorization: Bearer eyJhbGciOi.x.y', 'Authorization: Bearer ***'],
      ['dial postgres://app:pa55@db:5432/shop', 'dial postgres://app:***@db:5432/shop'],
      ['GET /healthz 200 12ms', 'GET /healthz 200 12ms'],
      ['processed 5 tokens: done', 'processed 5 tokens: done'],
      ['token=*** already masked', 'token=*** already masked'],
    ];
    for (const [raw, want] of table) assert.equal(redactLine(raw), want, raw);
  });

  it("adds the user's patterns (strings are regular expressions; every match is masked)", () => {
    const f = compileLogFilter({ redact: ['hunter\\d', /sk_live_\w+/] });
    assert.equal(f('login with hunter2 then hunter3'), 'login with *** then ***');
    assert.equal(f('stripe key sk_live_abc123 used'), 'stripe key *** used');
  });

  it('grep keeps matching lines only, matched after redaction (a grep cannot fish out a secret)', () => {
    const f = compileLogFilter({ grep: 'ERROR|hunter2', redact: ['hunter2'] });
    assert.equal(f('ERROR db down'), 'ERROR db down');
    assert.equal(f('INFO all good'), undefined);
    assert.equal(f('INFO password is hunter2'), undefined);
    const g = compileLogFilter({ grep: /error/gi });
    assert.equal(g('an Error'), 'an Error');
    assert.equal(g('another error'), 'another error', 'a global RegExp does not carry lastIndex between lines');
  });

  it('rejects invalid patterns and patterns that match the empty string, naming them', () => {
    assert.throws(() => compileLogFilter({ redact: ['('] }), /redact pattern "\(" is not a valid regular expression/);
    assert.throws(() => compileLogFilter({ grep: '[a-' }), /grep pattern "\[a-" is not a valid regular expression/);
    assert.throws(() => compileLogFilter({ redact: ['x*'] }), /redact pattern "x\*" matches the empty string/);
  });
});
