// Preloaded into a measured child (`node --require bench/maxrss.cjs ...`): on exit it writes the
// process's resident-set high-water mark (KB) and its CPU time (µs) where LITMUS_BENCH_RSS_OUT says.
const out = process.env.LITMUS_BENCH_RSS_OUT;
if (out) {
  process.on('exit', () => {
    const u = process.resourceUsage();
    require('node:fs').writeFileSync(out, JSON.stringify({ maxRSS: u.maxRSS, user: u.userCPUTime, system: u.systemCPUTime }));
  });
}
