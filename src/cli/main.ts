/** Entry point of the `rollout-trace` command (see bin/rollout-trace.js). */
import nodeModule from 'node:module';
import v8 from 'node:v8';
import { runCli } from './run.js';

// bin/rollout-trace.js sets two V8 flags (the young generation's size, TurboFan's inlining budget:
// see there). Set again here: starting a worker thread puts V8's flags back to their defaults, and
// a development checkout that runs this source through tsx starts one (its module hooks) after
// bin/rollout-trace.js set them.
v8.setFlagsFromString('--semi-space-growth-factor=1 --max-inlined-bytecode-size-cumulative=460');

// V8 caches the code it compiled for the modules loaded from here on (client-node, the tracker:
// loaded lazily by runCli) in the OS temp folder, so a second run skips compiling them (Node's
// compile cache; NODE_COMPILE_CACHE moves it, NODE_DISABLE_COMPILE_CACHE=1 turns it off).
try {
  nodeModule.enableCompileCache?.();
} catch {
  // an old Node or an unwritable temp folder: run without the cache
}

// `rollout-trace ... | head`, or a terminal that went away (EPIPE, EIO): the sink stops writing and
// tracking goes on, so the exit code is still the verdict's (a CI step must not pass or fail on it).
process.stdout.on('error', (err: NodeJS.ErrnoException) => {
  if (err.code === 'EPIPE' || err.code === 'EIO') return;
  throw err;
});

const code = await runCli(process.argv.slice(2));
// Node writes the compile cache when the process ends on its own, not on process.exit(): write
// what this run compiled now (the first run after an install or a build), so later runs load it.
try {
  nodeModule.flushCompileCache?.();
} catch {
  // an unwritable cache folder: the next run compiles again
}
// Exit as soon as what was written reached stdout and stderr (pipes are asynchronous), without
// waiting for sockets and timers to wind down; never linger more than a moment.
process.exitCode = code;
let drained = 0;
const leave = () => {
  if (++drained === 2) process.exit(code);
};
process.stdout.write('', leave);
process.stderr.write('', leave);
setTimeout(() => process.exit(code), 1500).unref();
