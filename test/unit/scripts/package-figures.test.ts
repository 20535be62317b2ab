import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  findFigures,
  formatBytes,
  formatFigures,
  parsePackJson,
  rewriteFigures,
  staleMessage,
  statementHolds,
} from '../../../scripts/package-figures.js';

const figures = { size: 627_330, unpackedSize: 2_254_364, entryCount: 421 };
const README = [
  '```sh',
  'npm install rollout-trace',
  '```',
  '',
  'Package: 614 kB packed (2.0 MB unpacked), 254 files; Node >= 22.12; peers @pulumi/pulumi >=3.182.0',
  '(a 2,000-pod report is about 30 kB).',
].join('\n');

describe('package figures', () => {
  it('formats bytes in npm decimal units: kB whole, MB with one decimal', () => {
    assert.equal(formatBytes(999), '999 B');
    assert.equal(formatBytes(613_600), '614 kB');
    assert.equal(formatBytes(1_999_999), '2.0 MB');
    assert.equal(formatFigures(figures), '627 kB packed (2.3 MB unpacked), 421 files');
  });

  it('reads the one package of npm pack --dry-run --json, after any script output', () => {
    const stdout = `> rollout-trace@0.1.0 build\n> tsc\n[\n  {"id": "rollout-trace@0.1.0", "size": 627330, "unpackedSize": 2254364, "entryCount": 421, "files": []}\n]\n`;
    assert.deepEqual(parsePackJson(stdout), figures);
    assert.throws(() => parsePackJson('npm error'), /printed no JSON array/);
    assert.throws(() => parsePackJson('[{"size": 1}]'), /exactly one package/);
  });

  it('a statement holds with sizes within 2% and the same file count, not otherwise', () => {
    const f = { size: 586_200, unpackedSize: 1_912_000, entryCount: 421 };
    assert.ok(statementHolds('586 kB packed (1.9 MB unpacked), 421 files', f));
    assert.ok(statementHolds('584 kB packed (1.9 MB unpacked), 421 files', f), 'a size 0.4% off');
    assert.ok(!statementHolds('560 kB packed (1.9 MB unpacked), 421 files', f), 'a size 4.5% off');
    assert.ok(!statementHolds('586 kB packed (2.1 MB unpacked), 421 files', f), 'an unpacked size 10% off');
    assert.ok(!statementHolds('586 kB packed (1.9 MB unpacked), 422 files', f), 'another file count');
  });

  it('finds the statement with its line, not other sizes', () => {
    assert.deepEqual(findFigures(README), [{ line: 5, text: '614 kB packed (2.0 MB unpacked), 254 files' }]);
  });

  it('rewrites only the figures, keeping the rest of the line', () => {
    const written = rewriteFigures(README, figures);
    assert.equal(
      written.split('\n')[4],
      'Package: 627 kB packed (2.3 MB unpacked), 421 files; Node >= 22.12; peers @pulumi/pulumi >=3.182.0',
    );
    assert.equal(written.split('\n')[5], '(a 2,000-pod report is about 30 kB).');
    assert.deepEqual(findFigures(written), [{ line: 5, text: formatFigures(figures) }]);
  });

  it('a stale figure is one paragraph naming the file, line, both figures and the command', () => {
    const message = staleMessage('README.md', findFigures(README)[0]!, figures);
    assert.ok(!message.includes('\n'));
    assert.match(message, /^README\.md:5 says the package is "614 kB packed \(2\.0 MB unpacked\), 254 files", but npm pack/);
    assert.match(message, /"627 kB packed \(2\.3 MB unpacked\), 421 files"/);
    assert.match(message, /node --import tsx scripts\/package-figures\.ts --write/);
  });
});
