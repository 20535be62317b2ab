/**
 * Pulumi's property wire format (sdk: runtime/rpc.js), as the engine and providers see it:
 * secrets, unknowns, output values and resource references are objects tagged with a signature
 * key. The monitor double reads plain values from it and writes secret/unknown values back.
 */

/** The signature key and values of the wire format (sdk: runtime/rpc.js). */
export const SIG = '4dabf18193072939515e22adb298388d';
export const SECRET_SIG = '1b47061264138c4ac30d75fd1eb44270';
export const RESOURCE_SIG = '5cf8f73096256a8f31e491e813e4eb8e';
export const OUTPUT_SIG = 'd0e6a833031e9bbcd3f4e8bde6ca49a4';
export const UNKNOWN = '04da6b54-80e4-46f7-96ec-b56ff0331ba9';

/** A wire value read back: the plain value, and whether it held a secret or an unknown. */
export interface Plain {
  value: any;
  secret: boolean;
  unknown: boolean;
}

/** Strips secret/output-value wrappers (resource references become their URN). */
export function plain(wire: unknown): Plain {
  const out: Plain = { value: undefined, secret: false, unknown: false };
  const walk = (v: unknown): unknown => {
    if (v === UNKNOWN) {
      out.unknown = true;
      return undefined;
    }
    if (Array.isArray(v)) return v.map(walk);
    if (v === null || typeof v !== 'object') return v;
    const o = v as Record<string, unknown>;
    if (o[SIG] === SECRET_SIG) {
      out.secret = true;
      return walk(o.value);
    }
    if (o[SIG] === OUTPUT_SIG) {
      if (o.secret) out.secret = true;
      if (!('value' in o)) out.unknown = true;
      return walk(o.value);
    }
    if (o[SIG] === RESOURCE_SIG) return o.urn;
    const copy: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(o)) {
      const w = walk(x);
      if (w !== undefined) copy[k] = w;
    }
    return copy;
  };
  out.value = walk(wire);
  return out;
}

/** True when the wire value (or anything inside it) is unknown. */
export function hasUnknown(wire: unknown): boolean {
  return plain(wire).unknown;
}

/** Wraps a value as a secret on the wire. */
export function secretWire(value: unknown): unknown {
  return { [SIG]: SECRET_SIG, value };
}

/** A resource reference on the wire (what a provider returns for a child it registered). */
export function resourceRef(urn: string, id?: string): unknown {
  return { [SIG]: RESOURCE_SIG, urn, ...(id !== undefined ? { id } : {}) };
}
