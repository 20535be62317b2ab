/**
 * Image pull errors: permanent (the image cannot exist or cannot be accessed) vs transient
 * (network, registry throttling). krane learned that failing on every ImagePullBackOff breaks
 * healthy deploys at scale (krane PR #477), so only permanent errors fail fast.
 */

/** Reasons the kubelet uses for image pull problems. */
export const PULL_REASONS = new Set(['ErrImagePull', 'ImagePullBackOff', 'InvalidImageName', 'ErrImageNeverPull', 'RegistryUnavailable']);

const PERMANENT = [
  /not found/i,
  /manifest unknown/i,
  /pull access denied/i,
  /unauthorized/i,
  /authentication required/i,
  /repository does not exist/i,
  /invalid reference format/i,
  /denied:/i,
  /forbidden/i,
];
const TRANSIENT = [
  /timeout/i,
  /timed out/i,
  /i\/o timeout/i,
  /dial tcp/i,
  /lookup /i,
  /no such host/i,
  /connection refused/i,
  /connection reset/i,
  /\b429\b/,
  /toomanyrequests/i,
  /too many requests/i,
  /TLS handshake/i,
  /\b50[234]\b/,
  /service unavailable/i,
  /EOF/,
  /temporary failure/i,
];

/** Classification of one pull message. */
export type PullKind = 'permanent' | 'transient' | 'unknown';

/** Classifies a kubelet pull message (container waiting message or `Failed` event). */
export function classifyPull(reason: string, message: string): PullKind {
  if (reason === 'InvalidImageName' || reason === 'ErrImageNeverPull') return 'permanent';
  // Transient patterns first: "dial tcp: lookup registry.invalid: no such host" is a network error.
  if (TRANSIENT.some((re) => re.test(message)) && !/manifest unknown|not found: manifest|pull access denied/i.test(message)) {
    return 'transient';
  }
  if (PERMANENT.some((re) => re.test(message))) return 'permanent';
  return 'unknown';
}

/** Plain-words explanation of a pull problem. */
export function explainPull(image: string, kind: PullKind, message: string, reason: string): string {
  if (reason === 'InvalidImageName') return `image reference "${image}" is not a valid image name`;
  if (reason === 'ErrImageNeverPull') return `image "${image}" is not present on the node and imagePullPolicy is Never`;
  if (kind === 'permanent') {
    if (/pull access denied|repository does not exist|unauthorized|authentication required|denied:|forbidden/i.test(message)) {
      return `image "${image}" cannot be pulled: the repository does not exist or needs credentials (imagePullSecrets)`;
    }
    return `image "${image}" not found`;
  }
  if (kind === 'transient') return `image "${image}" cannot be pulled right now (registry or network error); the kubelet keeps retrying`;
  return `image "${image}" cannot be pulled`;
}
