import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

/** A throw-away self-signed certificate for localhost, as PEM files in a temporary directory. */
export type SelfSigned = { certFile: string; keyFile: string; remove: () => Promise<void> };

export const selfSignedCertificate = async (): Promise<SelfSigned> => {
  const dir = await mkdtemp(path.join(tmpdir(), 'tls-'));
  const certFile = path.join(dir, 'cert.pem');
  const keyFile = path.join(dir, 'key.pem');
  await promisify(execFile)('openssl', [
    'req',
    '-x509',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-subj',
    '/CN=localhost',
    '-days',
    '1',
    '-keyout',
    keyFile,
    '-out',
    certFile,
  ]);
  return { certFile, keyFile, remove: () => rm(dir, { recursive: true, force: true }) };
};
