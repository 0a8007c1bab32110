import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/config.ts';
import { configProblems } from './config-problems.ts';
import { frenchVatNumber, isSiren, isSiret } from '../../src/config/french-identifiers.ts';
import { demoSeller } from '../../src/config/seller-settings.ts';
import { productionSeller } from '../support/production-seller.ts';
import { productionSecrets } from '../support/production-secrets.ts';
import { serviceArguments } from '../support/service-command.ts';

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, '../..');

const sellerVariables = [
  'SELLER_NAME',
  'SELLER_LEGAL_FORM',
  'SELLER_STREET',
  'SELLER_POSTCODE',
  'SELLER_CITY',
  'SELLER_SIRET',
  'SELLER_RCS',
  'SELLER_SHARE_CAPITAL',
  'SELLER_VAT_NUMBER',
  'SELLER_PAYMENT_TERMS',
  'SELLER_LATE_PAYMENT_PENALTIES',
];

describe('French company identifiers', () => {
  it('a SIREN is 9 digits with a Luhn check digit; a SIRET is its SIREN and a NIC, 14 digits checked as a whole', () => {
    expect(isSiren('732829320')).toBe(true);
    expect(isSiren('732829321')).toBe(false);
    expect(isSiren('73282932')).toBe(false);
    expect(isSiret('73282932000074')).toBe(true);
    expect(isSiret('73282932000075')).toBe(false);
    expect(isSiret('7328293200007')).toBe(false);
    // La Poste's establishments: the sum of the digits is a multiple of 5, not a Luhn check.
    expect(isSiret('35600000000010')).toBe(true);
    expect(isSiret('35600000000011')).toBe(false);
  });

  it('the VAT number of a French company is FR, the key (12 + 3 × (SIREN mod 97)) mod 97 on two digits, then the SIREN', () => {
    expect(frenchVatNumber('732829320')).toBe('FR44732829320');
    expect(frenchVatNumber('123456782')).toBe('FR11123456782');
    expect(frenchVatNumber('356000000')).toBe('FR39356000000');
  });
});

