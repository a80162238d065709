/**
 * The environment, read once into a validated, frozen Config. Nothing else reads process.env.
 * A bad value stops start-up with a message naming the variable.
 */
import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, join, resolve } from 'node:path';
import { MAX_REDIS_TIMEOUT_MS, REDIS_TIMEOUT_MS } from './core/pipeline/rate-limit.ts';
import { type MailFrom, parseMailFrom, parseSmtpUrl, type SmtpSettings } from './domains/email/index.ts';
import { type BundledFfmpeg, findBundledFfmpeg } from './media/bundled-ffmpeg.ts';
import { findPocketsphinx } from './media/speech/pocketsphinx.ts';
import type { SpeechToTextSettings } from './media/speech/speech-engine.ts';
import { type Cidr, parseCidr } from './net/address-policy.ts';
import type { MediaDelivery } from './storage/media-store.ts';
import type { S3Settings } from './storage/s3-clients.ts';

export interface Config {
  port: number;
  host: string;
  publicUrl: string;
  databaseUrl: string | undefined;
  redisUrl: string | undefined;
  /**
   * CUEPOINT_DB_TIMEOUT_MS: the longest PostgreSQL may take to accept a connection or answer a
   * statement (statement_timeout on the server, query_timeout on the client). Past it the request is
   * a 503 with Retry-After, so a frozen database costs callers seconds, not a hang. Default 2 s.
   */
  dbTimeoutMs: number;
  /**
   * CUEPOINT_REDIS_TIMEOUT_MS: the longest a request waits for Redis before this process's own
   * rate-limit bucket decides (default 50 ms); Redis failing repeatedly is then not asked at all.
   */
  redisTimeoutMs: number;
  dataDir: string;
  /** CUEPOINT_SECRET; when unset, a generated secret kept in the database is used (db/signing-secret.ts). */
  secret: string | undefined;
  /** Requests per minute for every credential, overriding plan ceilings. */
  rateLimitOverride: number | undefined;
  /**
   * CUEPOINT_ALLOW_PRIVATE_NETWORKS, parsed: the non-public ranges the SSRF guard lets imports and
   * webhooks reach (src/net/). Cloud metadata addresses stay refused whatever it holds.
   */
  allowPrivateNetworks: readonly Cidr[];
  /**
   * CUEPOINT_TRUSTED_PROXIES, parsed: the load balancers and CDN edges in front of the service. A
   * request from one of them is counted against the client X-Forwarded-For names before them by the
   * public writes' per-address limits; from anywhere else the header is ignored. Empty by default.
   */
  trustedProxies: readonly Cidr[];
  logLevel: string;
  /** CUEPOINT_MAX_UPLOAD_BYTES: the largest file create_video_upload accepts (default 5 GiB). */
  maxUploadBytes: number;
  /**
   * Where media files are kept: the local folder `<dataDir>/media` (the default), or an S3-compatible
   * bucket once CUEPOINT_S3_BUCKET is set (CUEPOINT_S3_ENDPOINT, _REGION, _ACCESS_KEY_ID,
   * _SECRET_ACCESS_KEY, _FORCE_PATH_STYLE, _PREFIX).
   */
  mediaStorage: MediaStorage;
  /**
   * How /media serves files: CUEPOINT_MEDIA_DELIVERY `stream` (default) or `redirect` (302 to a
   * presigned URL; S3 only), and CUEPOINT_MEDIA_URL_SECONDS, such a URL's lifetime (default 300 s).
   */
  mediaDelivery: MediaDelivery;
  /**
   * CUEPOINT_JOB_LEASE_MS: how long a background job stays claimed without a heartbeat (renewed every
   * third of it). A worker killed mid-job loses its jobs to another worker this long after its last
   * heartbeat. Default 30 s.
   */
  jobLeaseMs: number;
  /**
   * The ffmpeg that makes posters and pulls embedded subtitles out of videos, and makes the demo's
   * clips: CUEPOINT_FFMPEG (a path, or `off` for none), else the build bundled with @ffmpeg-installer,
   * else `ffmpeg` on PATH. Without ffmpeg videos still become ready; `seed --demo` refuses to run.
   */
  ffmpegPath: string | null;
  /** Where ffmpegPath came from (the start-up log says it); null when there is none. */
  ffmpegSource: FfmpegSource | null;
  /** Why the bundled ffmpeg was not used, when it was looked for and not found usable. */
  ffmpegBundledProblem: string | undefined;
  /**
   * Speech-to-text for videos that become ready without a transcript (docs/speech-to-text.md):
   * CUEPOINT_SPEECH_TO_TEXT `off` (the default), `local` (pocketsphinx from Debian's packages) or
   * `http` (an OpenAI-compatible server: CUEPOINT_SPEECH_TO_TEXT_URL, _KEY, _MODEL, _TIMEOUT_MS),
   * and CUEPOINT_SPEECH_TO_TEXT_MAX_SECONDS, the longest video transcribed.
   */
  speechToText: SpeechToTextSettings;
  /** CUEPOINT_VIEWING_RETENTION_DAYS: how long raw viewing batches are kept (default 400 days). */
  viewingRetentionDays: number;
  /** How often the worker folds collected viewing into the analytics (CUEPOINT_VIEWING_FOLD_MS). */
  viewingFoldMs: number;
  /** CUEPOINT_API_KEY: the credential `mcp --stdio` acts with. */
  apiKey: string | undefined;
  /** CUEPOINT_URL: a running server for `mcp --stdio` to forward to, instead of opening the database. */
  remoteUrl: string | undefined;
  /** Webhook delivery: timeouts, the retry schedule (compressible, for tests) and the sender's pace. */
  webhooks: WebhookConfig;
  /**
   * Email (docs/people.md#email): CUEPOINT_SMTP_URL, the server messages are sent through (null: none,
   * the embedded default; messages wait in the outbox and their links are logged), and
   * CUEPOINT_MAIL_FROM, the address they come from (required with a server).
   */
  email: EmailConfig;
  /**
   * CUEPOINT_SHUTDOWN_TIMEOUT_MS: how long a stopping process (SIGINT, SIGTERM) may take to finish
   * in-flight requests and background work and close the database before it exits anyway. Default 10 s.
   */
  shutdownTimeoutMs: number;
  /**
   * CUEPOINT_DEMO_NOW: the instant `seed --demo` plays its ninety days of viewing up to (default: now).
   * How many sessions the demo plays depends on the weekday and hour it ends at; tests pin it.
   */
  demoNow: Date | undefined;
}

