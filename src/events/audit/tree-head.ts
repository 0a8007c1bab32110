import { createHash, createPrivateKey, createPublicKey, generateKeyPairSync, sign, verify, type KeyObject } from 'node:crypto';

/**
 * A signed tree head: the size of the log's Merkle tree, its root, when and with which key the notary
 * signed them, and the Ed25519 signature. The signed message is the UTF-8 text
 *
 *   sav-order-service event log tree head v1\n<treeSize>\n<rootHash base64>\n<signedAt>\n<keyId>\n
 *
 * A key is named by its key ID: the first 8 bytes, in hex, of SHA-256 of its raw 32-byte Ed25519
 * public key. Public keys travel as that raw key in base64, or as a PEM (SPKI) text.
 */
export type TreeHead = {
  treeSize: number;
  rootHash: string;
  signedAt: string;
  keyId: string;
  signature: string;
};

const headline = 'sav-order-service event log tree head v1';

export const signedMessage = (head: Omit<TreeHead, 'signature'>): Buffer =>
  Buffer.from(`${headline}\n${head.treeSize}\n${head.rootHash}\n${head.signedAt}\n${head.keyId}\n`, 'utf8');

/** The raw 32 bytes of an Ed25519 public key. */
export const rawPublicKey = (key: KeyObject): Buffer => {
  const der = key.export({ format: 'der', type: 'spki' });
  return der.subarray(der.length - 32);
};

export const keyIdOf = (publicKey: Uint8Array): string => createHash('sha256').update(publicKey).digest().subarray(0, 8).toString('hex');

/** An Ed25519 public key given as its raw 32 bytes in base64, or as PEM; null when it is neither. */
export const parsePublicKey = (text: string): KeyObject | null => {
  const trimmed = text.trim();
  try {
    if (trimmed.startsWith('-----BEGIN')) {
      const key = createPublicKey(trimmed);
      return key.asymmetricKeyType === 'ed25519' ? key : null;
    }
    const raw = Buffer.from(trimmed, 'base64');
    if (raw.length !== 32 || raw.toString('base64') !== trimmed) return null;
    // SPKI of an Ed25519 key: a fixed 12-byte prefix, then the raw key.
    return createPublicKey({ key: Buffer.concat([Buffer.from('302a300506032b6570032100', 'hex'), raw]), format: 'der', type: 'spki' });
  } catch {
    return null;
  }
};

export type SigningKey = { privateKey: KeyObject; publicKey: KeyObject; raw: Buffer; keyId: string };

export const signingKeyFromPem = (pem: string): SigningKey => {
  const privateKey = createPrivateKey(pem);
  if (privateKey.asymmetricKeyType !== 'ed25519') throw new TypeError('The log signing key must be an Ed25519 private key (PEM, PKCS#8)');
  const publicKey = createPublicKey(privateKey);
  const raw = rawPublicKey(publicKey);
  return { privateKey, publicKey, raw, keyId: keyIdOf(raw) };
};

export const generateSigningKeyPem = (): string => generateKeyPairSync('ed25519').privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();

export const signTreeHead = (key: SigningKey, treeSize: number, root: Uint8Array, signedAt: string): TreeHead => {
  const unsigned = { treeSize, rootHash: Buffer.from(root).toString('base64'), signedAt, keyId: key.keyId };
  return { ...unsigned, signature: sign(null, signedMessage(unsigned), key.privateKey).toString('base64') };
};

/** Whether the head's signature is the key's, the key being the one its key ID names. */
export const verifyTreeHead = (head: TreeHead, publicKey: KeyObject): boolean => {
  if (keyIdOf(rawPublicKey(publicKey)) !== head.keyId) return false;
  try {
    return verify(null, signedMessage(head), publicKey, Buffer.from(head.signature, 'base64'));
  } catch {
    return false;
  }
};
