/**
 * A package-lock.json for a new project that depends on the packed tarball, cut from this
 * repository's own lock file: `npm ci --offline` then installs it from the npm cache that
 * `npm ci` filled (the cache holds the tarballs of the locked versions, not the registry's
 * metadata that `npm install NAME` would need).
 */
import { readFileSync } from 'node:fs';

/** One entry of a lock file's `packages` (lockfileVersion 3). */
interface LockEntry {
  version?: string;
  resolved?: string;
  integrity?: string;
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
  [field: string]: unknown;
}

/** What {@link consumerLock} needs to know about the project it locks. */
export interface ConsumerLockInput {
  /** This repository's package-lock.json. */
  repoLockPath: string;
  /** The tarball as the consumer's package.json names it (`file:../rollout-trace-0.1.0.tgz`). */
  tarballSpec: string;
  /** The tarball's integrity (`npm pack --json`'s `integrity`). */
  tarballIntegrity: string;
  /** The packed package.json (its name, version, dependencies and peers). */
  packed: {
    name: string;
    version: string;
    bin?: Record<string, string>;
    dependencies?: Record<string, string>;
    peerDependencies?: Record<string, string>;
  };
  /** Other direct dependencies of the consumer (name -> spec), all locked in the repository. */
  extra: Record<string, string>;
}

/** The folder whose node_modules holds `path`'s own dependencies' parent ("" is the project). */
function parentOf(path: string): string {
  const i = path.lastIndexOf('node_modules/');
  return i <= 0 ? '' : path.slice(0, i - 1);
}

/** Where Node finds `name` from the package at `from` ("" is the project), in the lock's layout. */
function locate(packages: Record<string, LockEntry>, from: string, name: string): string | undefined {
  for (let dir = from; ; dir = parentOf(dir)) {
    const key = `${dir ? `${dir}/` : ''}node_modules/${name}`;
    if (packages[key]) return key;
    if (!dir) return undefined;
  }
}

/** The names an installed package needs: its dependencies, optional ones and non-optional peers. */
function needs(entry: LockEntry): string[] {
  const peers = Object.keys(entry.peerDependencies ?? {}).filter((p) => !entry.peerDependenciesMeta?.[p]?.optional);
  return [...Object.keys(entry.dependencies ?? {}), ...Object.keys(entry.optionalDependencies ?? {}), ...peers];
}

/** The consumer's package.json and package-lock.json (as objects). */
export function consumerLock(input: ConsumerLockInput): { manifest: object; lock: object } {
  const repo = JSON.parse(readFileSync(input.repoLockPath, 'utf8')) as { packages: Record<string, LockEntry> };
  const dependencies = { [input.packed.name]: input.tarballSpec, ...input.extra };
  const packages: Record<string, LockEntry> = {
    '': { name: 'consumer', dependencies },
    [`node_modules/${input.packed.name}`]: {
      version: input.packed.version,
      resolved: input.tarballSpec,
      integrity: input.tarballIntegrity,
      // npm ci links the executables the lock file lists, not the ones in the package.
      bin: input.packed.bin,
      dependencies: input.packed.dependencies,
      peerDependencies: input.packed.peerDependencies,
    },
  };
  const todo: Array<[from: string, name: string]> = [
    ...Object.keys(input.packed.dependencies ?? {}).map((n): [string, string] => ['', n]),
    ...Object.keys(input.extra).map((n): [string, string] => ['', n]),
  ];
  for (let next = todo.pop(); next; next = todo.pop()) {
    const [from, name] = next;
    const key = locate(repo.packages, from, name);
    if (!key || packages[key]) continue;
    // The repository installs these as dev dependencies; here they are the project's own.
    const { dev: _dev, devOptional: _devOptional, peer: _peer, ...entry } = repo.packages[key]!;
    packages[key] = entry;
    for (const dep of needs(entry)) todo.push([key, dep]);
  }
  return {
    manifest: { name: 'consumer', version: '1.0.0', private: true, dependencies },
    lock: { name: 'consumer', version: '1.0.0', lockfileVersion: 3, requires: true, packages },
  };
}