export type MediaStorage = { kind: 'local' } | ({ kind: 's3' } & S3Settings);

export interface EmailConfig {
  smtp: SmtpSettings | null;
  from: MailFrom | null;
}

export interface WebhookConfig {
  /** CUEPOINT_WEBHOOK_TIMEOUT_MS: one attempt, DNS to the last body byte read (default 15 s, as Svix). */
  timeoutMs: number;
  /** Delays before each retry, in order; attempts = length + 1. CUEPOINT_WEBHOOK_RETRY_SCHEDULE. */
  retrySchedule: readonly number[];
  /** CUEPOINT_WEBHOOK_POLL_MS: how often an idle sender looks for new events and due retries. */
  pollMs: number;
  /** CUEPOINT_WEBHOOK_CONCURRENCY: deliveries one worker process sends at once. */
  concurrency: number;
}

/** DESIGN §4: about 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h; eight attempts over about 28 hours. */
export const DEFAULT_WEBHOOK_RETRY_SCHEDULE = '5s,5m,30m,2h,5h,10h,10h';

/** Well under the 3 s within which every surface must answer 503 once PostgreSQL freezes or dies. */
export const DEFAULT_DB_TIMEOUT_MS = 2000;

export type FfmpegSource = 'CUEPOINT_FFMPEG' | 'bundled' | 'PATH';

type Env = Record<string, string | undefined>;

export class ConfigError extends Error {
  override name = 'ConfigError';
}

