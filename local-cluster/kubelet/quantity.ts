/** Minimal Kubernetes quantity handling for node capacity (only what the simulated kubelet needs). */

const BINARY: Record<string, number> = { Ki: 2 ** 10, Mi: 2 ** 20, Gi: 2 ** 30, Ti: 2 ** 40 };
const DECIMAL: Record<string, number> = { '': 1, k: 1e3, M: 1e6, G: 1e9, T: 1e12, m: 1e-3 };

/** Parses a quantity like `8Gi`, `500m`, `4` into its plain value (bytes or cores). */
export function parseQuantity(q: string): number {
  const m = /^([0-9.]+)([a-zA-Z]*)$/.exec(q.trim());
  if (!m) throw new Error(`invalid quantity "${q}": expected e.g. "4", "500m", "8Gi"`);
  const factor = BINARY[m[2]] ?? DECIMAL[m[2]];
  if (factor === undefined) throw new Error(`invalid quantity suffix in "${q}": use Ki, Mi, Gi, Ti, k, M, G, T or m`);
  return Number(m[1]) * factor;
}

/** Bytes as the kubelet reports memory (`8388608Ki`). */
export function toKi(bytes: number): string {
  return `${Math.floor(bytes / 1024)}Ki`;
}

/** Cores as a quantity (`4`, `3500m`). */
export function toCpu(cores: number): string {
  return Number.isInteger(cores) ? String(cores) : `${Math.round(cores * 1000)}m`;
}
