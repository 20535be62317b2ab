/**
 * Child process for the Ctrl-C scenario: a gated rollout that never finishes on its own (the
 * missing-image failure is set to fail only after 10 minutes). Prints `TRACING` once the trace is
 * streaming lines, then waits to be interrupted; every log line the engine receives is printed as
 * `LOG <severity> <message>` (stdout to a pipe is synchronous, so nothing is lost at the signal).
 */

import { nginxArgs } from './fixtures.js';
import { runProgram } from './program.js';

const namespace = process.argv[2]!;
let tracing = false;
await runProgram({
  onLog: (r) => {
    process.stdout.write(`LOG ${r.severity} ${r.message.replace(/\n/g, ' ')}\n`);
    // A pod line comes from the running tracker: its Ctrl-C handling is installed by then.
    if (!tracing && /^pod \S+ \(revision \d+\): /.test(r.message)) {
      tracing = true;
      process.stdout.write('TRACING\n');
    }
  },
  program: async () => {
    const lib = await import('../../../src/pulumi/index.js');
    lib.gatedDeployment(
      'web',
      nginxArgs(namespace, 'nginx:1.99-does-not-exist', 1, 'web'),
      {},
      {
        policy: { classes: { 'image-pull-not-found': { afterSeconds: 600 } } },
      },
    );
  },
});
process.stdout.write('PROGRAM-ENDED\n');
