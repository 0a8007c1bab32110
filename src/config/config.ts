import { randomBytes } from 'node:crypto';
import { accessSync, constants } from 'node:fs';
import { availableParallelism, hostname } from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { isValidNamespace } from '../events/store/namespaced-event-store.ts';
import { parseSigningKey } from './log-signing-key.ts';
import { customerMailKinds, type CustomerMailKind } from '../events/customer-mails/events.ts';
import { sellerFromEnvironment, type Seller } from './seller-settings.ts';

/**
 * The service's configuration, read from the environment once at start and validated: a bad value
 * stops the process with a message naming the variable, before anything is opened.
 */

/** WEBHOOK_DELIVERIES_PER_SECOND's one message, whatever is wrong with it. */
const webhookPaceRule = 'must be a whole number from 1 to 100000 (messages a second)';
const emptyAsUndefined = (value: unknown) => (value === '' ? undefined : value);
const optionalString = z.preprocess(emptyAsUndefined, z.string().optional());

const booleanFlag = z.preprocess(
  emptyAsUndefined,
  z
    .enum(['true', 'false', '1', '0'], 'must be true or false')
    .default('false')
    .transform((flag) => flag === 'true' || flag === '1'),
);

const isReadable = (file: string): boolean => {
  try {
    accessSync(file, constants.R_OK);
    return true;
  } catch {
    return false;
  }
};

const isTimeZone = (zone: string): boolean => {
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
};

