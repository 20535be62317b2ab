/** The process facilities the CLI uses: the real process, or a test's streams and environment. */

/** The process facilities the CLI uses (injectable for tests). */
export interface CliIo {
  stdout: NodeJS.WritableStream & { isTTY?: boolean };
  stderr: NodeJS.WritableStream;
  env: Record<string, string | undefined>;
  /** Registers an interrupt handler (SIGINT/SIGTERM); returns its removal. */
  onInterrupt(handler: () => void): () => void;
}

/** The real process. */
export function processIo(): CliIo {
  return {
    stdout: process.stdout,
    stderr: process.stderr,
    env: process.env,
    onInterrupt(handler) {
      process.on('SIGINT', handler);
      process.on('SIGTERM', handler);
      return () => {
        process.off('SIGINT', handler);
        process.off('SIGTERM', handler);
      };
    },
  };
}
