import { catalogProducts } from '../../events/catalog/catalog-handlers.ts';
import { catalogImportFile } from '../../events/catalog/catalog-import.ts';
import { systemContext } from '../../events/command-context.ts';
import type { Runtime } from '../../runtime.ts';
import { CliError } from '../cli-error.ts';
import { readJsonFile } from '../read-json-file.ts';
import { printLine } from '../output.ts';

/** `catalog import <file>`: creates or updates products; identical data records nothing. */
export const catalogCommand = async (runtime: Runtime, argv: string[]): Promise<void> => {
  const [action, file] = argv;
  if (action !== 'import' || !file) throw new CliError('usage: catalog import <file.json>');
  const items = await readJsonFile(file, catalogImportFile);
  const summary = await catalogProducts(runtime.write, items, systemContext());
  await printLine(`Catalog ${file}: ${summary.created} created, ${summary.updated} updated, ${summary.unchanged} unchanged`);
};
