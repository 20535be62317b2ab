/**
 * The simulated image registry: decides whether an image reference can be pulled, and with
 * which docker error message it fails when it cannot. Messages are the ones dockershim (the
 * default runtime of a 1.20 kubelet) passes through: `rpc error: code = Unknown desc = Error
 * response from daemon: ...`.
 */
import { createHash } from 'node:crypto';

/** A parsed image reference (`[host/]path[:tag][@digest]`). */
export interface ImageRef {
  /** Registry host, `docker.io` when the reference has none. */
  host: string;
  /** Repository path; Docker Hub official images are `library/<name>`. */
  path: string;
  tag?: string;
  digest?: string;
  /** The repository as docker prints it (`nginx`, `acme/app`, `registry.local/app`). */
  familiar: string;
}

/** What a pull attempt of an image yields. */
export type PullOutcome =
  | { ok: true; imageID: string; resolvedImage: string }
  | { ok: false; kind: 'not-found' | 'denied' | 'unreachable' | 'invalid-name'; message: string };

/** Docker Hub official images the registry knows. */
const OFFICIAL = new Set([
  'nginx',
  'busybox',
  'redis',
  'httpd',
  'alpine',
  'postgres',
  'mysql',
  'mariadb',
  'mongo',
  'memcached',
  'ubuntu',
  'debian',
  'centos',
  'fedora',
  'node',
  'python',
  'golang',
  'ruby',
  'openjdk',
  'php',
  'traefik',
  'haproxy',
  'rabbitmq',
  'elasticsearch',
  'caddy',
  'registry',
  'hello-world',
  'tomcat',
  'wordpress',
]);

/** Non-official Docker Hub repositories the registry knows. */
const KNOWN_USER_REPOS = new Set([
  'bitnami/nginx',
  'bitnami/redis',
  'bitnami/postgresql',
  'nginxinc/nginx-unprivileged',
  'kennethreitz/httpbin',
  'hashicorp/http-echo',
  'paulbouwer/hello-kubernetes',
  'gcr.io/google-samples/hello-app',
  'stefanprodan/podinfo',
  'pulumi/pulumi',
  'curlimages/curl',
  'fluent/fluent-bit',
  'library/nginx',
]);

const TAG_WORDS =
  '(alpine|slim|bullseye|buster|bookworm|stretch|perl|otel|mainline|stable|musl|glibc|uclibc|jammy|focal|noble|lts|edge|jdk|jre|fpm|apache|cli|management)';
const PLAUSIBLE_TAG = new RegExp(`^(latest|${TAG_WORDS.slice(1, -1)}|v?\\d{1,4}(\\.\\d{1,4}){0,2})(-${TAG_WORDS}[0-9.]*)*$`);
const NONSENSE = /(nonexist|not-exist|does-not|missing|invalid|bogus|broken|nope|typo|bad)/i;

