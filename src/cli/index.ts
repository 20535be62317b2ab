/**
 * The `rollout-trace` command line, as functions (for embedding and tests).
 * @module
 */

export { type CliOptions, type ParsedArgs, parseCli, UsageError } from './args.js';
export { parseDuration } from './duration.js';
export { EXIT, type ExitCode } from './exit-codes.js';
export { helpText } from './help.js';
export { type CliIo, exitCodeOf, processIo, runCli } from './run.js';
