import type { Formatter } from './context';
import { github } from './github';
import { json } from './json';
import { sarif } from './sarif';
import { stylish } from './stylish';

export const FORMATTERS: Readonly<Record<string, Formatter>> = { stylish, json, sarif, github };
export const FORMAT_NAMES = Object.keys(FORMATTERS);
export type { FormatContext, Formatter } from './context';
