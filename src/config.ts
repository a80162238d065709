/**
 * The environment, read once into a validated, frozen Config. Nothing else reads process.env.
 * A bad value stops start-up with a message naming the variable.
 */
import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, join, resolve } from 'node:path';
import { type Cidr, parseCidr } from './net/address-policy.ts';

export interface Config {
  port: number;
  host: string;
  publicUrl: string;
  databaseUrl: string | undefined;
  redisUrl: string | undefined;
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
  logLevel: string;
  /** CUEPOINT_MAX_UPLOAD_BYTES: the largest file create_video_upload accepts (default 5 GiB). */
  maxUploadBytes: number;
  /**
   * CUEPOINT_JOB_LEASE_MS: how long a background job stays claimed without a heartbeat (renewed every
   * third of it). A worker killed mid-job loses its jobs to another worker this long after its last
   * heartbeat. Default 30 s.
   */
  jobLeaseMs: number;
  /**
   * CUEPOINT_FFMPEG: the ffmpeg that makes posters and pulls embedded subtitles out of videos. Unset:
   * `ffmpeg` on PATH, if there is one; `off`: none. Without ffmpeg videos still become ready.
   */
  ffmpegPath: string | null;
  /** CUEPOINT_VIEWING_RETENTION_DAYS: how long raw viewing batches are kept (default 400 days). */
  viewingRetentionDays: number;
  /** CUEPOINT_API_KEY: the credential `mcp --stdio` acts with. */
  apiKey: string | undefined;
  /** CUEPOINT_URL: a running server for `mcp --stdio` to forward to, instead of opening the database. */
  remoteUrl: string | undefined;
}

type Env = Record<string, string | undefined>;

export class ConfigError extends Error {
  override name = 'ConfigError';
}

export function loadConfig(env: Env = process.env): Config {
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
  const rateLimitOverride = env.CUEPOINT_RATE_LIMIT ? integer(env, 'CUEPOINT_RATE_LIMIT', 0, 1, 1_000_000, problems) : undefined;
  const logLevel = env.LOG_LEVEL || 'info';
  if (!['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'].includes(logLevel)) {
    problems.push('LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent');
  }
  const allowPrivateNetworks = cidrList(env, 'CUEPOINT_ALLOW_PRIVATE_NETWORKS', problems);
  if (env.CUEPOINT_SECRET !== undefined && env.CUEPOINT_SECRET.length < 32) problems.push('CUEPOINT_SECRET must be at least 32 characters');
  const maxUploadBytes = integer(env, 'CUEPOINT_MAX_UPLOAD_BYTES', 5 * 1024 ** 3, 1, Number.MAX_SAFE_INTEGER, problems);
  const jobLeaseMs = integer(env, 'CUEPOINT_JOB_LEASE_MS', 30_000, 1000, 3_600_000, problems);
  const ffmpegPath = ffmpegOf(env, problems);
  const viewingRetentionDays = integer(env, 'CUEPOINT_VIEWING_RETENTION_DAYS', 400, 1, 36_500, problems);
  const remoteUrl = env.CUEPOINT_URL ? env.CUEPOINT_URL.replace(/\/+$/, '') : undefined;
  if (remoteUrl && !/^https?:\/\/[^/]+$/.test(remoteUrl))
    problems.push('CUEPOINT_URL must be the origin of a running server, such as http://localhost:3000');
  if (problems.length > 0) throw new ConfigError(`Invalid configuration:\n- ${problems.join('\n- ')}`);
  return Object.freeze({
    port,
    host,
    publicUrl,
    databaseUrl,
    redisUrl,
    dataDir,
    secret: env.CUEPOINT_SECRET || undefined,
    rateLimitOverride,
    allowPrivateNetworks,
    logLevel,
    maxUploadBytes,
    jobLeaseMs,
    ffmpegPath,
    viewingRetentionDays,
    apiKey: env.CUEPOINT_API_KEY || undefined,
    remoteUrl,
  });
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

function ffmpegOf(env: Env, problems: string[]): string | null {
  const chosen = env.CUEPOINT_FFMPEG;
  if (chosen === 'off') return null;
  if (chosen) {
    if (isExecutable(chosen)) return resolve(chosen);
    problems.push(`CUEPOINT_FFMPEG must be the path of an executable ffmpeg, or 'off' (not found: ${chosen})`);
    return null;
  }
  for (const dir of (env.PATH || '').split(delimiter).filter(Boolean)) {
    const candidate = join(dir, process.platform === 'win32' ? 'ffmpeg.exe' : 'ffmpeg');
    if (isExecutable(candidate)) return candidate;
  }
  return null;
}

function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return statSync(path).isFile();
  } catch {
    return false;
  }
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
