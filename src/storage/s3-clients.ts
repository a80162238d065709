/**
 * The S3 clients the S3 media store talks through. Two, because the calls differ in what waiting
 * means: a viewer's request waits on `quick` calls (a HEAD, the headers of a ranged GET), which give
 * up within seconds and retry once; `transfer` calls (multipart parts, a download for ffmpeg, listing
 * and deleting) send or receive megabytes and get the SDK's three attempts with room to finish. Both
 * give up on a store that does not accept a connection within 2 s, so a store that is down or hung
 * costs a request seconds, never a hang (it becomes MediaStoreUnavailableError: s3-errors.ts).
 */
import { S3Client } from '@aws-sdk/client-s3';

export interface S3Settings {
  bucket: string;
  /** An S3-compatible service's URL (`https://s3.example.com`); undefined for AWS, whose endpoint follows the region. */
  endpoint: string | undefined;
  region: string;
  /** undefined: the SDK's default chain (AWS_* variables, a profile, the instance or task role). */
  credentials: { accessKeyId: string; secretAccessKey: string } | undefined;
  /** `https://endpoint/bucket/key` instead of `https://bucket.endpoint/key`, as most self-hosted stores need. */
  forcePathStyle: boolean;
  /** Put before every key (`cuepoint/`), so the bucket can hold other things too. */
  prefix: string;
}

export interface S3Timeouts {
  /** Establishing a connection, for every call. */
  connectMs: number;
  /** From sending a quick call to its response's headers. */
  quickResponseMs: number;
  /** Attempts of a quick call: one retry absorbs a dropped connection or a single 503. */
  quickAttempts: number;
  /** From sending a transfer call (a whole part's body included) to its response's headers. */
  transferResponseMs: number;
  /** How long a transfer's connection may sit idle mid-body before it is given up. */
  transferIdleMs: number;
}

export const DEFAULT_S3_TIMEOUTS: S3Timeouts = {
  connectMs: 2000,
  quickResponseMs: 3000,
  quickAttempts: 2,
  // A 5 MiB part takes 4 s at 10 Mbit/s; 30 s leaves room for a slow link without waiting forever.
  transferResponseMs: 30_000,
  transferIdleMs: 30_000,
};

/**
 * Connections one client keeps open at most. Streaming a file through the service (delivery mode
 * `stream`) holds one for as long as the viewer takes to read it, so the SDK's default of 50 would
 * make the 51st concurrent play wait; past this bound a request waits, within its timeout.
 */
const MAX_CONNECTIONS = 1024;

export interface S3Clients {
  quick: S3Client;
  transfer: S3Client;
}

export function createS3Clients(settings: S3Settings, timeouts: S3Timeouts): S3Clients {
  const base = {
    region: settings.region,
    forcePathStyle: settings.forcePathStyle,
    ...(settings.endpoint ? { endpoint: settings.endpoint } : {}),
    ...(settings.credentials ? { credentials: settings.credentials } : {}),
    // Checksums only where an operation requires one: the SDK's default adds CRC32 headers to every
    // upload and asks for checksums on every download, which S3-compatible stores (R2, B2, older
    // MinIO) refuse, and which would put x-amz-checksum-mode into presigned URLs browsers fetch.
    requestChecksumCalculation: 'WHEN_REQUIRED' as const,
    responseChecksumValidation: 'WHEN_REQUIRED' as const,
  };
  const agents = { httpAgent: { maxSockets: MAX_CONNECTIONS }, httpsAgent: { maxSockets: MAX_CONNECTIONS } };
  return {
    quick: new S3Client({
      ...base,
      maxAttempts: timeouts.quickAttempts,
      requestHandler: {
        ...agents,
        connectionTimeout: timeouts.connectMs,
        requestTimeout: timeouts.quickResponseMs,
        throwOnRequestTimeout: true,
        // No idle limit on the body: a viewer that pauses stops reading, and that is not a failure.
        // A store that stalls mid-body is cut off with the viewer's connection (the server's idle timeout).
      },
    }),
    transfer: new S3Client({
      ...base,
      requestHandler: {
        ...agents,
        connectionTimeout: timeouts.connectMs,
        requestTimeout: timeouts.transferResponseMs,
        throwOnRequestTimeout: true,
        socketTimeout: timeouts.transferIdleMs,
      },
    }),
  };
}
