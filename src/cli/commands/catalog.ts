import type { Command } from 'commander';
import { catalogProducts } from '../../events/catalog/catalog-handlers.ts';
import { catalogImportJsonSchema } from '../../contracts/json-schemas.ts';
import { catalogImportFile } from '../../events/catalog/catalog-import.ts';
import { systemContext } from '../../events/command-context.ts';
import type { WithRuntime } from '../cli-runtime.ts';
import { examples } from '../help-examples.ts';
import { printLine } from '../output.ts';
import { readJsonFile } from '../read-json-file.ts';

/**
 * `catalog import <file>`: creates or updates products; identical data records nothing.
 * `catalog schema`: the JSON Schema of the file it reads, generated from the schema that validates it.
 */
export const catalogCommand = (program: Command, withRuntime: WithRuntime): void => {
  const catalog = program
    .command('catalog')
    .description('the product catalog')
    .addHelpText('after', examples('catalog import docs/examples/catalog.json', 'catalog schema > catalog-import.schema.json'));
  catalog
    .command('import')
    .description('create or update products (the file `catalog schema` describes); identical data records nothing')
    .argument('<file.json>', 'a JSON array of products')
    .addHelpText('after', examples('catalog import docs/examples/catalog.json'))
    .action((file: string) =>
      withRuntime(async (runtime) => {
        const items = await readJsonFile(file, catalogImportFile);
        const summary = await catalogProducts(runtime.write, items, systemContext());
        await printLine(`Catalog ${file}: ${summary.created} created, ${summary.updated} updated, ${summary.unchanged} unchanged`);
      }),
    );
  catalog
    .command('schema')
    .description('print the JSON Schema (draft 2020-12) of the file `catalog import` reads, vat_rate included')
    .addHelpText('after', examples('catalog schema > catalog-import.schema.json'))
    .action(() => printLine(JSON.stringify(catalogImportJsonSchema(), null, 2)));
};