/**
 * `bundledFfmpeg` is where the bundled ffmpeg is looked for: the installed package, unless a test
 * stands in for it.
 */
export function loadConfig(env: Env = process.env, bundledFfmpeg: () => BundledFfmpeg = findBundledFfmpeg): Config {
  const problems: string[] = [];
  const port = integer(env, 'PORT', 3000, 0, 65535, problems);
  const host = env.HOST || '0.0.0.0';
  const dataDir = resolve(env.CUEPOINT_DATA_DIR || './data');
  const publicUrl = (env.PUBLIC_URL || `http://localhost:${port}`).replace(/\/+$/, '');
  if (!/^https?:\/\/[^/]+$/.test(publicUrl)) problems.push('PUBLIC_URL must be an origin such as https://videos.example.com');
  const databaseUrl = env.DATABASE_URL || undefined;
  if (databaseUrl && !/^postgres(ql)?:\/\//.test(databaseUrl)) problems.push('DATABASE_URL must be a postgres:// connection string');
  const redisUrl = env.REDIS_URL || undefined;
  if (redisUrl && !/^rediss?:\/\//.test(redisUrl)) problems.push('REDIS_URL must be a redis:// URL');
  const dbTimeoutMs = integer(env, 'CUEPOINT_DB_TIMEOUT_MS', DEFAULT_DB_TIMEOUT_MS, 100, 600_000, problems);
  const redisTimeoutMs = integer(env, 'CUEPOINT_REDIS_TIMEOUT_MS', REDIS_TIMEOUT_MS, 10, MAX_REDIS_TIMEOUT_MS, problems);
  const rateLimitOverride = env.CUEPOINT_RATE_LIMIT ? integer(env, 'CUEPOINT_RATE_LIMIT', 0, 1, 1_000_000, problems) : undefined;
  const logLevel = env.LOG_LEVEL || 'info';
  if (!['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'].includes(logLevel)) {
    problems.push('LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent');
  }
  const allowPrivateNetworks = cidrList(env, 'CUEPOINT_ALLOW_PRIVATE_NETWORKS', problems);
  const trustedProxies = trustedProxiesOf(env, problems);
  if (env.CUEPOINT_SECRET !== undefined && env.CUEPOINT_SECRET.length < 32) problems.push('CUEPOINT_SECRET must be at least 32 characters');
  const maxUploadBytes = integer(env, 'CUEPOINT_MAX_UPLOAD_BYTES', 5 * 1024 ** 3, 1, Number.MAX_SAFE_INTEGER, problems);
  const jobLeaseMs = integer(env, 'CUEPOINT_JOB_LEASE_MS', 30_000, 1000, 3_600_000, problems);
  const mediaStorage = mediaStorageOf(env, problems);
  const mediaDelivery = mediaDeliveryOf(env, mediaStorage, problems);
  const ffmpeg = ffmpegOf(env, bundledFfmpeg, problems);
  const speechToText = speechToTextOf(env, ffmpeg, problems);
  const viewingRetentionDays = integer(env, 'CUEPOINT_VIEWING_RETENTION_DAYS', 400, 1, 36_500, problems);
  const viewingFoldMs = integer(env, 'CUEPOINT_VIEWING_FOLD_MS', 200, 10, 60_000, problems);
  const remoteUrl = env.CUEPOINT_URL ? env.CUEPOINT_URL.replace(/\/+$/, '') : undefined;
  if (remoteUrl && !/^https?:\/\/[^/]+$/.test(remoteUrl))
    problems.push('CUEPOINT_URL must be the origin of a running server, such as http://localhost:3000');
  const webhooks: WebhookConfig = Object.freeze({
    timeoutMs: integer(env, 'CUEPOINT_WEBHOOK_TIMEOUT_MS', 15_000, 100, 120_000, problems),
    retrySchedule: durationList(env, 'CUEPOINT_WEBHOOK_RETRY_SCHEDULE', DEFAULT_WEBHOOK_RETRY_SCHEDULE, problems),
    pollMs: integer(env, 'CUEPOINT_WEBHOOK_POLL_MS', 250, 10, 60_000, problems),
    concurrency: integer(env, 'CUEPOINT_WEBHOOK_CONCURRENCY', 8, 1, 256, problems),
  });
  const email = emailOf(env, problems);
  const shutdownTimeoutMs = integer(env, 'CUEPOINT_SHUTDOWN_TIMEOUT_MS', 10_000, 100, 600_000, problems);
  const demoNow = instant(env, 'CUEPOINT_DEMO_NOW', problems);
  if (problems.length > 0) throw new ConfigError(`Invalid configuration:\n- ${problems.join('\n- ')}`);
  return Object.freeze({
    port,
    host,
    publicUrl,
    databaseUrl,
    redisUrl,
    dbTimeoutMs,
    redisTimeoutMs,
    dataDir,
    secret: env.CUEPOINT_SECRET || undefined,
    rateLimitOverride,
    allowPrivateNetworks,
    trustedProxies,
    logLevel,
    maxUploadBytes,
    jobLeaseMs,
    mediaStorage,
    mediaDelivery,
    ffmpegPath: ffmpeg.path,
    ffmpegSource: ffmpeg.source,
    ffmpegBundledProblem: ffmpeg.bundledProblem,
    speechToText,
    viewingRetentionDays,
    viewingFoldMs,
    apiKey: env.CUEPOINT_API_KEY || undefined,
    remoteUrl,
    webhooks,
    email,
    shutdownTimeoutMs,
    demoNow,
  });
}

/** A UTC instant written as ISO 8601 (`2026-11-18T12:00:00Z`), and a real one: no 30 February, no leap second. */
function instant(env: Env, name: string, problems: string[]): Date | undefined {
  const raw = env[name];
  if (!raw) return undefined;
  const match = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})(\.\d{1,3})?Z$/.exec(raw);
  const at = match ? new Date(raw) : undefined;
  if (!at || Number.isNaN(at.getTime()) || at.toISOString().slice(0, 19) !== match?.[1]) {
    problems.push(`${name} must be a UTC instant such as 2026-11-18T12:00:00Z`);
    return undefined;
  }
  return at;
}

