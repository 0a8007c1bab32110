import { execFile, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { access, copyFile, mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

/**
 * The independent implementation the log's Merkle tree is checked against: a small Go program over
 * golang.org/x/mod/sumdb/tlog (the Go checksum database's tree, RFC 6962/9162 hashing), built from the
 * Go module proxy once per version of its sources, in .cache/tlog-check/<digest>/.
 */

const sources = fileURLToPath(new URL('tlog-check/', import.meta.url));
const cache = fileURLToPath(new URL('../../../.cache/tlog-check/', import.meta.url));
const files = ['go.mod', 'go.sum', 'main.go'];

export const buildTlogCheck = async (): Promise<string> => {
  const digest = createHash('sha256');
  for (const file of files) digest.update(await readFile(join(sources, file)));
  const dir = join(cache, digest.digest('hex').slice(0, 16));
  const binary = join(dir, 'tlog-check');
  try {
    await access(binary);
    return binary;
  } catch {
    // built below
  }
  await mkdir(dir, { recursive: true });
  for (const file of files) await copyFile(join(sources, file), join(dir, file));
  await promisify(execFile)('go', ['build', '-o', binary, '.'], {
    cwd: dir,
    env: { ...process.env, GOFLAGS: '-mod=mod', CGO_ENABLED: '0' },
    timeout: 240_000,
  });
  return binary;
};

export type TlogRequest = {
  leaves: Uint8Array[];
  inclusion?: { index: number; size: number; leaf: Uint8Array; proof: Uint8Array[]; root: Uint8Array }[];
  consistency?: { first: number; second: number; proof: Uint8Array[]; firstRoot: Uint8Array; secondRoot: Uint8Array }[];
};

export type TlogAnswer = { roots: Buffer[]; inclusion: boolean[]; consistency: boolean[] };

const b64 = (bytes: Uint8Array): string => Buffer.from(bytes).toString('base64');

/** Runs the Go program on a request: the roots of the leaves at every size, and whether each proof holds. */
export const runTlogCheck = async (binary: string, request: TlogRequest): Promise<TlogAnswer> => {
  const body = JSON.stringify({
    leaves: request.leaves.map(b64),
    inclusion: (request.inclusion ?? []).map((c) => ({ ...c, leaf: b64(c.leaf), proof: c.proof.map(b64), root: b64(c.root) })),
    consistency: (request.consistency ?? []).map((c) => ({ ...c, proof: c.proof.map(b64), firstRoot: b64(c.firstRoot), secondRoot: b64(c.secondRoot) })),
  });
  const child = spawn(binary, [], { stdio: ['pipe', 'pipe', 'pipe'] });
  const out: Buffer[] = [];
  const err: Buffer[] = [];
  child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
  child.stderr.on('data', (chunk: Buffer) => err.push(chunk));
  child.stdin.end(body);
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  if (code !== 0) throw new Error(`tlog-check exited ${code}: ${Buffer.concat(err).toString()}`);
  const parsed = JSON.parse(Buffer.concat(out).toString()) as { roots: string[] | null; inclusion: boolean[] | null; consistency: boolean[] | null };
  return { roots: (parsed.roots ?? []).map((root) => Buffer.from(root, 'base64')), inclusion: parsed.inclusion ?? [], consistency: parsed.consistency ?? [] };
};
