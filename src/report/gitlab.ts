/**
 * GitLab CI collapsible job-log sections.
 * https://docs.gitlab.com/ci/jobs/job_logs/#custom-collapsible-sections
 *
 *     \e[0Ksection_start:<unix seconds>:<name>[collapsed=true]\r\e[0K<header>
 *     ...folded lines...
 *     \e[0Ksection_end:<unix seconds>:<name>\r\e[0K
 *
 * The `\r\e[0K` after the marker erases it on a terminal, so the raw log still reads cleanly.
 */

const ERASE_LINE = '\u001b[0K';

/** True when running inside a GitLab CI job. */
export function isGitLabCi(env: Record<string, string | undefined>): boolean {
  return env.GITLAB_CI === 'true';
}

/** A section name GitLab accepts: only `[a-zA-Z0-9_.-]` (anything else is replaced by `_`). */
export function sectionName(text: string): string {
  return text.replace(/[^a-zA-Z0-9_.-]/g, '_');
}

/** The line opening a section (folded by default when `collapsed`), with `header` shown on it. */
export function sectionStart(name: string, header: string, atMs: number, collapsed = true): string {
  const options = collapsed ? '[collapsed=true]' : '';
  return `${ERASE_LINE}section_start:${unixSeconds(atMs)}:${sectionName(name)}${options}\r${ERASE_LINE}${header}`;
}

/** The line closing the section `name`. */
export function sectionEnd(name: string, atMs: number): string {
  return `${ERASE_LINE}section_end:${unixSeconds(atMs)}:${sectionName(name)}\r${ERASE_LINE}`;
}

function unixSeconds(ms: number): number {
  return Math.floor(ms / 1000);
}
