import type * as Crypto from 'node:crypto';

/**
 * `node:crypto` is loaded on the first hash rather than at start: loading it is ~5 ms of every run,
 * and most runs (the json and stylish formats, no `--cache`, no baseline) never hash.
 */
let crypto: typeof Crypto | undefined;
// A plain `require` at the call: esbuild leaves a built-in module's require where it stands.
const load = (): typeof Crypto => (crypto ??= require('node:crypto') as typeof Crypto);

/** The SHA-256 of `text` (as UTF-8), in hex. */
export function sha256(text: string): string {
  return load().createHash('sha256').update(text).digest('hex');
}

/** `bytes` random bytes, in hex. */
export function randomHex(bytes: number): string {
  return load().randomBytes(bytes).toString('hex');
}
