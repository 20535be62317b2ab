/**
 * managedFields cut out of the apiserver's JSON text before it is parsed. Nothing here reads them,
 * and they are about a third of a pod's JSON (1.4 of 3.8 KB for a running pod): parsing them and
 * then deleting them (which also turns `metadata` into a slow dictionary-mode object) was part of
 * every watch event's cost.
 *
 * Why a text search is exact here. The apiserver writes ObjectMeta's fields in their Go order, so
 * `managedFields` is metadata's last field and never its first. Its entries hold strings and
 * `fieldsV1` (objects of objects): no array, so the first `]` outside a string after it closes it.
 * A quote inside a JSON string is escaped, so neither `,"managedFields":[` nor `]},"key":` can lie
 * inside a string (a string's closing quote is never followed by a letter). Anything else (no
 * match, an unexpected shape) is left as it is; stripManagedFields (kind-cache.ts) still drops
 * what a text cut left.
 */

const START = ',"managedFields":[';
/** What follows the closing `]`: the end of metadata and the next key (`},"spec":`, `},"involvedObject":`). */
const AFTER_END = /\},"[A-Za-z]+":/y;

/**
 * `json` (a watch line or a list body) without the `managedFields` of any object's metadata; the
 * same text when there are none, or when one does not have the shape described above.
 */
export function withoutManagedFields(json: string): string {
  let start = json.indexOf(START);
  if (start < 0) return json;
  let out = '';
  let kept = 0;
  while (start >= 0) {
    const close = json.indexOf(']', start + START.length);
    if (close < 0) break;
    AFTER_END.lastIndex = close + 1;
    if (AFTER_END.test(json)) {
      out += json.slice(kept, start);
      kept = close + 1;
    }
    start = json.indexOf(START, close + 1);
  }
  return kept === 0 ? json : out + json.slice(kept);
}

/**
 * `JSON.parse` of `json` without its managedFields ({@link withoutManagedFields}). Should the cut
 * text not parse (a shape this module does not expect), the whole text is parsed instead.
 */
export function parseWithoutManagedFields(json: string): unknown {
  const cut = withoutManagedFields(json);
  if (cut !== json) {
    try {
      return JSON.parse(cut);
    } catch {}
  }
  return JSON.parse(json);
}
