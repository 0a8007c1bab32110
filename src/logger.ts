import { destination as pinoDestination, pino, type Logger as PinoLogger } from 'pino';

/** Structured JSON logs on stdout (one line per entry), the format log shippers expect. */
export type Logger = PinoLogger;

export const createLogger = (level: string, destination: 'stdout' | 'stderr' = 'stdout'): Logger =>
  pino({ level, base: { service: 'sav-order-service' } }, pinoDestination(destination === 'stdout' ? 1 : 2));
