/**
 * Load generator, run as its own process by bench/measure.ts so that generating requests never
 * competes with the server for the same event loop. Takes autocannon options as JSON in argv[2] and
 * writes autocannon's result as one JSON line on stdout.
 */
import autocannon, { type Options } from 'autocannon';

const options = JSON.parse(process.argv[2] ?? '{}') as Options;
const result = await autocannon(options);
process.stdout.write(`${JSON.stringify(result)}\n`);