function integer(env: Env, name: string, fallback: number, min: number, max: number, problems: string[]): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max) {
    problems.push(`${name} must be an integer from ${min} to ${max}`);
    return fallback;
  }
  return value;
}

const DURATION_UNITS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/**
 * Comma-separated durations such as `5s,5m,2h` (units ms, s, m, h), each at most a day: the retry
 * schedule, which tests compress to `100ms,200ms` so a whole schedule runs in a second.
 */
export function parseDurationList(text: string): number[] {
  const items = text.split(',').map((s) => s.trim());
  if (items.length > 20) throw new Error('has more than 20 steps');
  return items.map((item) => {
    const match = /^(\d+(?:\.\d+)?)(ms|s|m|h)$/.exec(item);
    const ms = match ? Math.round(Number(match[1]) * (DURATION_UNITS[match[2] as string] as number)) : Number.NaN;
    if (!(ms >= 1 && ms <= 86_400_000)) throw new Error(`"${item}" is not a duration from 1ms to 24h such as 500ms, 5s, 5m or 2h`);
    return ms;
  });
}

function durationList(env: Env, name: string, fallback: string, problems: string[]): readonly number[] {
  const raw = env[name] === undefined || env[name] === '' ? fallback : (env[name] as string);
  try {
    return Object.freeze(parseDurationList(raw));
  } catch (error) {
    problems.push(`${name}: ${(error as Error).message}`);
    return Object.freeze(parseDurationList(fallback));
  }
}

/**
 * No server is a working setting (messages wait in the outbox); a server that cannot be parsed, or
 * one with nobody to send as, is not: it stops the start with the fix.
 */