/** Parses a reference like docker's reference.ParseNormalizedNamed. */
export function parseImage(image: string): ImageRef | undefined {
  if (!image || /[A-Z\s]/.test(image.split('@')[0].split(':')[0])) return undefined;
  let rest = image;
  let digest: string | undefined;
  const at = rest.indexOf('@');
  if (at >= 0) {
    digest = rest.slice(at + 1);
    rest = rest.slice(0, at);
  }
  let tag: string | undefined;
  const lastSlash = rest.lastIndexOf('/');
  const colon = rest.lastIndexOf(':');
  if (colon > lastSlash) {
    tag = rest.slice(colon + 1);
    rest = rest.slice(0, colon);
  }
  const parts = rest.split('/');
  let host = 'docker.io';
  if (parts.length > 1 && (parts[0].includes('.') || parts[0].includes(':') || parts[0] === 'localhost')) {
    host = parts.shift()!;
  }
  let path = parts.join('/');
  if (!/^[a-z0-9]+([._-][a-z0-9]+)*(\/[a-z0-9]+([._-][a-z0-9]+)*)*$/.test(path)) return undefined;
  if (tag !== undefined && !/^[\w][\w.-]{0,127}$/.test(tag)) return undefined;
  if (host === 'docker.io' && !path.includes('/')) path = `library/${path}`;
  const familiar = host === 'docker.io' ? path.replace(/^library\//, '') : `${host}/${path}`;
  return { host, path, tag, digest, familiar };
}

/** The tagged name docker reports in `containerStatuses[].image` (`nginx` -> `nginx:latest`). */
export function resolvedImageName(image: string): string {
  const ref = parseImage(image);
  if (!ref) return image;
  if (ref.digest) return `${ref.familiar}@${ref.digest}`;
  return `${ref.familiar}:${ref.tag ?? 'latest'}`;
}

/** A deterministic sha256 digest for an image (same image, same digest, on every node and run). */
export function imageDigest(image: string): string {
  const ref = parseImage(image);
  if (ref?.digest) return ref.digest;
  return `sha256:${createHash('sha256')
    .update(`rollout-trace-sim:${resolvedImageName(image)}`)
    .digest('hex')}`;
}

/** The error docker gives when the registry cannot be reached (`lookup ... no such host`). */
function unreachable(ref: ImageRef): string {
  return `rpc error: code = Unknown desc = Error response from daemon: Get https://${ref.host}/v2/: dial tcp: lookup ${ref.host} on 127.0.0.53:53: no such host`;
}

/** A transient Docker Hub failure (used by the `pull-transient` behaviour). */
export function transientPullError(image: string): string {
  const ref = parseImage(image);
  const host = !ref || ref.host === 'docker.io' ? 'registry-1.docker.io' : ref.host;
  return `rpc error: code = Unknown desc = Error response from daemon: Get https://${host}/v2/: net/http: request canceled while waiting for connection (Client.Timeout exceeded while awaiting headers)`;
}

/** Decides what pulling `image` does in the simulated registry. */
export function pull(image: string): PullOutcome {
  const ref = parseImage(image);
  if (!ref) {
    return { ok: false, kind: 'invalid-name', message: `couldn't parse image reference "${image}": invalid reference format` };
  }
  if (ref.host.endsWith('.invalid') || ref.host.endsWith('.example')) {
    return { ok: false, kind: 'unreachable', message: unreachable(ref) };
  }
  const tagLabel = ref.tag ?? 'latest';
  const knownRepo =
    ref.host === 'registry.local' ||
    (ref.host === 'docker.io'
      ? (OFFICIAL.has(ref.path.replace(/^library\//, '')) && ref.path.startsWith('library/')) || KNOWN_USER_REPOS.has(ref.path)
      : !NONSENSE.test(ref.path));
  if (!knownRepo) {
    if (ref.host === 'docker.io') {
      return {
        ok: false,
        kind: 'denied',
        message: `rpc error: code = Unknown desc = Error response from daemon: pull access denied for ${ref.familiar}, repository does not exist or may require 'docker login': denied: requested access to the resource is denied`,
      };
    }
    return {
      ok: false,
      kind: 'denied',
      message: `rpc error: code = Unknown desc = Error response from daemon: unauthorized: authentication required`,
    };
  }
  const plausible = ref.digest
    ? /^sha256:[0-9a-f]{64}$/.test(ref.digest)
    : ref.host === 'registry.local'
      ? !NONSENSE.test(tagLabel)
      : PLAUSIBLE_TAG.test(tagLabel) && !NONSENSE.test(tagLabel);
  if (!plausible) {
    const what = ref.digest ? `${ref.familiar}@${ref.digest}` : `${ref.familiar}:${tagLabel}`;
    return {
      ok: false,
      kind: 'not-found',
      message: `rpc error: code = Unknown desc = Error response from daemon: manifest for ${what} not found: manifest unknown: manifest unknown`,
    };
  }
  return {
    ok: true,
    imageID: `docker-pullable://${ref.familiar}@${imageDigest(image)}`,
    resolvedImage: resolvedImageName(image),
  };
}

/** Whether the image reference has an explicit tag or digest (the kubelet's `:latest` default rule). */
export function isLatest(image: string): boolean {
  const ref = parseImage(image);
  return !ref || (!ref.digest && (ref.tag ?? 'latest') === 'latest');
}
