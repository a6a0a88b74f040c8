import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { isSupportedCountry } from 'libphonenumber-js/max';
import { z } from 'zod';

const E164 = /^\+[1-9]\d{1,14}$/;
const MAIL_ADDRESS = /^[^\s@<>()",;:]+@[^\s@<>()",;:]+\.[^\s@<>()",;:]+$/;
const bool = z.enum(['true', 'false', '1', '0']).transform((v) => v === 'true' || v === '1');
const int = (min: number, max: number) => z.coerce.number().int().min(min).max(max);

/**
 * A service's URL as its driver will read it (the scheme, a host, a numeric port if any, and what
 * its path must be), judged here so that a bad one stops the start naming the variable. The message
 * never repeats the value: it may hold a password.
 */
const serviceUrl = (schemes: string[], path: RegExp, example: string) =>
  z.string().refine((value) => {
    if (!URL.canParse(value)) return false;
    const url = new URL(value);
    return schemes.includes(url.protocol) && url.hostname !== '' && path.test(url.pathname);
  }, `must be a ${example} URL`);

const schema = z.object({
  PORT: int(0, 65535).default(3000),
  HOST: z.string().min(1).default('127.0.0.1'),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: serviceUrl(['mysql:'], /^(\/[^/]*)?$/, 'mysql://user:password@host:3306/db').optional(),
  NODE_ENV: z.string().optional(),
  JWT_SECRET: z.string().min(1).optional(),
  ADMIN_SESSION_HOURS: int(1, 24 * 30).default(12),
  CORS_ORIGINS: z.string().default(''),
  SIGNUP_ENABLED: bool.default(true),
  RATE_LIMIT_PUBLIC: int(1, 1_000_000).default(60),
  RATE_LIMIT_AUTH: int(1, 1_000_000).default(600),
  LOGIN_RATE_LIMIT_IP: int(1, 1_000_000).default(30),
  SESSION_PRUNE_DAYS: int(1, 3650).default(90),
  WRITE_TO_ARCHIVE_DAYS: int(0, 3650).default(30),
  RETENTION_ARCHIVED_DAYS: int(0, 36500).default(0),
  MAINTENANCE_INTERVAL_SECONDS: int(1, 86_400).default(300),
  PUSH_PROVIDER: z.enum(['log', 'fcm']).default('log'),
  FCM_SERVICE_ACCOUNT_FILE: z.string().min(1).optional(),
  HTTPS_PROXY: z.string().url().optional(),
  ADMIN_COOKIE_SECRET: z.string().min(1).optional(),
  PUBLIC_APP_URL: z.string().url().default('http://localhost:3000'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  ADMIN_CONSOLE_ENABLED: bool.default(true),
  METRICS_ENABLED: bool.default(false),
  REDIS_URL: serviceUrl(['redis:', 'rediss:'], /^(\/\d*)?$/, 'redis://host:6379/0').optional(),
  DB_QUERY_TIMEOUT_MS: int(100, 600_000).default(10_000),
  SHUTDOWN_GRACE_SECONDS: int(0, 3600).default(10),
  WEBHOOK_ALLOW_PRIVATE: bool.default(false),
  SMS_PROVIDER: z.enum(['log', 'twilio']).default('log'),
  TWILIO_ACCOUNT_SID: z.string().regex(/^AC[0-9a-fA-F]{32}$/, 'must be AC followed by 32 hexadecimal digits').optional(),
  TWILIO_AUTH_TOKEN: z.string().min(1).optional(),
  TWILIO_FROM: z.string().regex(E164, 'must be a phone number in E.164 form, such as +15005550006').optional(),
  TWILIO_MESSAGING_SERVICE_SID: z.string().regex(/^MG[0-9a-fA-F]{32}$/, 'must be MG followed by 32 hexadecimal digits').optional(),
  SMS_DEFAULT_COUNTRY: z
    .string()
    .transform((v) => v.trim().toUpperCase())
    .refine((v) => isSupportedCountry(v), 'must be an ISO 3166-1 alpha-2 country code, such as IN or US')
    .default('IN'),
  SMTP_URL: z
    .string()
    .refine((v) => URL.canParse(v) && ['smtp:', 'smtps:'].includes(new URL(v).protocol) && new URL(v).hostname !== '', 'must be an smtp:// or smtps:// URL with a host, such as smtp://user:pass@mail.example.org:587')
    .optional(),
  MAIL_FROM: z.string().trim().regex(MAIL_ADDRESS, 'must be an e-mail address without a display name, such as no-reply@school.example.org').optional(),
  TRUST_PROXY: z.string().regex(/^(true|false|\d{1,2}|[\w.:/,\s-]+)$/, 'must be true, false, a hop count or a list of addresses').optional(),
  STORAGE_URL: z
    .string()
    .regex(/^s3:\/\/[a-z0-9][a-z0-9.-]{1,61}[a-z0-9](\/[\w.\-/]*)?$/, 'must be s3://bucket or s3://bucket/prefix (a bucket name of 3 to 63 lowercase letters, digits, dots and hyphens)')
    .optional(),
  S3_ENDPOINT: z.string().url().regex(/^https?:/, 'must be an http(s) URL').optional(),
  S3_REGION: z.string().regex(/^[a-z0-9-]{1,40}$/, 'must be a region name such as us-east-1 (auto for Cloudflare R2)').default('us-east-1'),
  S3_FORCE_PATH_STYLE: bool.default(false),
  AWS_ACCESS_KEY_ID: z.string().min(1).optional(),
  AWS_SECRET_ACCESS_KEY: z.string().min(1).optional(),
  AWS_SESSION_TOKEN: z.string().min(1).optional(),
  FILE_URL_TTL_SECONDS: int(1, 604_800).default(3600),
});

/** Where attachments are kept: a folder of this instance, or an S3-compatible store every instance shares. */
export type StorageConfig =
  | { driver: 'local'; dir: string }
  | {
      driver: 's3';
      bucket: string;
      /** Key prefix without slashes at either end; empty for the bucket's root. */
      prefix: string;
      endpoint?: string;
      region: string;
      forcePathStyle: boolean;
      /** Unset: the AWS SDK's default chain (environment, profile, instance role). */
      credentials?: { accessKeyId: string; secretAccessKey: string; sessionToken?: string };
    };

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl?: string;
  production: boolean;
  jwtSecret: string;
  adminSessionHours: number;
  corsOrigins: string[];
  signupEnabled: boolean;
  rateLimitPublic: number;
  rateLimitAuth: number;
  loginRateLimitIp: number;
  sessionPruneDays: number;
  writeToArchiveDays: number;
  /** Days an archived student is kept before the maintenance job erases them; 0: never. */
  retentionArchivedDays: number;
  maintenanceIntervalSeconds: number;
  pushProvider: 'log' | 'fcm';
  fcmServiceAccountFile?: string;
  httpsProxy?: string;
  adminCookieSecret: string;
  publicAppUrl: string;
  logLevel: string;
  adminConsoleEnabled: boolean;
  metricsEnabled: boolean;
  /** Express's `trust proxy`: which proxies may set X-Forwarded-For / -Proto (client IPs for rate limits, https for cookies). */
  trustProxy: boolean | number | string;
  /** Shared rate-limit counters for several instances; unset, each process counts on its own. */
  redisUrl?: string;
  /** A statement the database has not answered by then ends its request with a 503. */
  dbQueryTimeoutMs: number;
  /** How long SIGTERM waits for requests in flight before closing their connections. */
  shutdownGraceSeconds: number;
  /** Webhook URLs may point at loopback, private and other reserved addresses (a receiver on the same network). */
  webhookAllowPrivate: boolean;
  smsProvider: 'log' | 'twilio';
  twilio?: { accountSid: string; authToken: string; from?: string; messagingServiceSid?: string };
  /** Verifies Twilio's callbacks; set on its own, it does so whichever SMS provider sends. */
  twilioAuthToken?: string;
  /** How a school's national phone numbers are read until it sets its own country. */
  smsDefaultCountry: string;
  /** Unset: e-mails are recorded by the log provider. */
  smtpUrl?: string;
  /** Envelope sender and From address of every e-mail. */
  mailFrom: string;
  /**
   * Certificate authorities (PEM) trusted for outbound TLS to the SMS and e-mail gateways besides the
   * system's; not read from the environment (a service uses NODE_EXTRA_CA_CERTS): tests hand their throwaway CA here.
   */
  trustedCa?: string;
  storage: StorageConfig;
  /** How long a signed file URL works. */
  fileUrlTtlSeconds: number;
  /** A file store that has not answered by then fails its request with a 503 (tests shorten it). */
  storageTimeoutMs: number;
  /** Tests run on an in-memory SQLite database (or a throwaway MySQL one) and skip the timers. */
  sqliteStorage?: string;
  runJobs: boolean;
}

export class ConfigError extends Error {}

/** The embedded database's file name in DATA_DIR. */
export const SQLITE_FILE = 'school-platform.sqlite';

/**
 * Where the configuration keeps the database, read without creating anything (loadConfig makes
 * DATA_DIR and its secrets): a MySQL URL, or the absolute path of the SQLite file in DATA_DIR.
 */
export function databaseLocation(env: NodeJS.ProcessEnv = process.env): { databaseUrl: string } | { sqliteFile: string } {
  if (env.DATABASE_URL) return { databaseUrl: env.DATABASE_URL };
  return { sqliteFile: path.resolve(env.DATA_DIR || schema.shape.DATA_DIR.parse(undefined), SQLITE_FILE) };
}

/** Reads a secret from DATA_DIR, creating it (mode 0600) on first use so a restart keeps sessions. */
function persistedSecret(dataDir: string, name: string): string {
  const file = path.join(dataDir, name);
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(48).toString('base64url');
  writeFileSync(file, secret + '\n', { mode: 0o600 });
  chmodSync(file, 0o600);
  return secret;
}

function parseTrustProxy(value: string | undefined): boolean | number | string {
  if (value === undefined || value === 'false') return false;
  if (value === 'true') return true;
  return /^\d+$/.test(value) ? Number(value) : value;
}

function storageOf(e: z.output<typeof schema>, dataDir: string): StorageConfig {
  if (!e.STORAGE_URL) return { driver: 'local', dir: path.join(dataDir, 'files') };
  const [bucket, ...rest] = e.STORAGE_URL.slice('s3://'.length).split('/');
  return {
    driver: 's3',
    bucket: bucket!,
    prefix: rest.filter(Boolean).join('/'),
    endpoint: e.S3_ENDPOINT,
    region: e.S3_REGION,
    forcePathStyle: e.S3_FORCE_PATH_STYLE,
    credentials: e.AWS_ACCESS_KEY_ID
      ? { accessKeyId: e.AWS_ACCESS_KEY_ID, secretAccessKey: e.AWS_SECRET_ACCESS_KEY!, ...(e.AWS_SESSION_TOKEN ? { sessionToken: e.AWS_SESSION_TOKEN } : {}) }
      : undefined,
  };
}

/** Environment -> validated Config; a bad value throws a ConfigError naming the variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const raw = Object.fromEntries(
    Object.keys(schema.shape).map((k) => [k, env[k] === '' && k !== 'CORS_ORIGINS' ? undefined : env[k]]),
  );
  const parsed = schema.safeParse(raw);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`Invalid configuration: ${lines.join('; ')}`);
  }
  const e = parsed.data;
  const production = e.NODE_ENV === 'production';
  const dataDir = path.resolve(e.DATA_DIR);

  if (production && (!e.JWT_SECRET || Buffer.byteLength(e.JWT_SECRET) < 32)) {
    throw new ConfigError('JWT_SECRET: must be set to at least 32 bytes when NODE_ENV=production');
  }
  if (production && e.ADMIN_CONSOLE_ENABLED && (!e.ADMIN_COOKIE_SECRET || Buffer.byteLength(e.ADMIN_COOKIE_SECRET) < 32)) {
    throw new ConfigError('ADMIN_COOKIE_SECRET: must be set to at least 32 bytes when NODE_ENV=production');
  }
  if (e.PUSH_PROVIDER === 'fcm' && !e.FCM_SERVICE_ACCOUNT_FILE) {
    throw new ConfigError('FCM_SERVICE_ACCOUNT_FILE: required when PUSH_PROVIDER=fcm');
  }
  if (e.FCM_SERVICE_ACCOUNT_FILE && e.PUSH_PROVIDER === 'fcm' && !existsSync(e.FCM_SERVICE_ACCOUNT_FILE)) {
    throw new ConfigError(`FCM_SERVICE_ACCOUNT_FILE: no file at ${e.FCM_SERVICE_ACCOUNT_FILE}`);
  }
  if (e.SMS_PROVIDER === 'twilio') {
    if (!e.TWILIO_ACCOUNT_SID) throw new ConfigError('TWILIO_ACCOUNT_SID: required when SMS_PROVIDER=twilio');
    if (!e.TWILIO_AUTH_TOKEN) throw new ConfigError('TWILIO_AUTH_TOKEN: required when SMS_PROVIDER=twilio');
    if (!e.TWILIO_FROM && !e.TWILIO_MESSAGING_SERVICE_SID) {
      throw new ConfigError('TWILIO_FROM: required when SMS_PROVIDER=twilio, unless TWILIO_MESSAGING_SERVICE_SID names the sender');
    }
  }
  if (e.AWS_ACCESS_KEY_ID && !e.AWS_SECRET_ACCESS_KEY) throw new ConfigError('AWS_SECRET_ACCESS_KEY: required with AWS_ACCESS_KEY_ID');
  const corsOrigins = e.CORS_ORIGINS.split(',').map((s) => s.trim()).filter(Boolean);
  for (const origin of corsOrigins) {
    if (!/^https?:\/\/[^/\s]+$/.test(origin)) {
      throw new ConfigError(`CORS_ORIGINS: "${origin}" is not an origin such as https://app.example.org`);
    }
  }

  return {
    port: e.PORT,
    host: e.HOST,
    dataDir,
    databaseUrl: e.DATABASE_URL,
    production,
    jwtSecret: e.JWT_SECRET ?? persistedSecret(dataDir, 'jwt-secret'),
    adminSessionHours: e.ADMIN_SESSION_HOURS,
    corsOrigins,
    signupEnabled: e.SIGNUP_ENABLED,
    rateLimitPublic: e.RATE_LIMIT_PUBLIC,
    rateLimitAuth: e.RATE_LIMIT_AUTH,
    loginRateLimitIp: e.LOGIN_RATE_LIMIT_IP,
    sessionPruneDays: e.SESSION_PRUNE_DAYS,
    writeToArchiveDays: e.WRITE_TO_ARCHIVE_DAYS,
    retentionArchivedDays: e.RETENTION_ARCHIVED_DAYS,
    maintenanceIntervalSeconds: e.MAINTENANCE_INTERVAL_SECONDS,
    pushProvider: e.PUSH_PROVIDER,
    fcmServiceAccountFile: e.FCM_SERVICE_ACCOUNT_FILE,
    httpsProxy: e.HTTPS_PROXY,
    adminCookieSecret: e.ADMIN_COOKIE_SECRET ?? persistedSecret(dataDir, 'admin-cookie-secret'),
    publicAppUrl: e.PUBLIC_APP_URL.replace(/\/$/, ''),
    logLevel: e.LOG_LEVEL,
    adminConsoleEnabled: e.ADMIN_CONSOLE_ENABLED,
    metricsEnabled: e.METRICS_ENABLED,
    trustProxy: parseTrustProxy(e.TRUST_PROXY),
    redisUrl: e.REDIS_URL,
    dbQueryTimeoutMs: e.DB_QUERY_TIMEOUT_MS,
    shutdownGraceSeconds: e.SHUTDOWN_GRACE_SECONDS,
    webhookAllowPrivate: e.WEBHOOK_ALLOW_PRIVATE,
    smsProvider: e.SMS_PROVIDER,
    twilio: e.TWILIO_ACCOUNT_SID && e.TWILIO_AUTH_TOKEN
      ? { accountSid: e.TWILIO_ACCOUNT_SID, authToken: e.TWILIO_AUTH_TOKEN, from: e.TWILIO_FROM, messagingServiceSid: e.TWILIO_MESSAGING_SERVICE_SID }
      : undefined,
    twilioAuthToken: e.TWILIO_AUTH_TOKEN,
    smsDefaultCountry: e.SMS_DEFAULT_COUNTRY,
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM ?? `no-reply@${new URL(e.PUBLIC_APP_URL).hostname}`,
    storage: storageOf(e, dataDir),
    fileUrlTtlSeconds: e.FILE_URL_TTL_SECONDS,
    storageTimeoutMs: 10_000,
    runJobs: true,
  };
}
