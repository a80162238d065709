/**
 * Splits the test files between the workers: longest first, each to the worker with the least work
 * so far (the classic longest-processing-time rule), so the run ends when the work does, not when
 * one worker has drawn the three slowest files.
 */
export function planWorkers(files: readonly string[], workers: number, expected: (file: string) => number): string[][] {
  const plans = Array.from({ length: Math.max(1, Math.min(workers, files.length)) }, () => ({ files: [] as string[], total: 0 }));
  for (const file of [...files].sort((a, b) => expected(b) - expected(a) || a.localeCompare(b))) {
    const lightest = plans.reduce((best, plan) => (plan.total < best.total ? plan : best));
    lightest.files.push(file);
    lightest.total += expected(file);
  }
  return plans.map((plan) => plan.files);
}
