import type { Verdict } from '../core/index.js';

/**
 * Process exit codes of `rollout-trace` (krane's 0 / 1 / 70 plus codes for what is not a rollout
 * outcome). Documented in README.md (CLI quick start) and docs/cli.md; scripts may rely on them.
 */
export const EXIT = {
  /** Every traced rollout succeeded. */
  success: 0,
  /** At least one rollout failed (a failure class fired, the Deployment was deleted, ...). */
  failed: 1,
  /** Bad command line: unknown flag, bad duration, unknown failure class, a flag the kind has no use for... */
  usage: 2,
  /** Could not trace: kubeconfig/context unusable, cluster unreachable, forbidden, workload or namespace not found. */
  cluster: 3,
  /** A bug in rollout-trace (an unexpected exception). */
  internal: 4,
  /** No failure, but at least one rollout did not finish within `--timeout` (krane's 70). */
  timeout: 70,
  /** Interrupted (Ctrl-C / SIGTERM) before every verdict was in. */
  interrupted: 130,
} as const;

/** One of {@link EXIT}'s values. */
export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

/** Failure beats timeout beats interruption beats success (krane's order, plus Ctrl-C). */
export function exitCodeOf(verdicts: Verdict[], interrupted: boolean): ExitCode {
  if (verdicts.some((v) => v.outcome === 'failed')) return EXIT.failed;
  if (verdicts.some((v) => v.outcome === 'timed-out')) return EXIT.timeout;
  if (verdicts.some((v) => v.outcome === 'cancelled') || (interrupted && verdicts.length === 0)) return EXIT.interrupted;
  return EXIT.success;
}
