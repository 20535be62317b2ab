/** A run's recording (the `record` option) replayed with no cluster: its exit code and verdicts. */
import { recordingsFlushed } from '../../../src/record/index.js';
import { runCliInProcess } from '../../integration/cli/run-cli.js';

/**
 * Waits (bounded) until the process's recordings are on disk, replays `file` with `-o json`, and
 * returns the exit code, stderr and each verdict as `name outcome`, sorted.
 */
export async function replayedVerdicts(file: string): Promise<{ code: number | null; stderr: string; verdicts: string[] }> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${file} not flushed within 10 s`)), 10_000);
  });
  await Promise.race([recordingsFlushed(), late]).finally(() => clearTimeout(timer));
  const replay = await runCliInProcess(['replay', file, '-o', 'json']);
  const verdicts = replay.stdout
    .trim()
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l))
    .filter((e) => e.type === 'verdict')
    .map((e) => `${e.verdict.workload.name} ${e.verdict.outcome}`)
    .sort();
  return { code: replay.code, stderr: replay.stderr, verdicts };
}
