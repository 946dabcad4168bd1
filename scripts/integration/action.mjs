// The GitHub Action as a workflow runs it at a tag: its checkout (github.action_path) holds the
// sources only, so its install step builds the linter there (npm ci, npm run build) and the lint
// step runs that build. The steps run as a runner runs them (bash, ${{ }} filled in), on a copy of
// examples/ in a workspace of their own. setup-node and upload-sarif are `uses:` steps: not run.
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { createLayer, ROOT, run, snapshotCheckout } from './common.mjs';

const layer = createLayer('action');
const { tmp, check } = layer;
const actionPath = join(tmp, 'action');
snapshotCheckout(actionPath);
const action = parse(readFileSync(join(actionPath, 'action.yml'), 'utf8'));
const work = join(tmp, 'workspace');
mkdirSync(work);
cpSync(join(ROOT, 'examples'), join(work, 'suites'), { recursive: true });

const inputs = { paths: 'suites', format: 'github', 'fail-severity': 'error' };
const env = { ...process.env, npm_config_prefer_offline: 'true' };
const outputs = {};
const expand = (text) =>
  text.replace(/\$\{\{\s*([^}]+?)\s*\}\}/g, (_, expr) => {
    if (expr === 'github.action_path') return actionPath;
    const i = /^inputs\.([\w-]+)$/.exec(expr);
    if (i) return inputs[i[1]] ?? action.inputs[i[1]]?.default ?? '';
    const o = /^steps\.([\w-]+)\.outputs\.([\w-]+)$/.exec(expr);
    if (o) return outputs[o[1]]?.[o[2]] ?? '';
    throw new Error(`unexpected expression ${expr}`);
  });
const keyValues = (path) => (existsSync(path) ? Object.fromEntries(readFileSync(path, 'utf8').split('\n').filter(Boolean).map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)])) : {});

function runStep(id) {
  const step = action.runs.steps.find((s) => s.id === id);
  const files = mkdtempSync(join(tmp, 'runner-'));
  const stepEnv = { ...env, GITHUB_OUTPUT: join(files, 'output'), GITHUB_ENV: join(files, 'env') };
  for (const [k, v] of Object.entries(step.env ?? {})) stepEnv[k] = expand(v);
  const r = run('bash', ['--noprofile', '--norc', '-eo', 'pipefail', '-c', expand(step.run)], { cwd: work, env: stepEnv, timeout: 900_000 });
  outputs[id] = keyValues(join(files, 'output'));
  Object.assign(env, keyValues(join(files, 'env')));
  return r;
}

check('the checkout of a tag holds no build', !existsSync(join(actionPath, 'dist')) && !existsSync(join(actionPath, 'node_modules')));
const install = runStep('install');
check('the install step builds the linter in the action\'s own checkout', install.status === 0 && existsSync(join(actionPath, 'dist/cli.js')) && env.LITMUS_CLI === join(actionPath, 'dist/cli.js'), install.out);
const lint = runStep('lint');
check('the lint step runs that build: annotations on the suite, and the step fails on its errors', lint.status === 1 && /^::error file=suites\/cases\/mail\.litmus\.json,line=\d+/m.test(lint.out), lint.out);
check('the exit-code output is set', outputs.lint?.['exit-code'] === '1', JSON.stringify(outputs));
layer.finish();
