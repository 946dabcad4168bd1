// Preloaded into a measured child (`node --require bench/maxrss.cjs ...`): on exit it writes the
// process's resident-set high-water mark (KB) where LITMUS_BENCH_RSS_OUT says.
const out = process.env.LITMUS_BENCH_RSS_OUT;
if (out) {
  process.on('exit', () => {
    require('node:fs').writeFileSync(out, String(process.resourceUsage().maxRSS));
  });
}
