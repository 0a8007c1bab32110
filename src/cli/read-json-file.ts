import { readFile } from 'node:fs/promises';
import type { z } from 'zod';
import { describeIssues } from '../contracts/zod-issues.ts';
import { CliError } from './cli-error.ts';

/** Reads a JSON file, failing with a message naming the file when it cannot be read or parsed. */
export const readJsonValue = async (file: string): Promise<unknown> => {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw new CliError(`${file}: cannot be read (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new CliError(`${file}: not valid JSON (${(error as Error).message})`);
  }
};

/** Validates a file's JSON, failing with a message naming the file and each field at fault. */
export const validateJsonFile = <S extends z.ZodType>(file: string, json: unknown, schema: S): z.output<S> => {
  const parsed = schema.safeParse(json);
  if (!parsed.success) {
    const problems = describeIssues(parsed.error);
    const shown = problems.slice(0, 20).map((problem) => `  ${problem}`);
    if (problems.length > shown.length) shown.push(`  ... and ${problems.length - shown.length} more`);
    throw new CliError(`${file}: does not match the contract:\n${shown.join('\n')}`);
  }
  return parsed.data;
};

/** Reads and validates a JSON file. */
export const readJsonFile = async <S extends z.ZodType>(file: string, schema: S): Promise<z.output<S>> =>
  validateJsonFile(file, await readJsonValue(file), schema);
