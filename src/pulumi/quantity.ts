/**
 * Kubernetes resource quantities (`500m`, `1Gi`, `64e6`, `0.5`) as the API server reads and
 * writes them (k8s.io/apimachinery pkg/api/resource/quantity.go `ParseQuantity`,
 * `CanonicalizeBytes`): the value, exact to the nano unit the API server rounds up to, and the
 * canonical text the API server stores and pk's typed scheme normalises inputs to (pk
 * provider/pkg/clients/unstructured.go `Normalize`, a round trip through the typed object).
 * Pure: text in, value out. local-cluster/kubelet/quantity.ts is the simulated kubelet's own
 * reading of the same grammar (test/unit/pulumi/quantity.test.ts holds both to one table).
 */

/** How a quantity was written, which its canonical text keeps: `1Gi`, `1G` or `1e9`. */
export type QuantityFormat = 'DecimalSI' | 'BinarySI' | 'DecimalExponent';

/** A parsed quantity. */
export interface Quantity {
  /** The value in nano units (1 = 10^-9), rounded away from zero as the API server rounds. */
  nanos: bigint;
  format: QuantityFormat;
  /** The text the API server stores for it (`0.5` → `500m`, `1024Mi` → `1Gi`, `64e6` stays). */
  canonical: string;
}

const DECIMAL_SUFFIX: Record<string, number> = { n: -9, u: -6, m: -3, '': 0, k: 3, M: 6, G: 9, T: 12, P: 15, E: 18 };
const BINARY_SUFFIX: Record<string, number> = { Ki: 10, Mi: 20, Gi: 30, Ti: 40, Pi: 50, Ei: 60 };
const DECIMAL_BY_EXPONENT = new Map(Object.entries(DECIMAL_SUFFIX).map(([suffix, exp]) => [exp, suffix]));
const BINARY_BY_POWER = ['', 'Ki', 'Mi', 'Gi', 'Ti', 'Pi', 'Ei'];
/** `<sign><digits>[.<digits>]<suffix>`: `1.`, `.5`, `+1`, `-2` are numbers; `e`/`E` with an integer is an exponent. */
const GRAMMAR = /^([+-]?)(\d*)(?:\.(\d*))?([a-zA-Z]*(?:[+-]?\d+)?)$/;
const INT64_MAX = 2n ** 63n - 1n;

interface Suffix {
  base: 2 | 10;
  exponent: number;
  format: QuantityFormat;
}

function suffixOf(text: string): Suffix | undefined {
  if (text in DECIMAL_SUFFIX) return { base: 10, exponent: DECIMAL_SUFFIX[text]!, format: 'DecimalSI' };
  if (text in BINARY_SUFFIX) return { base: 2, exponent: BINARY_SUFFIX[text]!, format: 'BinarySI' };
  const exp = /^[eE]([+-]?\d+)$/.exec(text);
  return exp ? { base: 10, exponent: Number(exp[1]), format: 'DecimalExponent' } : undefined;
}

/** `whole.fraction × base^exponent` in nano units, rounded up in magnitude. */
function nanosOf(digits: string, fractionDigits: number, s: Suffix): bigint {
  let num = BigInt(digits || '0');
  let den = 10n ** BigInt(fractionDigits);
  if (s.base === 2) num *= 2n ** BigInt(s.exponent);
  else if (s.exponent >= 0) num *= 10n ** BigInt(s.exponent);
  else den *= 10n ** BigInt(-s.exponent);
  num *= 1_000_000_000n;
  return (num + den - 1n) / den;
}

/** Mantissa and a power of ten that is a multiple of 3, no more digits than needed (`1500` → 1500e0, `0.5` → 500e-3). */
function decimalParts(nanos: bigint): { mantissa: bigint; exponent: number } {
  let mantissa = nanos < 0n ? -nanos : nanos;
  let exponent = -9;
  while (mantissa % 10n === 0n) {
    mantissa /= 10n;
    exponent++;
  }
  while (exponent % 3 !== 0) {
    mantissa *= 10n;
    exponent--;
  }
  return { mantissa, exponent };
}

/** The canonical text of a value in a format (apimachinery `CanonicalizeBytes`). */
function canonicalOf(nanos: bigint, format: QuantityFormat): string {
  if (nanos === 0n) return '0';
  const sign = nanos < 0n ? '-' : '';
  const abs = nanos < 0n ? -nanos : nanos;
  if (format === 'BinarySI' && abs >= 1024n * 1_000_000_000n && abs % 1_000_000_000n === 0n) {
    let units = abs / 1_000_000_000n;
    let power = 0;
    while (units % 1024n === 0n && power < BINARY_BY_POWER.length - 1) {
      units /= 1024n;
      power++;
    }
    return `${sign}${units}${BINARY_BY_POWER[power]}`;
  }
  const { mantissa, exponent } = decimalParts(abs);
  const si = format !== 'DecimalExponent' ? DECIMAL_BY_EXPONENT.get(exponent) : undefined;
  const suffix = si ?? (exponent === 0 ? '' : `e${exponent}`);
  return `${sign}${mantissa}${suffix}`;
}

/**
 * Whether the API server keeps the text as written: its parser's fast path returns the input for
 * a value it deems canonical (`64e6`, `12.345`, `+1`), quantity.go `ParseQuantity`.
 */
function keptAsWritten(digits: string, fraction: string, s: Suffix): boolean {
  const shifted = digits + fraction;
  if (s.format === 'BinarySI') {
    const fits = fraction === '' && 15 - digits.length - Math.trunc((s.exponent * 3) / 10) - 1 >= 0;
    return fits && BigInt(digits || '0') << BigInt(s.exponent) <= INT64_MAX && (BigInt(digits || '0') & 7n) !== 0n;
  }
  const scale = s.exponent - fraction.length;
  if (18 - shifted.length < 0 || scale < -9) return false;
  return scale % 3 === 0 && !shifted.endsWith('000') && shifted !== '' && shifted[0] !== '0';
}

/**
 * Parses a quantity as the API server does: decimal SI suffixes (n u m k M G T P E), binary ones
 * (Ki Mi Gi Ti Pi Ei), exponents (`64e6`, `1.5E3`, `1e-3`), a sign, a fraction (`1.5`, `.5`,
 * `1.`). A number is read as its JSON text (`0.5`). Undefined when the API server would refuse it.
 */
export function parseQuantity(written: string | number): Quantity | undefined {
  const text = typeof written === 'number' ? (Number.isFinite(written) ? String(written) : '') : written.trim();
  if (text === '0') return { nanos: 0n, format: 'DecimalSI', canonical: '0' };
  const m = GRAMMAR.exec(text);
  if (!m) return undefined;
  const [, sign, digits = '', fraction = '', suffixText = ''] = m;
  if (digits === '' && fraction === '') return undefined;
  const suffix = suffixOf(suffixText);
  if (!suffix) return undefined;
  const magnitude = nanosOf(digits + fraction, fraction.length, suffix);
  const nanos = sign === '-' ? -magnitude : magnitude;
  // A binary quantity below one is decimal (quantity.go: "this avoids rounding").
  const format = suffix.format === 'BinarySI' && magnitude < 1_000_000_000n ? 'DecimalSI' : suffix.format;
  const canonical = nanos !== 0n && keptAsWritten(digits, fraction, suffix) ? text : canonicalOf(nanos, format);
  return { nanos, format, canonical };
}
