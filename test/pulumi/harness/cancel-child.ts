/**
 * Child process for the cancel scenarios: a gated rollout that never finishes on its own (the
 * missing-image failure is set to fail only after 10 minutes), run through the SDK's language
 * server against the engine double. Prints `TRACING` once the trace is streaming lines, then waits
 * to be cancelled; every log line the engine receives is printed as `LOG <severity> [permanent] <message>`
 * (stdout to a pipe is synchronous, so nothing is lost at the signal).
 *
 * `node cancel-child.ts <namespace> [app]`: with `app`, the process is an Automation API app
 * with its own SIGINT handler (it prints `APP-SIGINT`), and prints `RUN-ENDED` when the run
 * returns.
 */

import { nginxArgs } from './fixtures.js';
import { runProgram } from './program.js';

const namespace = process.argv[2]!;
const app = process.argv[3] === 'app';
if (app) process.on('SIGINT', () => process.stdout.write('APP-SIGINT\n'));
let tracing = false;
const run = await runProgram({
  onLog: (r) => {
    process.stdout.write(`LOG ${r.severity}${r.ephemeral ? '' : ' permanent'} ${r.message.replace(/\n/g, ' ')}\n`);
    // A pod line comes from the running tracker: its signal handling is installed by then.
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
process.stdout.write(`RUN-ENDED ${JSON.stringify(run.runError.slice(0, 200))}\n`);
