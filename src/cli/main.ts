/** Entry point of the `rollout-trace` command (see bin/rollout-trace.js). */
import { runCli } from './run.js';

// `rollout-trace ... | head`: the reader left; stop quietly like other Unix tools (128 + SIGPIPE).
process.stdout.on('error', (err: NodeJS.ErrnoException) => {
  if (err.code === 'EPIPE') process.exit(141);
  throw err;
});

const code = await runCli(process.argv.slice(2));
// Set the code and let stdout drain (pipes are asynchronous) instead of exiting at once...
process.exitCode = code;
// ...but never linger: if some handle is still open a moment later, leave anyway.
setTimeout(() => process.exit(code), 1500).unref();
