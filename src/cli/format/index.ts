import type { Formatter } from './context';
import { github } from './github';
import { gitlab } from './gitlab';
import { json } from './json';
import { junit } from './junit';
import { sarif } from './sarif';
import { stylish } from './stylish';

export const FORMATTERS: Readonly<Record<string, Formatter>> = { stylish, json, sarif, github, junit, gitlab };
export const FORMAT_NAMES = Object.keys(FORMATTERS);
export type { FormatContext, Formatter } from './context';
