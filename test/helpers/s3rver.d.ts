/**
 * The slice of s3rver's API test/helpers/s3-server.ts uses. s3rver 3 ships no types, so this
 * declares just that: its options, bucket set-up, and its request handler (served by our own HTTP
 * server, which can then stop and start on the same port).
 */
declare module 's3rver' {
  import type { IncomingMessage, ServerResponse } from 'node:http';

  export interface S3rverOptions {
    /** Where buckets and objects are kept, as files. */
    directory: string;
    silent?: boolean;
    configureBuckets?: { name: string }[];
    allowMismatchedSignatures?: boolean;
  }

  export default class S3rver {
    constructor(options: S3rverOptions);
    configureBuckets(): Promise<void>;
    callback(): (request: IncomingMessage, response: ServerResponse) => void;
  }
}