describe('the seller settings', () => {
  it('when none is set outside production, the invoices carry the demo identity, marked as such', () => {
    expect(loadConfig({}).seller).toEqual(demoSeller);
    expect(demoSeller.demo).toBe(true);
    expect(isSiret(demoSeller.siret)).toBe(true);
    expect(demoSeller.vatNumber).toBe(frenchVatNumber(demoSeller.siret.slice(0, 9)));
  });

  it('when in production without them, the configuration is refused naming each missing setting', () => {
    const problems = configProblems({ NODE_ENV: 'production', ...productionSecrets });
    for (const variable of sellerVariables) expect(problems).toContain(`${variable}: required when NODE_ENV=production (an invoice's legal mention)`);
    expect(problems).toHaveLength(sellerVariables.length);
  });

  it('when in production with every one of them, valid, the seller is the configured company, not a demo', () => {
    const { seller } = loadConfig({ NODE_ENV: 'production', ...productionSecrets, ...productionSeller });
    expect(seller).toEqual({
      name: 'Maison & Confort Distribution',
      legalForm: 'SAS',
      street: ['8 rue de la République', 'Bâtiment C'],
      postcode: '69001',
      city: 'Lyon',
      countryId: 'FR',
      siret: '73282932000074',
      rcsCity: 'Lyon',
      shareCapitalCents: 25_000_000,
      vatNumber: 'FR44732829320',
      paymentTerms: productionSeller.SELLER_PAYMENT_TERMS,
      latePaymentPenalties: productionSeller.SELLER_LATE_PAYMENT_PENALTIES,
      vatOnDebits: false,
      demo: false,
    });
    expect(loadConfig({ NODE_ENV: 'production', ...productionSecrets, ...productionSeller, SELLER_SHARE_CAPITAL: '10000,50' }).seller.shareCapitalCents).toBe(
      1_000_050,
    );
  });

  it('when SELLER_VAT_ON_DEBITS says the option for VAT on debits was taken, the seller says so; it is optional, with the demo identity too', () => {
    const production = { NODE_ENV: 'production', ...productionSecrets, ...productionSeller };
    expect(loadConfig({ ...production, SELLER_VAT_ON_DEBITS: 'true' }).seller.vatOnDebits).toBe(true);
    expect(loadConfig({ ...production, SELLER_VAT_ON_DEBITS: 'false' }).seller.vatOnDebits).toBe(false);
    expect(loadConfig({ SELLER_VAT_ON_DEBITS: 'true' }).seller).toEqual({ ...demoSeller, vatOnDebits: true });
    const refused = 'SELLER_VAT_ON_DEBITS: must be true or false (the option for VAT on debits taken or not)';
    expect(configProblems({ ...production, SELLER_VAT_ON_DEBITS: 'oui' })).toEqual([refused]);
    expect(configProblems({ SELLER_VAT_ON_DEBITS: 'yes' })).toEqual([refused]);
  });

  it('when a value has the wrong form, it is refused naming the setting and the form expected', () => {
    const production = { NODE_ENV: 'production', ...productionSecrets, ...productionSeller };
    expect(configProblems({ ...production, SELLER_SIRET: '73282932000075' })).toEqual([
      'SELLER_SIRET: must be a SIRET: 14 digits (SIREN and NIC) with a valid check digit',
    ]);
    expect(configProblems({ ...production, SELLER_VAT_NUMBER: 'DE123456789' })).toEqual([
      'SELLER_VAT_NUMBER: must be a French VAT number: FR, a 2-character key, the SIREN',
    ]);
    expect(configProblems({ ...production, SELLER_VAT_NUMBER: 'FR45732829320' })).toEqual([
      'SELLER_VAT_NUMBER: must be the VAT number of the SIREN 732 829 320 of SELLER_SIRET, FR44732829320',
    ]);
    expect(configProblems({ ...production, SELLER_POSTCODE: '6900' })).toEqual(['SELLER_POSTCODE: must be a French postcode, 5 digits']);
    expect(configProblems({ ...production, SELLER_STREET: 'a|b|c|d|e' })).toEqual([
      'SELLER_STREET: must be at most 4 lines separated by |, 200 characters in all',
    ]);
    expect(configProblems({ ...production, SELLER_RCS: 'RCS Lyon B 732 829 320' })[0]).toMatch(/^SELLER_RCS: must be the town of the trade register only/);
    expect(configProblems({ ...production, SELLER_SHARE_CAPITAL: 'dix mille' })).toEqual([
      'SELLER_SHARE_CAPITAL: must be an amount in euros, e.g. 10000 or 10000.50',
    ]);
    expect(configProblems({ ...production, SELLER_PAYMENT_TERMS: 'Paiement comptant à la commande.' })).toEqual([
      'SELLER_PAYMENT_TERMS: must be a statement of the discount for early payment (escompte), or that there is none, e.g. Pas d’escompte pour paiement anticipé.',
    ]);
    expect(configProblems({ ...production, SELLER_COUNTRY: 'BE' })).toEqual(['SELLER_COUNTRY: must be FR (the identifiers checked are French ones)']);
  });

  it('when only some are set outside production, the others are required too: half a real identity is not completed with demo values', () => {
    const problems = configProblems({ SELLER_NAME: 'Maison & Confort Distribution', SELLER_SIRET: '73282932000074' });
    expect(problems).toContain("SELLER_VAT_NUMBER: required once any SELLER_* setting is given (an invoice's legal mention)");
    expect(problems.some((problem) => problem.startsWith('SELLER_NAME'))).toBe(false);
    expect(problems).toHaveLength(sellerVariables.length - 2);
  });

  it(
    'when the service is started in production without them, the process refuses to start, naming each one, before opening anything',
    { timeout: 60_000 },
    async () => {
      const dataDir = await mkdtemp(path.join(tmpdir(), 'seller-settings-'));
      try {
        const failure = await run(process.execPath, serviceArguments(), {
          cwd: root,
          env: { PATH: process.env.PATH, HOME: process.env.HOME, DATA_DIR: dataDir, PORT: '0', NODE_ENV: 'production', ...productionSecrets },
        }).then(
          () => null,
          (error: { code: number; stderr: string }) => error,
        );
        expect(failure?.code).toBe(2);
        expect(failure?.stderr).toMatch(/^Invalid configuration:\n/);
        for (const variable of sellerVariables) expect(failure?.stderr).toContain(`  - ${variable}: required when NODE_ENV=production`);
      } finally {
        await rm(dataDir, { recursive: true, force: true });
      }
    },
  );
});
