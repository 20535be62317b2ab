/**
 * The `rollout-trace` command line, as functions (for embedding and tests).
 * @module
 */
export { runCli, processIo, exitCodeOf, type CliIo } from './run.js';
export { parseCli, UsageError, type CliOptions, type ParsedArgs } from './args.js';
export { parseDuration } from './duration.js';
export { EXIT, type ExitCode } from './exit-codes.js';
export { helpText } from './help.js';
