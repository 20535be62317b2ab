/** The one duration format of every message and sink (pure). */

/** `850ms`, `12.3s`, `1m05s`, `1h02m`. */
export function formatDuration(ms: number): string {
  if (!Number.isFinite(ms) || ms < 0) ms = 0;
  if (ms < 1000) return `${Math.round(ms)}ms`;
  const s = ms / 1000;
  if (s < 60) return `${s.toFixed(1)}s`;
  const totalSeconds = Math.round(s);
  const m = Math.floor(totalSeconds / 60);
  if (m < 60) return `${m}m${String(totalSeconds % 60).padStart(2, '0')}s`;
  return `${Math.floor(m / 60)}h${String(m % 60).padStart(2, '0')}m`;
}

/**
 * A policy window (a configured length, not a measurement): whole seconds print as `10s`, like
 * the flag that set them; anything else as {@link formatDuration}.
 */
export function formatWindow(ms: number): string {
  if (Number.isFinite(ms) && ms >= 1000 && ms < 60_000 && ms % 1000 === 0) return `${ms / 1000}s`;
  return formatDuration(ms);
}