function emailOf(env: Env, problems: string[]): EmailConfig {
  const rawUrl = env.CUEPOINT_SMTP_URL || '';
  const rawFrom = env.CUEPOINT_MAIL_FROM || '';
  let smtp: SmtpSettings | null = null;
  if (rawUrl) {
    const parsed = parseSmtpUrl(rawUrl);
    if ('problem' in parsed) {
      problems.push(
        `CUEPOINT_SMTP_URL ${parsed.problem}: write it as smtp://user:password@smtp.example.com:587 or smtps://user:password@smtp.example.com (credentials percent-encoded), or smtp://127.0.0.1:2525 for a local relay`,
      );
    } else smtp = Object.freeze(parsed);
  }
  let from: MailFrom | null = null;
  if (rawFrom) {
    const parsed = parseMailFrom(rawFrom);
    if ('problem' in parsed) problems.push(`CUEPOINT_MAIL_FROM ${parsed.problem}`);
    else from = Object.freeze(parsed);
  } else if (rawUrl) {
    problems.push(
      'CUEPOINT_MAIL_FROM must be set with CUEPOINT_SMTP_URL: the address messages come from, such as "Cuepoint <videos@example.com>"',
    );
  }
  return Object.freeze({ smtp, from });
}

interface FfmpegChoice {
  path: string | null;
  source: FfmpegSource | null;
  bundledProblem: string | undefined;
}

/** CUEPOINT_FFMPEG first, then the bundled build, then PATH: an operator's choice beats ours. */
function ffmpegOf(env: Env, bundledFfmpeg: () => BundledFfmpeg, problems: string[]): FfmpegChoice {
  const none = { path: null, source: null, bundledProblem: undefined };
  const chosen = env.CUEPOINT_FFMPEG;
  if (chosen === 'off') return none;
  if (chosen) {
    if (isExecutable(chosen)) return { path: resolve(chosen), source: 'CUEPOINT_FFMPEG', bundledProblem: undefined };
    problems.push(`CUEPOINT_FFMPEG must be the path of an executable ffmpeg, or 'off' (not found: ${chosen})`);
    return none;
  }
  const bundled = bundledFfmpeg();
  if (bundled.path !== null) return { path: bundled.path, source: 'bundled', bundledProblem: undefined };
  for (const dir of (env.PATH || '').split(delimiter).filter(Boolean)) {
    const candidate = join(dir, process.platform === 'win32' ? 'ffmpeg.exe' : 'ffmpeg');
    if (isExecutable(candidate)) return { path: candidate, source: 'PATH', bundledProblem: bundled.reason };
  }
  return { ...none, bundledProblem: bundled.reason };
}

