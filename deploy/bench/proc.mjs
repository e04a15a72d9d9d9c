// What a bench reads of the machine from /proc: a process's resident memory, CPU time by process group, the whole
// machine's busy time.
import fs from 'node:fs';

export function rssKb(pid) {
  try {
    return Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? NaN);
  } catch {
    return NaN;
  }
}

const TICKS_PER_SECOND = 100; // USER_HZ on Linux

/** CPU seconds (user + system) of one process so far. */
export function cpuSecondsOf(pid) {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
}

/** CPU seconds (user + system) of every live process, grouped: the system's apps by name, PostgreSQL, Kafka, the rest. */
export function cpuByGroup(appPids) {
  const groupOfPid = new Map([...appPids].map(([name, pid]) => [pid, name]));
  const totals = {};
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let stat;
    try {
      stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
    } catch {
      continue;
    }
    const comm = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const cpu = (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND; // utime, stime
    const pid = Number(entry);
    const group =
      groupOfPid.get(pid) ?? (comm.startsWith('postgres') ? 'postgresql' : comm === 'java' ? 'kafka (java)' : pid === process.pid ? 'this script' : 'other');
    totals[group] = (totals[group] ?? 0) + cpu;
  }
  return totals;
}

/** Busy and total jiffies of the whole machine. */
export function machineCpu() {
  const [, ...values] = fs.readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/);
  const v = values.map(Number);
  const idle = v[3] + v[4];
  const total = v.slice(0, 8).reduce((a, b) => a + b, 0);
  return { busy: total - idle, total };
}
