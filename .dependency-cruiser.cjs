// The import graph of src/, test/, scripts/ and bench/ (npm run lint): no cycles, type-only imports included
// (docs/architecture.md#layers). A cycle hides which file is the lower one, and a type-only cycle is the first step
// to a runtime one. ESLint keeps the layers; this keeps each folder's files in an order too.
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'No import cycles, type-only imports included (docs/architecture.md#layers).',
      from: { path: '^(src|test|scripts|bench)/' },
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    // Type-only imports are edges too: `import type` is erased by tsc, but a cycle of types is still a cycle.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.js'] },
  },
};
