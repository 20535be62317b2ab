/** Entry point of the `rollout-trace` command (see bin/rollout-trace.js). */
import { runCli } from './run.js';

// `rollout-trace ... | head`, or a terminal that went away (EPIPE, EIO): the sink stops writing and
// tracking goes on, so the exit code is still the verdict's (a CI step must not pass or fail on it).
process.stdout.on('error', (err: NodeJS.ErrnoException) => {
  if (err.code === 'EPIPE' || err.code === 'EIO') return;
  throw err;
});

const code = await runCli(process.argv.slice(2));
// Set the code and let stdout drain (pipes are asynchronous) instead of exiting at once...
process.exitCode = code;
// ...but never linger: if some handle is still open a moment later, leave anyway.
setTimeout(() => process.exit(code), 1500).unref();
