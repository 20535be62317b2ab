/**
 * Child process for the Ctrl-C scenario: a gated rollout that never finishes on its own (the
 * missing-image failure is set to fail only after 10 minutes). Prints `TRACING` once the trace is
 * streaming lines, then waits to be interrupted; every log line the engine receives is printed as
 * `LOG <severity> <message>` (stdout to a pipe is synchronous, so nothing is lost at the signal).
 */
import { runProgram } from './program.js';
import { nginxArgs } from './fixtures.js';

const namespace = process.argv[2]!;
await runProgram({
  onLog: (r) => process.stdout.write(`LOG ${r.severity} ${r.message.replace(/\n/g, ' ')}\n`),
  program: async () => {
    const lib = await import('../../../src/pulumi/index.js');
    const { trace } = lib.gatedDeployment('web', nginxArgs(namespace, 'nginx:1.99-does-not-exist', 1, 'web'), {}, {
      policy: { classes: { 'image-pull-not-found': { afterSeconds: 600 } } },
    });
    trace.urn.apply(() => setTimeout(() => process.stdout.write('TRACING\n'), 3000));
  },
});
process.stdout.write('PROGRAM-ENDED\n');
