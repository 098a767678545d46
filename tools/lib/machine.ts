/** One line naming the machine a figure was measured on. */
import { cpus, loadavg, totalmem } from 'node:os';

export function machine(): string {
  const cpu = cpus()[0]?.model.replace(/\s+/g, ' ').trim() ?? 'unknown CPU';
  return `${cpus().length} cores (${cpu}), ${Math.round(totalmem() / 2 ** 30)} GB, Node ${process.versions.node}, load average ${loadavg()[0]!.toFixed(1)}`;
}

export const today = () => new Date().toISOString().slice(0, 10);
