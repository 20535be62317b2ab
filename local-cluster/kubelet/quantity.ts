/**
 * Kubernetes quantities as plain numbers, for node capacity and pod requests: every form the API
 * server accepts and stores (k8s.io/apimachinery pkg/api/resource/quantity.go): decimal SI
 * suffixes (n u m k M G T P E), binary ones (Ki Mi Gi Ti Pi Ei), exponents (`64e6`, `1.5E3`), a
 * sign and a fraction (`0.5`, `.5`, `1.`). The product reads quantities with
 * src/pulumi/quantity.ts; this is the simulated kubelet's own reading (local-cluster never imports
 * src), held to the same table by test/unit/pulumi/quantity.test.ts.
 */

const FACTOR: Record<string, number> = {
  n: 1e-9,
  u: 1e-6,
  m: 1e-3,
  '': 1,
  k: 1e3,
  M: 1e6,
  G: 1e9,
  T: 1e12,
  P: 1e15,
  E: 1e18,
  Ki: 2 ** 10,
  Mi: 2 ** 20,
  Gi: 2 ** 30,
  Ti: 2 ** 40,
  Pi: 2 ** 50,
  Ei: 2 ** 60,
};

/** Sign, number (`1`, `1.5`, `1.`, `.5`), then an exponent (`e6`, `E-3`) or a suffix (`E` alone is exa). */
const QUANTITY = /^([+-]?(?:\d+\.?\d*|\.\d+))(?:[eE]([+-]?\d+)|([a-zA-Z]*))$/;

/** Parses a quantity like `8Gi`, `500m`, `4`, `64e6`, `0.5` into its plain value (bytes or cores). */
export function parseQuantity(q: string): number {
  const m = QUANTITY.exec(q.trim());
  if (!m) throw new Error(`invalid quantity "${q}": expected e.g. "4", "0.5", "500m", "8Gi", "64e6"`);
  const [, number = '', exponent, suffix = ''] = m;
  if (exponent !== undefined) return Number(`${number}e${exponent}`);
  const factor = FACTOR[suffix];
  if (factor === undefined)
    throw new Error(`invalid quantity suffix in "${q}": use n, u, m, k, M, G, T, P, E, Ki, Mi, Gi, Ti, Pi, Ei or an exponent (e6)`);
  return Number(number) * factor;
}

/** Bytes as the kubelet reports memory (`8388608Ki`). */
export function toKi(bytes: number): string {
  return `${Math.floor(bytes / 1024)}Ki`;
}

/** Cores as a quantity (`4`, `3500m`). */
export function toCpu(cores: number): string {
  return Number.isInteger(cores) ? String(cores) : `${Math.round(cores * 1000)}m`;
}
