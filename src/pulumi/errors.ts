/**
 * The one-paragraph text of a failure for Pulumi log lines and the `summary` output. client-node's
 * ApiException message spans lines (HTTP-Code, Message, Body, Headers): users get the status and
 * the apiserver's own message instead.
 */

import { describeFailure } from '../cluster/index.js';
import { isRolloutTraceError } from '../errors.js';

/** One paragraph describing `err`, never a stack trace, never response headers. */
export function userMessage(err: unknown): string {
  const text = isRolloutTraceError(err) ? err.message : describeFailure(err);
  return text.replace(/\s*\n\s*/g, ' ').trim();
}
