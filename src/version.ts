/** The package's version, read from its package.json. */
import { readFileSync } from 'node:fs';

/**
 * The rollout-trace version, or `unknown` when package.json cannot be read. Looked up from the
 * module's own place: `src/` and `dist/` sit one level under the package, the CLI bundle two.
 */
export function packageVersion(): string {
  for (const path of ['../package.json', '../../package.json']) {
    try {
      const pkg = JSON.parse(readFileSync(new URL(path, import.meta.url), 'utf8')) as { name?: string; version?: string };
      if (pkg.name === 'rollout-trace' && pkg.version) return pkg.version;
    } catch {
      // not there: try the next place
    }
  }
  return 'unknown';
}
