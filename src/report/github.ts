/**
 * GitHub Actions workflow commands: `::group::` folding and `::error` annotations.
 * https://docs.github.com/actions/reference/workflow-commands-for-github-actions
 */

/** True when running inside a GitHub Actions job. */
export function isGitHubActions(env: Record<string, string | undefined>): boolean {
  return env.GITHUB_ACTIONS === 'true';
}

/** Escapes a command's message (data) part. */
export function escapeData(s: string): string {
  return s.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

/** Escapes a command property value (e.g. `title`). */
export function escapeProperty(s: string): string {
  return escapeData(s).replace(/:/g, '%3A').replace(/,/g, '%2C');
}

/** `::error title=...::message` */
export function errorAnnotation(title: string, message: string): string {
  return `::error title=${escapeProperty(title)}::${escapeData(message)}`;
}

/** `::group::title` */
export function groupStart(title: string): string {
  return `::group::${escapeData(title)}`;
}

/** `::endgroup::` */
export const GROUP_END = '::endgroup::';

/**
 * Applied by the plain sink to each line of cluster-derived output (cluster strings are escaped
 * already; this also covers the lines they are placed in); our own commands are added after it.
 */
export { escapeCommandLine } from '../core/index.js';
