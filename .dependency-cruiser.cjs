/**
 * The layers of src/, bottom to top, and the two rules `npm run lint` holds them to (docs/architecture.md
 * draws them): no import circle, and no import from a layer to one above it. A module may import its
 * own layer and those below. The one exception is the PDF worker's entry point, which a worker thread
 * loads by its file name and which renders the documents of the layers beside it.
 */
const layers = [
  ['base', '^src/(time|concurrency|logger\\.ts|tracing)'],
  ['events', '^src/events/'],
  ['edge-of-events', '^src/(config|files|contracts)/'],
  ['projections', '^src/projections/'],
  ['capabilities', '^src/(pdf|mail|labels|invoicing|e-invoicing|metrics|idempotency|leases|jobs|erasure|webhooks)/'],
  ['runtime', '^src/runtime\\.ts$'],
  ['http', '^src/http/'],
  ['facades', '^src/(rest|graphql)/'],
  ['entry-points', '^src/(server/|cli/|main\\.ts$)'],
];

const above = (index) => layers.slice(index + 1).map(([, path]) => path);

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'A circle of imports: one of its modules holds what belongs in a file of its own, lower down.',
      from: { path: '^src/' },
      to: { circular: true },
    },
    ...layers.slice(0, -1).map(([name, path], index) => ({
      name: `no-upward-from-${name}`,
      severity: 'error',
      comment: `The ${name} layer imports a layer above it: move what it needs down, or the importer up (docs/architecture.md).`,
      from: { path, pathNot: '^src/pdf/pdf-worker\\.ts$' },
      to: { path: above(index) },
    })),
    {
      name: 'no-unresolvable',
      severity: 'error',
      comment: 'A relative import that resolves to no file.',
      from: { path: '^src/' },
      to: { couldNotResolve: true, path: '^[.]' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    // Type-only imports count: a layer that needs a type from above depends on it as much.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.js', '.mjs'], exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'types', 'default'] },
  },
};
