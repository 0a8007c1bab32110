import { execFile } from 'node:child_process';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { Writable } from 'node:stream';
import { promisify } from 'node:util';
import { pino } from 'pino';
import type { OrderImportPayload } from '../../src/events/sales/import-sale.ts';
import { order } from '../rest/chatbot/chatbot-api.ts';
import { cliArguments } from '../support/service-command.ts';

/** The customer who asks to be erased, with values found nowhere else, and another who stays. */

export const erasedEmail = 'Clairette.Effacee@example.org';

/** Every personal value of the erased customer the scenario records (orders, address change, SAVs, lead). */
export const erasedValues = [
  'Clairette.Effacee@example.org',
  'clairette.effacee@example.org',
  'Clairette',
  'Effacée',
  '+33611223344',
  '+33699887766',
  '12 rue des Lilas',
  'Bâtiment Glycine',
  '69231',
  '69100',
  'Saint-Genis-Glycine',
  '7 impasse des Facturés',
  'Villeurbanne-Nord',
  '8 quai Perrache-Ouest',
  'Le pied du canapé Oslo est cassé net',
  'Interphone Glycine 12',
  'Cuisine de Saint-Genis-Glycine',
  'Mobilier Effacée SARL',
] as const;

export const keptValues = ['bob.reste@example.org', 'Bob', 'Resteplace', '+33655443322', '3 avenue des Gardés', 'Montluçon', 'Salle de bain de Bob'] as const;

export const erasedOrder = (incrementId: string, overrides: Partial<OrderImportPayload> = {}): OrderImportPayload =>
  order({
    increment_id: incrementId,
    customer: { email: erasedEmail, firstname: 'Clairette', lastname: 'Effacée', phone: '+33611223344' },
    // A sole trader's company, named after her: its name is hers, its SIREN and VAT number the company's.
    business_customer: { company_name: 'Mobilier Effacée SARL', siren: '443061841', vat_number: 'FR64443061841' },
    shipping_address: {
      firstname: 'Clairette',
      lastname: 'Effacée',
      company: 'Mobilier Effacée SARL',
      street: ['12 rue des Lilas', 'Bâtiment Glycine'],
      postcode: '69231',
      city: 'Saint-Genis-Glycine',
      country_id: 'FR',
      telephone: '+33611223344',
    },
    billing_address: {
      firstname: 'Clairette',
      lastname: 'Effacée',
      street: ['7 impasse des Facturés'],
      postcode: '69100',
      city: 'Villeurbanne-Nord',
      country_id: 'FR',
    },
    ...overrides,
  });

export const keptOrder = (incrementId: string): OrderImportPayload =>
  order({
    increment_id: incrementId,
    customer: { email: 'bob.reste@example.org', firstname: 'Bob', lastname: 'Resteplace', phone: '+33655443322' },
    shipping_address: {
      firstname: 'Bob',
      lastname: 'Resteplace',
      street: ['3 avenue des Gardés'],
      postcode: '03100',
      city: 'Montluçon',
      country_id: 'FR',
      telephone: '+33655443322',
    },
  });

/** The forms a value takes in files: as is (UTF-8) and escaped in JSON (`\u00e9`, as some writers do). */
const byteForms = (value: string): Buffer[] => {
  const escaped = value.replace(/[\u0080-\uffff]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
  return [...new Set([value, escaped, JSON.stringify(value).slice(1, -1)])].map((form) => Buffer.from(form, 'utf8'));
};

/** Every file under a folder, recursively. */
export const filesUnder = async (folder: string): Promise<string[]> => {
  const entries = await readdir(folder, { withFileTypes: true, recursive: true });
  return entries.filter((entry) => entry.isFile()).map((entry) => path.join(entry.parentPath, entry.name));
};

/** Which of the values occur, in any of their forms, in the raw bytes of which files under the folder. */
export const valuesOnDisk = async (folder: string, values: readonly string[]): Promise<string[]> => {
  const found: string[] = [];
  for (const file of await filesUnder(folder)) {
    const bytes = await readFile(file);
    for (const value of values) if (byteForms(value).some((form) => bytes.includes(form))) found.push(`${value} in ${path.relative(folder, file)}`);
  }
  return found;
};

/** The values that occur in a text. */
export const valuesIn = (text: string, values: readonly string[]): string[] => values.filter((value) => text.includes(value));

/** The service's JSON log lines as a log shipper reads them from stdout. */
export const collectedLog = () => {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
      done();
    },
  });
  return { lines, log: pino({ level: 'debug' }, stream) };
};

const run = promisify(execFile);

/** The CLI as an operator runs it, in a process of its own on the same stores. */
export const cli = async (dataDir: string, env: Record<string, string>, ...args: string[]) => {
  try {
    const { stdout, stderr } = await run(process.execPath, cliArguments(...args), {
      env: { PATH: process.env.PATH, HOME: process.env.HOME, DATA_DIR: dataDir, LOG_LEVEL: 'warn', ...env },
      maxBuffer: 64 * 1024 * 1024,
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
};