const S3_SETTINGS = [
  'CUEPOINT_S3_ENDPOINT',
  'CUEPOINT_S3_REGION',
  'CUEPOINT_S3_ACCESS_KEY_ID',
  'CUEPOINT_S3_SECRET_ACCESS_KEY',
  'CUEPOINT_S3_FORCE_PATH_STYLE',
  'CUEPOINT_S3_PREFIX',
] as const;
// S3's rule for new buckets: 3–63 lowercase letters, digits, dots and hyphens, a letter or digit at each end.
const BUCKET_NAME = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;
const REGION_NAME = /^[a-z0-9-]{1,64}$/;
// Characters S3 calls safe in keys, in segments joined by single slashes.
const KEY_PREFIX = /^([A-Za-z0-9!_.*'()-]+\/)*[A-Za-z0-9!_.*'()-]*$/;

/**
 * CUEPOINT_S3_BUCKET selects S3. The other CUEPOINT_S3_* settings mean nothing without it, so they
 * are refused alone: a misspelt bucket variable must not quietly keep media on the local disk.
 */
function mediaStorageOf(env: Env, problems: string[]): MediaStorage {
  const bucket = env.CUEPOINT_S3_BUCKET || '';
  if (!bucket) {
    const orphans = S3_SETTINGS.filter((name) => env[name]);
    if (orphans.length > 0) {
      problems.push(`${orphans.join(', ')} set without CUEPOINT_S3_BUCKET: set the bucket to keep media in S3, or remove them`);
    }
    return { kind: 'local' };
  }
  if (!BUCKET_NAME.test(bucket) || bucket.includes('..')) {
    problems.push(
      'CUEPOINT_S3_BUCKET must be a bucket name: 3 to 63 lowercase letters, digits, dots and hyphens, starting and ending with a letter or digit',
    );
  }
  const endpoint = env.CUEPOINT_S3_ENDPOINT ? env.CUEPOINT_S3_ENDPOINT.replace(/\/+$/, '') : undefined;
  if (endpoint !== undefined && !/^https?:\/\/[^/@?#]+$/.test(endpoint)) {
    problems.push(
      'CUEPOINT_S3_ENDPOINT must be the origin of an S3-compatible service, such as https://s3.example.com (no credentials or path); leave it unset for AWS',
    );
  }
  const region = env.CUEPOINT_S3_REGION || 'us-east-1';
  if (!REGION_NAME.test(region))
    problems.push('CUEPOINT_S3_REGION must be a region name such as eu-west-1 (lowercase letters, digits and hyphens)');
  const accessKeyId = env.CUEPOINT_S3_ACCESS_KEY_ID || '';
  const secretAccessKey = env.CUEPOINT_S3_SECRET_ACCESS_KEY || '';
  if (Boolean(accessKeyId) !== Boolean(secretAccessKey)) {
    problems.push(
      'CUEPOINT_S3_ACCESS_KEY_ID and CUEPOINT_S3_SECRET_ACCESS_KEY go together: set both, or neither to use the default AWS credential chain',
    );
  }
  if (/[\s\p{Cc}]/u.test(accessKeyId + secretAccessKey)) {
    problems.push('CUEPOINT_S3_ACCESS_KEY_ID and CUEPOINT_S3_SECRET_ACCESS_KEY must not contain spaces or control characters');
  }
  const pathStyle = env.CUEPOINT_S3_FORCE_PATH_STYLE || 'false';
  if (pathStyle !== 'true' && pathStyle !== 'false') problems.push('CUEPOINT_S3_FORCE_PATH_STYLE must be true or false');
  const prefix = env.CUEPOINT_S3_PREFIX || '';
  if (prefix.length > 200 || !KEY_PREFIX.test(prefix) || prefix.split('/').some((segment) => segment === '.' || segment === '..')) {
    problems.push(
      "CUEPOINT_S3_PREFIX must be at most 200 characters: letters, digits and !_.*'()- in segments joined by single slashes, such as cuepoint/ (no leading slash)",
    );
  }
  return {
    kind: 's3',
    bucket,
    endpoint,
    region,
    credentials: accessKeyId && secretAccessKey ? { accessKeyId, secretAccessKey } : undefined,
    forcePathStyle: pathStyle === 'true',
    prefix,
  };
}

/** Redirecting needs URLs the store signs; the local folder has none, so asking for it is a mistake to name at start-up. */
function mediaDeliveryOf(env: Env, storage: MediaStorage, problems: string[]): MediaDelivery {
  const urlSeconds = integer(env, 'CUEPOINT_MEDIA_URL_SECONDS', 300, 10, 3600, problems);
  const mode = env.CUEPOINT_MEDIA_DELIVERY || 'stream';
  if (mode !== 'stream' && mode !== 'redirect') {
    problems.push('CUEPOINT_MEDIA_DELIVERY must be one of stream, redirect');
    return { mode: 'stream', urlSeconds };
  }
  if (mode === 'redirect' && storage.kind === 'local') {
    problems.push(
      'CUEPOINT_MEDIA_DELIVERY=redirect needs an object store to redirect to (CUEPOINT_S3_BUCKET); with the local folder the service streams its files',
    );
  }
  return { mode, urlSeconds };
}

const SPEECH_ENGINES = ['off', 'local', 'http'] as const;
/** OpenAI's own name for its model that answers verbose_json with segments. */
const DEFAULT_SPEECH_MODEL = 'whisper-1';

/** CUEPOINT_SPEECH_TO_TEXT and its companions; an engine that cannot run is a start-up error, not a queue of failing jobs. */
function speechToTextOf(env: Env, ffmpeg: FfmpegChoice, problems: string[]): SpeechToTextSettings {
  const engine = env.CUEPOINT_SPEECH_TO_TEXT || 'off';
  if (!(SPEECH_ENGINES as readonly string[]).includes(engine)) {
    problems.push(`CUEPOINT_SPEECH_TO_TEXT must be one of ${SPEECH_ENGINES.join(', ')}`);
    return { engine: 'off' };
  }
  if (engine === 'off') return { engine: 'off' };
  const maxSeconds = integer(env, 'CUEPOINT_SPEECH_TO_TEXT_MAX_SECONDS', 4 * 3600, 1, 86_400, problems);
  if (!ffmpeg.path) {
    const why = env.CUEPOINT_FFMPEG === 'off' ? 'CUEPOINT_FFMPEG is off' : (ffmpeg.bundledProblem ?? 'none was found');
    problems.push(`CUEPOINT_SPEECH_TO_TEXT=${engine} needs ffmpeg to take the sound out of videos, and ${why}`);
  }
  if (engine === 'local') {
    const found = findPocketsphinx(env.PATH ?? '');
    if ('problem' in found) {
      problems.push(`CUEPOINT_SPEECH_TO_TEXT=local needs PocketSphinx: ${found.problem}`);
      return { engine: 'off' };
    }
    return { engine: 'local', maxSeconds, pocketsphinx: found };
  }
  const url = (env.CUEPOINT_SPEECH_TO_TEXT_URL || '').replace(/\/+$/, '');
  if (!isServiceBaseUrl(url)) {
    problems.push(
      'CUEPOINT_SPEECH_TO_TEXT_URL must be the http(s) base URL of an OpenAI-compatible API, such as https://api.openai.com/v1 (no credentials, query or fragment), when CUEPOINT_SPEECH_TO_TEXT is http',
    );
  }
  const model = env.CUEPOINT_SPEECH_TO_TEXT_MODEL || DEFAULT_SPEECH_MODEL;
  if (model.length > 200 || /[\s\p{Cc}]/u.test(model))
    problems.push('CUEPOINT_SPEECH_TO_TEXT_MODEL must be a model name of at most 200 characters, without spaces');
  const key = env.CUEPOINT_SPEECH_TO_TEXT_KEY || undefined;
  if (key !== undefined && /[\s\p{Cc}]/u.test(key))
    problems.push('CUEPOINT_SPEECH_TO_TEXT_KEY must not contain spaces or control characters');
  const timeoutMs = integer(env, 'CUEPOINT_SPEECH_TO_TEXT_TIMEOUT_MS', 600_000, 1000, 3_600_000, problems);
  return { engine: 'http', maxSeconds, server: { url, key, model, timeoutMs } };
}

function isServiceBaseUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return (url.protocol === 'http:' || url.protocol === 'https:') && !url.username && !url.password && !url.search && !url.hash;
  } catch {
    return false;
  }
}

function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/**
 * Addresses or CIDR ranges of the proxies in front of the service. A range of length 0 would
 * believe X-Forwarded-For from anyone, which is the same as letting every client pick its own
 * address: refused, with what to write instead.
 */
function trustedProxiesOf(env: Env, problems: string[]): readonly Cidr[] {
  const name = 'CUEPOINT_TRUSTED_PROXIES';
  const cidrs = cidrList(env, name, problems);
  for (const cidr of cidrs.filter((entry) => entry.prefix === 0)) {
    problems.push(
      `${name}: "${cidr.text}" would trust X-Forwarded-For from every address, so any client could choose the address it is limited by; list your load balancers' or CDN's addresses or ranges instead, such as 10.0.0.0/8`,
    );
  }
  return cidrs;
}

function cidrList(env: Env, name: string, problems: string[]): readonly Cidr[] {
  const entries = (env[name] || '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const cidrs: Cidr[] = [];
  for (const entry of entries) {
    try {
      cidrs.push(parseCidr(entry));
    } catch (error) {
      problems.push(`${name}: ${(error as Error).message}`);
    }
  }
  return Object.freeze(cidrs);
}