const environment = z.object({
  PORT: z.preprocess(emptyAsUndefined, z.coerce.number().int().min(0).max(65535).default(3000)),
  HOST: z.preprocess(emptyAsUndefined, z.string().default('0.0.0.0')),
  DATA_DIR: z.preprocess(emptyAsUndefined, z.string().default('./data')),
  BASE_URL: z.preprocess(emptyAsUndefined, z.url({ protocol: /^https?$/ }).optional()),
  TOKEN_SECRET: z.preprocess(emptyAsUndefined, z.string().min(32, 'must be at least 32 characters').optional()),
  PLANNING_TIMEZONE: z.preprocess(emptyAsUndefined, z.string().default('Europe/Paris').refine(isTimeZone, 'must be an IANA time zone, e.g. Europe/Paris')),
  EVENTSTORE_URL: z.preprocess(
    emptyAsUndefined,
    z
      .string()
      .regex(/^(esdb|esdb\+discover|kurrentdb|kurrentdb\+discover):\/\//, 'must be an esdb:// or kurrentdb:// connection string')
      .optional(),
  ),
  EVENTSTORE_NAMESPACE: z.preprocess(emptyAsUndefined, z.string().refine(isValidNamespace, 'must be letters, digits and _ only').optional()),
  MONGODB_URL: z.preprocess(
    emptyAsUndefined,
    z
      .string()
      .regex(/^mongodb(\+srv)?:\/\//, 'must be a mongodb:// connection string')
      .optional(),
  ),
  KEYSTORE_MONGODB_URL: z.preprocess(
    emptyAsUndefined,
    z
      .string()
      .regex(/^mongodb(\+srv)?:\/\//, 'must be a mongodb:// connection string')
      .optional(),
  ),
  PROJECTION_LEASE_TTL_MS: z.preprocess(emptyAsUndefined, z.coerce.number().int().min(1000, 'must be at least 1000 (ms)').default(10_000)),
  INSTANCE_ID: optionalString,
  READ_YOUR_WRITES_TIMEOUT_MS: z.preprocess(emptyAsUndefined, z.coerce.number().int().min(0).max(600_000, 'must be at most 600000 (ms)').default(2_000)),
  PROJECTION_BATCH_SIZE: z.preprocess(emptyAsUndefined, z.coerce.number().int().min(1).max(100_000, 'must be at most 100000').default(2_000)),
  SMTP_URL: z.preprocess(
    emptyAsUndefined,
    z
      .string()
      .regex(/^smtps?:\/\//, 'must be an smtp:// or smtps:// URL')
      .optional(),
  ),
  MAIL_FROM: z.preprocess(emptyAsUndefined, z.string().default('Service commandes <no-reply@localhost>')),
  LEAD_NOTIFY_TO: z.preprocess(emptyAsUndefined, z.string().default('equipe@localhost')),
  LEAD_NOTIFY_EVERY_SECONDS: z.preprocess(emptyAsUndefined, z.coerce.number().int().min(1, 'must be 1 to 59 (s)').max(59, 'must be 1 to 59 (s)').default(30)),
  /** The kinds of customer mails sent, comma-separated; `all` (default) or `none`. */
  CUSTOMER_MAIL_KINDS: z.preprocess(
    emptyAsUndefined,
    z
      .string()
      .default('all')
      .transform((value, context) => {
        const names = value
          .split(',')
          .map((name) => name.trim())
          .filter((name) => name.length > 0);
        if (names.length === 1 && names[0] === 'all') return [...customerMailKinds];
        if (names.length === 1 && names[0] === 'none') return [];
        const unknown = names.filter((name) => !(customerMailKinds as readonly string[]).includes(name));
        if (unknown.length > 0)
          context.addIssue({ code: 'custom', message: `unknown kind(s) ${unknown.join(', ')}: all, none, or among ${customerMailKinds.join(', ')}` });
        return names as CustomerMailKind[];
      }),
  ),
  LOG_LEVEL: z.preprocess(emptyAsUndefined, z.enum(['debug', 'info', 'warn', 'error', 'silent']).default('info')),
  NODE_ENV: optionalString,
  TLS_CERT_FILE: z.preprocess(emptyAsUndefined, z.string().refine(isReadable, 'must be a readable file').optional()),
  TLS_KEY_FILE: z.preprocess(emptyAsUndefined, z.string().refine(isReadable, 'must be a readable file').optional()),
  TRUST_PROXY: booleanFlag,
  HSTS_MAX_AGE: z.preprocess(emptyAsUndefined, z.coerce.number().int().min(0).default(31_536_000)),
  GRAPHQL_INTROSPECTION: z.preprocess(emptyAsUndefined, z.enum(['true', 'false', '1', '0'], 'must be true or false').optional()),
  METRICS_TOKEN: z.preprocess(
    emptyAsUndefined,
    z
      .string()
      .regex(/^\S{32,}$/, 'must be at least 32 characters, no spaces')
      .optional(),
  ),
  PDF_WORKERS: z.preprocess(emptyAsUndefined, z.coerce.number().int().min(1).max(64, 'must be at most 64').optional()),
  PDF_QUEUE: z.preprocess(emptyAsUndefined, z.coerce.number().int().min(0).max(10_000, 'must be at most 10000').default(64)),
  PDF_TIMEOUT_MS: z.preprocess(
    emptyAsUndefined,
    z.coerce.number().int().min(100, 'must be at least 100 (ms)').max(600_000, 'must be at most 600000 (ms)').default(10_000),
  ),
  /** The approved platform the e-invoices and e-reporting are handed to; unset: nothing is sent. */
  PLATFORM_URL: z.preprocess(emptyAsUndefined, z.url({ protocol: /^https?$/ }).optional()),
  PLATFORM_TOKEN: z.preprocess(emptyAsUndefined, z.string().regex(/^\S+$/, 'must have no spaces').optional()),
  PLATFORM_BASIC_AUTH: z.preprocess(
    emptyAsUndefined,
    z
      .string()
      .regex(/^[^:\s]+:\S+$/, 'must be user:password')
      .optional(),
  ),
  /** Seconds between two runs of the platform outbox (in the one instance holding its lease). */
  PLATFORM_EVERY_SECONDS: z.preprocess(emptyAsUndefined, z.coerce.number().int().min(1, 'must be 1 to 59 (s)').max(59, 'must be 1 to 59 (s)').default(5)),
  /** The first day whose documents are sent, and whose business sales are invoiced without anyone asking (local date); unset: every document the log holds. */
  PLATFORM_FROM: z.preprocess(emptyAsUndefined, z.iso.date('must be a date, YYYY-MM-DD').optional()),
  /** The most webhook messages this instance sends a second, on average over its subscriptions: a backlog's drain leaves the API its share. */
  WEBHOOK_DELIVERIES_PER_SECOND: z.preprocess(
    emptyAsUndefined,
    z.coerce.number({ error: webhookPaceRule }).int(webhookPaceRule).min(1, webhookPaceRule).max(100_000, webhookPaceRule).default(600),
  ),
  /** Tests only (refused in production): `host:port` receivers exempt from the webhooks' address policy. */
  WEBHOOK_TEST_RECEIVERS: optionalString,
  /** Tests only (refused in production): a PEM certificate the webhooks trust beside the system's (a self-signed receiver). */
  WEBHOOK_TEST_CA_FILE: z.preprocess(emptyAsUndefined, z.string().refine(isReadable, 'must be a readable file').optional()),
  GRAPHQL_TIME_BUDGET_MS: z.preprocess(
    emptyAsUndefined,
    z.coerce.number().int().min(10, 'must be at least 10 (ms)').max(600_000, 'must be at most 600000 (ms)').default(5_000),
  ),
  GRAPHQL_RATE_LIMIT: z.preprocess(emptyAsUndefined, z.coerce.number().int().min(0).default(300)),
  LOG_NOTARY: z.preprocess(emptyAsUndefined, z.enum(['on', 'off'], 'must be on or off').default('on')),
  LOG_SIGNING_KEY: z.preprocess(
    emptyAsUndefined,
    z
      .string()
      .refine((value) => parseSigningKey(value) !== null, 'must be an Ed25519 private key (PKCS#8 PEM, or its 32-byte seed in base64)')
      .optional(),
  ),
  LOG_TREE_FILE: optionalString,
  LOG_HEAD_EVERY_EVENTS: z.preprocess(emptyAsUndefined, z.coerce.number().int().min(1).max(1_000_000, 'must be at most 1000000').default(1_000)),
  LOG_HEAD_EVERY_SECONDS: z.preprocess(
    emptyAsUndefined,
    // An event waits at most this long for a head covering it, plus the signing: 4 s keeps that under 5 s.
    z.coerce.number().min(0.1, 'must be at least 0.1 (s)').max(86_400, 'must be at most 86400 (s)').default(4),
  ),
});

export type Config = {
  port: number;
  host: string;
  dataDir: string;
  baseUrl: string;
  /** Signs action tokens; generated and kept under DATA_DIR when not given. */
  tokenSecret: string | undefined;
  planningTimezone: string;
  eventStoreUrl: string | undefined;
  /** With eventStoreUrl: this service's streams are `<namespace>.<stream>` in a store shared with others. */
  eventStoreNamespace: string | undefined;
  mongodbUrl: string | undefined;
  /**
   * Where the customers' keys are kept (crypto-shredding): this MongoDB URL, else MONGODB_URL's server
   * in a database of its own, else `DATA_DIR/keys.sqlite`.
   */
  keystoreMongodbUrl: string | undefined;
  /**
   * With MONGODB_URL, instances sharing the database run each projection, and each singleton job (the
   * label backlog, the lead mails), in one of them, holding a lease this long (renewed every third of
   * it): how long a projection or a job may stay unrun after its instance died.
   */
  projectionLeaseTtlMs: number;
  /** How long a command waits for the read models to show its events before answering anyway. */
  readYourWritesTimeoutMs: number;
  /** Events the projections take per batch while catching up (live, a batch is what has arrived). */
  projectionBatchSize: number;
  /** Names this instance among those sharing the read store (lease owner); host name, process id and a random suffix by default. */
  instanceId: string;
  smtpUrl: string | undefined;
  mailFrom: string;
  leadNotifyTo: string;
  /** Seconds between two runs of the lead mail job (in the instance holding its lease). */
  leadNotifyEverySeconds: number;
  /** The kinds of customer mails the outbox sends (CUSTOMER_MAIL_KINDS). */
  customerMailKinds: CustomerMailKind[];
  logLevel: 'debug' | 'info' | 'warn' | 'error' | 'silent';
  production: boolean;
  /** The certificate and key files (PEM) the service serves TLS with; absent: plain HTTP (or a TLS-terminating proxy in front). */
  tls: { certFile: string; keyFile: string } | undefined;
  /** Trust `X-Forwarded-Proto/-For/-Host` from a proxy in front; off by default, as any client could forge them. */
  trustProxy: boolean;
  /** Seconds of the `Strict-Transport-Security` header sent over HTTPS. */
  hstsMaxAge: number;
  /** Whether /graphql answers introspection queries; by default on, except in production. */
  graphqlIntrospection: boolean;
  /** A Bearer token for GET /metrics (the scraper's), besides the analyst group's tokens. */
  metricsToken: string | undefined;
  /**
   * The PDF renderers (labels, invoices): worker threads, how many documents people wait for may
   * queue before a 503, and the time limit of one document.
   */
  pdf: { workers: number; maxQueue: number; timeoutMs: number };
  /** Milliseconds an operation may run before its remaining fields are abandoned with TIME_BUDGET_EXCEEDED. */
  graphqlTimeBudgetMs: number;
  /** Operations per minute per token on /graphql (a token bucket of that size); 0: no limit. */
  graphqlRateLimit: number;
  /**
   * The log's Merkle tree and its notary (LOG_NOTARY, on by default): every server follows the log into
   * its tree (treeFile, on this instance's own disk), the one holding the notary's lease signs heads,
   * which are events appended to the log, with its signing key (required in production; generated
   * under DATA_DIR otherwise) every N events or T seconds.
   */
  logNotary: { enabled: boolean; signingKey: string | undefined; treeFile: string; headEveryEvents: number; headEverySeconds: number };
  /** The seller the invoices and credit notes name, with its legal mentions (SELLER_*; demo values outside production). */
  seller: Seller;
  /** The most webhook messages this instance sends a second (WEBHOOK_DELIVERIES_PER_SECOND, 600 by default). */
  webhookDeliveriesPerSecond: number;
  /** The webhooks' test exemptions (WEBHOOK_TEST_*): loopback receivers and their certificate; empty in production. */
  webhookTest: { allowHosts: string[]; caFile: string | undefined };
  /**
   * The approved platform the e-invoices and the e-reporting are handed to (PLATFORM_*), with the
   * documents from `from` on (every one when null); null when PLATFORM_URL is unset: nothing is sent.
   */
  platform: PlatformConfig | null;
};

export type PlatformConfig = {
  url: string;
  credentials: { kind: 'bearer'; token: string } | { kind: 'basic'; user: string; password: string };
  from: string | null;
  everySeconds: number;
};

/** One core is left to the event loop (HTTP, projections, the embedded stores); at least one renderer. */
export const defaultPdfWorkers = (): number => Math.max(1, availableParallelism() - 1);

export class ConfigError extends Error {
  readonly code = 'CONFIG_INVALID';
  constructor(readonly problems: string[]) {
    // One problem on one line; several as a list.
    super(
      problems.length === 1 ? `Invalid configuration: ${problems[0]}` : `Invalid configuration:\n${problems.map((problem) => `  - ${problem}`).join('\n')}`,
    );
    this.name = 'ConfigError';
  }
}

export const loadConfig = (env: NodeJS.ProcessEnv = process.env): Config => {
  const parsed = environment.safeParse(env);
  if (!parsed.success) {
    throw new ConfigError(parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`));
  }
  const values = parsed.data;
  const production = values.NODE_ENV === 'production';
  const seller = sellerFromEnvironment(env, production);
  // A generated secret would differ between instances and invalidate every action token on a new
  // machine; a generated signing key would differ between instances too, and leave with its volume.
  const missingSecrets = production
    ? [
        ...(values.TOKEN_SECRET ? [] : ['TOKEN_SECRET: required when NODE_ENV=production']),
        ...(values.LOG_SIGNING_KEY || values.LOG_NOTARY === 'off'
          ? []
          : ["LOG_SIGNING_KEY: required when NODE_ENV=production (the Ed25519 key the log's tree heads are signed with), unless LOG_NOTARY=off"]),
      ]
    : [];
  if (missingSecrets.length > 0 || seller.seller === null) throw new ConfigError([...missingSecrets, ...seller.problems]);
  if (production && (values.WEBHOOK_TEST_RECEIVERS || values.WEBHOOK_TEST_CA_FILE)) {
    throw new ConfigError(['WEBHOOK_TEST_RECEIVERS, WEBHOOK_TEST_CA_FILE: for tests only, never with NODE_ENV=production']);
  }
  const platform = platformOf(values, production);
  if (values.EVENTSTORE_NAMESPACE && !values.EVENTSTORE_URL) {
    throw new ConfigError(["EVENTSTORE_NAMESPACE: only with EVENTSTORE_URL (the embedded store is this service's alone)"]);
  }
  if ((values.TLS_CERT_FILE === undefined) !== (values.TLS_KEY_FILE === undefined)) {
    throw new ConfigError(['TLS_CERT_FILE, TLS_KEY_FILE: give both or neither']);
  }
  const tls = values.TLS_CERT_FILE && values.TLS_KEY_FILE ? { certFile: values.TLS_CERT_FILE, keyFile: values.TLS_KEY_FILE } : undefined;
  // Without BASE_URL, links point at the service itself, in the scheme it serves.
  const defaultBaseUrl = `${tls ? 'https' : 'http'}://localhost:${values.PORT}`;
  return {
    port: values.PORT,
    host: values.HOST,
    dataDir: path.resolve(values.DATA_DIR),
    baseUrl: (values.BASE_URL ?? defaultBaseUrl).replace(/\/+$/, ''),
    tokenSecret: values.TOKEN_SECRET,
    planningTimezone: values.PLANNING_TIMEZONE,
    eventStoreUrl: values.EVENTSTORE_URL,
    eventStoreNamespace: values.EVENTSTORE_NAMESPACE,
    mongodbUrl: values.MONGODB_URL,
    keystoreMongodbUrl: values.KEYSTORE_MONGODB_URL,
    projectionLeaseTtlMs: values.PROJECTION_LEASE_TTL_MS,
    readYourWritesTimeoutMs: values.READ_YOUR_WRITES_TIMEOUT_MS,
    projectionBatchSize: values.PROJECTION_BATCH_SIZE,
    // The random suffix tells apart two processes that reuse a host name and pid (containers).
    instanceId: values.INSTANCE_ID ?? `${hostname()}-${process.pid}-${randomBytes(4).toString('hex')}`,
    smtpUrl: values.SMTP_URL,
    mailFrom: values.MAIL_FROM,
    leadNotifyTo: values.LEAD_NOTIFY_TO,
    leadNotifyEverySeconds: values.LEAD_NOTIFY_EVERY_SECONDS,
    customerMailKinds: values.CUSTOMER_MAIL_KINDS,
    logLevel: values.LOG_LEVEL,
    production,
    tls,
    trustProxy: values.TRUST_PROXY,
    hstsMaxAge: values.HSTS_MAX_AGE,
    graphqlIntrospection: values.GRAPHQL_INTROSPECTION === undefined ? !production : ['true', '1'].includes(values.GRAPHQL_INTROSPECTION),
    metricsToken: values.METRICS_TOKEN,
    pdf: { workers: values.PDF_WORKERS ?? defaultPdfWorkers(), maxQueue: values.PDF_QUEUE, timeoutMs: values.PDF_TIMEOUT_MS },
    graphqlTimeBudgetMs: values.GRAPHQL_TIME_BUDGET_MS,
    graphqlRateLimit: values.GRAPHQL_RATE_LIMIT,
    logNotary: {
      enabled: values.LOG_NOTARY === 'on',
      signingKey: values.LOG_SIGNING_KEY,
      treeFile: path.resolve(values.LOG_TREE_FILE ?? path.join(values.DATA_DIR, 'log-tree.sqlite')),
      headEveryEvents: values.LOG_HEAD_EVERY_EVENTS,
      headEverySeconds: values.LOG_HEAD_EVERY_SECONDS,
    },
    seller: seller.seller,
    webhookDeliveriesPerSecond: values.WEBHOOK_DELIVERIES_PER_SECOND,
    webhookTest: {
      allowHosts: (values.WEBHOOK_TEST_RECEIVERS ?? '')
        .split(',')
        .map((host) => host.trim())
        .filter((host) => host !== ''),
      caFile: values.WEBHOOK_TEST_CA_FILE,
    },
    platform,
  };
};

/** PLATFORM_URL with one kind of credentials, over HTTPS in production; null when unset. */
const platformOf = (values: z.infer<typeof environment>, production: boolean): PlatformConfig | null => {
  const { PLATFORM_URL: url, PLATFORM_TOKEN: token, PLATFORM_BASIC_AUTH: basic, PLATFORM_FROM: from } = values;
  if (!url) {
    if (token || basic || from) throw new ConfigError(['PLATFORM_TOKEN, PLATFORM_BASIC_AUTH, PLATFORM_FROM: only with PLATFORM_URL']);
    return null;
  }
  if (Boolean(token) === Boolean(basic)) throw new ConfigError(['PLATFORM_URL: give its credentials, PLATFORM_TOKEN or PLATFORM_BASIC_AUTH (one of them)']);
  if (production && !url.startsWith('https:')) throw new ConfigError(['PLATFORM_URL: must be https when NODE_ENV=production']);
  const separator = basic?.indexOf(':') ?? -1;
  return {
    url: url.replace(/\/+$/, ''),
    credentials: token ? { kind: 'bearer', token } : { kind: 'basic', user: basic!.slice(0, separator), password: basic!.slice(separator + 1) },
    from: from ?? null,
    everySeconds: values.PLATFORM_EVERY_SECONDS,
  };
};
