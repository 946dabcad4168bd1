// Bundled into dist/cli.js by esbuild, so the installed CLI needs no package.json at run time.
import pkg from '../../package.json';

export const TOOL_NAME = 'litmus-lint';
export const TOOL_VERSION: string = pkg.version;
export const INFORMATION_URI = 'https://github.com/litmus-lint/litmus-lint';
