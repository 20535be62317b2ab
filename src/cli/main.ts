/** Entry point of the `rollout-trace` command (see bin/rollout-trace.js). */
import { runCli } from './run.js';

const code = await runCli(process.argv.slice(2));
// Set the code and let stdout drain (pipes are asynchronous) instead of exiting at once...
process.exitCode = code;
// ...but never linger: if some handle is still open a moment later, leave anyway.
setTimeout(() => process.exit(code), 1500).unref();
