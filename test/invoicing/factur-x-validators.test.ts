import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderSamples } from './factur-x-samples.ts';

/**
 * The Factur-X invoices and credit notes read by validators no one here wrote: Mustang's (veraPDF for
 * PDF/A-3, the XML schema, the EN 16931 schematron and its arithmetic) and the Python factur-x library
 * (the attached XML found, its level, its XSD). test/support/factur-x/prepare.sh installs both in
 * .cache/factur-x; `npm test` runs it first.
 */

const run = promisify(execFile);
const cache = path.resolve(import.meta.dirname, '../../.cache/factur-x');
const jar = path.join(cache, 'validator-2.26.0-shaded.jar');
const classes = path.join(cache, 'classes');
const python = path.join(cache, 'venv/bin/python');
const pythonCheck = path.resolve(import.meta.dirname, '../support/factur-x/check_facturx.py');

type Outcome = { ok: boolean; output: string };

const outcome = async (command: string, args: string[]): Promise<Outcome> => {
  try {
    const { stdout } = await run(command, args, { maxBuffer: 64 * 1024 * 1024 });
    return { ok: true, output: stdout };
  } catch (error) {
    const failed = error as { stdout?: string; stderr?: string; message: string };
    return { ok: false, output: `${failed.stdout ?? ''}\n${failed.stderr ?? failed.message}` };
  }
};

// One JVM for every file: its start and veraPDF's are most of the time. C1 only and the serial
// collector: a short run that the C2 compiler would spend more time optimising than it saves.
const mustang = (files: string[]): Promise<Outcome> =>
  outcome('java', ['-XX:TieredStopAtLevel=1', '-XX:+UseSerialGC', '-cp', `${jar}${path.delimiter}${classes}`, 'ValidateFacturX', ...files]);

/** Mustang's report for each file: its status line and the XML report that follows it. */
const reportsByFile = (output: string): Map<string, string> =>
  new Map(
    output
      .split(/^=== /m)
      .slice(1)
      .map((report) => [report.slice(0, report.indexOf(' ')), report]),
  );

describe('Factur-X documents read by validators no one here wrote', () => {
  let folder: string;
  let files: string[];
  let mustangRun: Promise<Outcome>;
  let pythonRun: Promise<Outcome>;

  beforeAll(async () => {
    const missing = [jar, path.join(classes, 'ValidateFacturX.class'), python].filter((file) => !existsSync(file));
    if (missing.length > 0) {
      throw new Error(`The Factur-X validators are not installed (${missing.join(', ')}): run bash test/support/factur-x/prepare.sh (npm test runs it).`);
    }
    folder = await mkdtemp(path.join(tmpdir(), 'factur-x-'));
    const samples = await renderSamples();
    files = await Promise.all(
      samples.map(async (sample) => {
        const file = path.join(folder, `${sample.name}.pdf`);
        await writeFile(file, sample.pdf);
        return file;
      }),
    );
    // Side by side: the JVM on one core, Python on the other.
    mustangRun = mustang(files);
    pythonRun = outcome(python, [pythonCheck, ...files]);
    await Promise.all([mustangRun, pythonRun]);
  }, 120_000);

  afterAll(async () => {
    if (folder) await rm(folder, { recursive: true, force: true });
  });

  it('when Mustang validates each invoice and credit note, each is valid: PDF/A-3b, the XML schema, the EN 16931 rules and arithmetic', async () => {
    const { ok, output } = await mustangRun;
    const reports = reportsByFile(output);
    expect([...reports.keys()], output).toEqual(files);
    for (const [file, report] of reports) {
      expect(report.split('\n')[0], report).toBe(`${file} valid`);
      expect(report, report).toMatch(/<pdf>ValidationResult \[flavour=3b,[^\n]*isCompliant=true\]/);
      expect(report, report).toContain('<profile>urn:cen.eu:en16931:2017</profile>');
      // No error, and no warning: neither arithmetic nor of the French rules (XP Z12-012), such as the
      // seller's electronic address (BT-34) or the note on the discount for early payment (AAB).
      expect(report, report).not.toMatch(/<error|<warning|Arithmetical issue/);
      expect(report.match(/<summary status="valid"\/>/g), report).toHaveLength(3);
    }
    expect(ok, output).toBe(true);
  });

  it('when the Python factur-x library reads each file back, it finds factur-x.xml at the EN 16931 level, valid against its XSD', async () => {
    const { ok, output } = await pythonRun;
    const results = output
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, string>);
    expect(results, output).toEqual(files.map((file) => ({ file, attachment: 'factur-x.xml', flavor: 'factur-x', level: 'en16931', xsd: 'valid' })));
    expect(ok, output).toBe(true);
  });
});
