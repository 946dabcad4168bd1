// Preloaded into a measured child (`node --require bench/maxrss.cjs ...`): on exit it writes the
// process's resident-set high-water mark (KB), its CPU time (µs, user and system) and its minor page
// faults where LITMUS_BENCH_RSS_OUT says. Each fault is a page the process touched for the first
// time; on a virtual machine each costs microseconds of system time, so they explain much of the
// gap between a run that keeps what it reads and the floor, which keeps nothing.
const out = process.env.LITMUS_BENCH_RSS_OUT;
if (out) {
  process.on('exit', () => {
    const u = process.resourceUsage();
    require('node:fs').writeFileSync(out, JSON.stringify({ maxRSS: u.maxRSS, user: u.userCPUTime, system: u.systemCPUTime, faults: u.minorPageFault }));
  });
}
