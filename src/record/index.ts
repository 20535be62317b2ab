/** Recordings: the format `--record` writes and `rollout-trace replay` reads, and the writer. */
export {
  parseRecording,
  RECORDING_FORMAT,
  RECORDING_VERSION,
  type RecordedItem,
  type RecordedTrace,
  type Recording,
  RecordingError,
  type RecordingHeader,
  scrubObservation,
} from './format.js';
export { recordingsFlushed, recordTrace, type TraceRecorder } from './recorder.js';
