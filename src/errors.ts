/**
 * One error type for everything a user can get wrong or a cluster can refuse. Its message is one
 * paragraph that names the bad value and what would be valid; callers print `message` only
 * (never a stack trace).
 */
export type RolloutTraceErrorCode =
  | 'bad-input'
  | 'workload-not-found'
  | 'namespace-not-found'
  | 'cluster-unreachable'
  | 'forbidden'
  | 'kubeconfig';

/** A user-facing error with a stable {@link RolloutTraceErrorCode}. */
export class RolloutTraceError extends Error {
  /** Stable machine-readable code. */
  readonly code: RolloutTraceErrorCode;

  constructor(code: RolloutTraceErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'RolloutTraceError';
    this.code = code;
  }
}

/** True when `err` is a {@link RolloutTraceError}. */
export function isRolloutTraceError(err: unknown): err is RolloutTraceError {
  return err instanceof RolloutTraceError;
}
