/**
 * Numbers compared as the decimals written (FORMAT §7): 0.72 − 0.70 against a limit of 0.02 is
 * exactly 0.02 and passes, where doubles would make it 0.020000000000000018 and fail. A decimal is
 * an integer times a power of ten, so differences and comparisons are exact in BigInt arithmetic.
 */
export interface Decimal {
  units: bigint;
  /** value = units × 10^exp */
  exp: number;
}

/** Exponents beyond this are no score or tolerance anyone writes; they compare as doubles. */
const MAX_EXP = 400;

const DECIMAL = /^(-?)(\d+)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/;

/** The decimal a JSON number token (or a number's shortest text) spells, or undefined. */
export function parseDecimal(text: string): Decimal | undefined {
  const m = DECIMAL.exec(text.trim());
  if (!m) return undefined;
  const frac = m[3] ?? '';
  const exp = Number(m[4] ?? '0') - frac.length;
  if (!Number.isFinite(exp) || Math.abs(exp) > MAX_EXP) return undefined;
  const units = BigInt(m[2] + frac);
  return { units: m[1] ? -units : units, exp };
}

/** The decimal of a number value: its shortest round-trip text, which is what was written for any ordinary literal. */
export function decimalOfNumber(n: number): Decimal | undefined {
  return Number.isFinite(n) ? parseDecimal(String(n)) : undefined;
}

function aligned(a: Decimal, b: Decimal): [bigint, bigint] {
  const exp = Math.min(a.exp, b.exp);
  return [a.units * 10n ** BigInt(a.exp - exp), b.units * 10n ** BigInt(b.exp - exp)];
}

export function compareDecimals(a: Decimal, b: Decimal): number {
  const [x, y] = aligned(a, b);
  return x < y ? -1 : x > y ? 1 : 0;
}

export function subtract(a: Decimal, b: Decimal): Decimal {
  const [x, y] = aligned(a, b);
  return { units: x - y, exp: Math.min(a.exp, b.exp) };
}

export function abs(a: Decimal): Decimal {
  return a.units < 0n ? { units: -a.units, exp: a.exp } : a;
}

/** The decimal's shortest text, for messages (`0.05`, not `5e-2`). */
export function formatDecimal(d: Decimal): string {
  const neg = d.units < 0n;
  let digits = (neg ? -d.units : d.units).toString();
  let exp = d.exp;
  while (exp < 0 && digits.length > 1 && digits.endsWith('0')) {
    digits = digits.slice(0, -1);
    exp++;
  }
  let out: string;
  // Far from 1 (1e-300 is a valid rate), or more digits than anyone writes: scientific, so a
  // message stays short.
  if (exp > 12 || digits.length + exp < -12 || digits.length > 24) {
    const e = digits.length - 1 + exp;
    const mantissa = digits.length > 1 ? `${digits[0]}.${digits.slice(1, 17)}` : digits;
    return `${neg ? '-' : ''}${mantissa}e${e < 0 ? '' : '+'}${e}`;
  }
  if (exp >= 0) out = digits === '0' ? '0' : digits + '0'.repeat(exp);
  else {
    const point = digits.length + exp;
    out = point > 0 ? `${digits.slice(0, point)}.${digits.slice(point)}` : `0.${'0'.repeat(-point)}${digits}`;
  }
  return neg && out !== '0' ? `-${out}` : out;
}
