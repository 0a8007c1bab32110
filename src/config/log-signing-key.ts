import { createPrivateKey } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { generateSigningKeyPem, signingKeyFromPem, type SigningKey } from '../events/audit/tree-head.ts';

/**
 * The Ed25519 key the notary signs the log's tree heads with. Given by LOG_SIGNING_KEY (a PKCS#8 PEM,
 * or the 32-byte private seed in base64); without it, generated once and kept in
 * DATA_DIR/log-signing-key.pem (mode 0600), as the token secret is, so that the server and the CLI agree.
 */
export const logSigningKeyFile = (dataDir: string): string => path.join(dataDir, 'log-signing-key.pem');

const PKCS8_ED25519_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');

/** The key of a LOG_SIGNING_KEY value, or null when it is no Ed25519 private key. */
export const parseSigningKey = (value: string): SigningKey | null => {
  const trimmed = value.trim();
  try {
    if (trimmed.startsWith('-----BEGIN')) return signingKeyFromPem(trimmed);
    const seed = Buffer.from(trimmed, 'base64');
    if (seed.length !== 32) return null;
    const pem = createPrivateKey({ key: Buffer.concat([PKCS8_ED25519_PREFIX, seed]), format: 'der', type: 'pkcs8' })
      .export({ format: 'pem', type: 'pkcs8' })
      .toString();
    return signingKeyFromPem(pem);
  } catch {
    return null;
  }
};

export const resolveLogSigningKey = (configured: string | undefined, dataDir: string): SigningKey => {
  if (configured) {
    const key = parseSigningKey(configured);
    if (!key) throw new TypeError('LOG_SIGNING_KEY: must be an Ed25519 private key (PKCS#8 PEM, or its 32-byte seed in base64)');
    return key;
  }
  const file = logSigningKeyFile(dataDir);
  try {
    return signingKeyFromPem(readFileSync(file, 'utf8'));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  mkdirSync(dataDir, { recursive: true });
  const pem = generateSigningKeyPem();
  try {
    // 'wx': if another process created it first, keep theirs.
    writeFileSync(file, pem, { mode: 0o600, flag: 'wx' });
    return signingKeyFromPem(pem);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    return signingKeyFromPem(readFileSync(file, 'utf8'));
  }
};
