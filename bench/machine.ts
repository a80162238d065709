/** What a benchmark ran on, recorded in every report so figures are read against their machine. */
import { availableParallelism, cpus, totalmem } from 'node:os';

export function describeMachine() {
  return {
    cpus: availableParallelism(),
    cpu_model: cpus()[0]?.model ?? 'unknown',
    memory_bytes: totalmem(),
    platform: `${process.platform} ${process.arch}`,
    node: process.version,
  };
}
