/**
 * The command was called correctly but cannot do what was asked (a server that refuses the key or
 * cannot be reached, a data directory in use): printed as a plain message, exit code 1, no usage.
 */
export class CommandRefusedError extends Error {
  override name = 'CommandRefusedError';
}
