/**
 * Output sinks: the same {@link RolloutEvent} stream rendered as a live terminal tree (ora), an
 * append-only CI log, JSON lines, or collected in memory; plus {@link formatVerdict}, the final
 * summary they all print.
 * @module
 */
import type { RolloutEvent } from '../core/index.js';
import { type Sink, type SinkOptions, sinkChoice } from './sink.js';
import { sinkFor } from './sink-factory.js';
import { TtySink } from './tty-sink.js';

export { workloadKey, workloadOf } from '../core/index.js';
export { junitReport, markdownSummary } from './ci-summary.js';
export { describeEvent, type EventLine } from './describe-event.js';
export { formatDuration } from './format-time.js';
export { deploymentKey, type FormatVerdictOptions, formatVerdict, outcomeLabel } from './format-verdict.js';
export { htmlReport } from './html-report.js';
export { JSON_SCHEMA_VERSION, type JsonLine, JsonSink, toJsonLine } from './json-sink.js';
export { LinePicker } from './line-picker.js';
export { MemorySink } from './memory-sink.js';
export { PlainSink } from './plain-sink.js';
export { assertSucceeded, isRolloutFailedError, RolloutFailedError, type RolloutFailure, rolloutFailureOf } from './rollout-failed.js';
export { type OutputFormat, resolveOutput, type Sink, type SinkOptions, type SinkTimers } from './sink.js';
export { TtySink } from './tty-sink.js';

/** Creates the sink for an output format (default `auto`), writing to `stream` (default stdout). */
export function createSink(options: SinkOptions = {}): Sink {
  const { format, options: resolved } = sinkChoice(options);
  return sinkFor(format, resolved, TtySink);
}

/** Writes every event of `events` to `sink`, then closes it. */
export async function pipeToSink(events: AsyncIterable<RolloutEvent>, sink: Sink): Promise<void> {
  try {
    for await (const e of events) sink.write(e);
  } finally {
    await sink.close();
  }
}
