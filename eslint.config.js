// Lint rules of the project (`npm run lint`, part of `npm test`). Formatting is Prettier's (.prettierrc.json).
// The layer rules keep runtime imports pointing down (docs/architecture.md#layers): from the bottom, core,
// market, import, store and scenario, backtest, reports, calibrate, api, cli, demo, sim. Type-only imports may point anywhere. The
// client (src/client) stands apart: it imports nothing else of the project.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

/** Layers from the bottom; a file may import its own layer and those below it. */
const LAYERS = [
  ['core'],
  ['market'],
  ['import'],
  ['store', 'scenario'],
  ['backtest'],
  ['reports'],
  ['calibrate'],
  ['api'],
  ['cli'],
  ['demo'],
  ['sim'],
];

function layerRules() {
  return LAYERS.map((layer, level) => {
    const above = LAYERS.slice(level + 1).flat();
    const sameLevelOthers = layer.filter((_, i) => i > 0);
    const forbidden = [...above, ...(layer.length > 1 ? sameLevelOthers : [])];
    return layer.map((name) => ({
      files: [`src/${name}/**/*.ts`],
      rules: {
        '@typescript-eslint/no-restricted-imports': [
          'error',
          {
            patterns: forbidden
              .filter((other) => other !== name)
              .map((other) => ({
                group: [`**/${other}/*`, `../${other}`],
                allowTypeImports: true,
                message: `src/${name} sits below src/${other}: runtime imports point only down the layers (docs/architecture.md#layers).`,
              })),
          },
        ],
      },
    }));
  }).flat();
}

export default tseslint.config(
  // test/client/generators/ holds sessions that import clients generated at test time: the test type-checks them.
  { ignores: ['dist/**', 'node_modules/**', 'reports/**', 'coverage/**', 'test/client/generators/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      'no-console': 'off',
    },
  },
  {
    // The pure kernel: no wall clock, timers or unseeded randomness (docs/architecture.md#time-is-an-input).
    files: ['src/core/**/*.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "CallExpression[callee.object.name='Date'][callee.property.name='now']",
          message: 'src/core runs on the SimClock, never the wall clock.',
        },
        {
          selector: "NewExpression[callee.name='Date'][arguments.length=0]",
          message: 'src/core runs on the SimClock, never the wall clock.',
        },
        {
          selector: "CallExpression[callee.object.name='Math'][callee.property.name='random']",
          message: 'src/core uses the seeded IdGenerator, never Math.random.',
        },
        {
          selector: 'CallExpression[callee.name=/^set(Timeout|Interval|Immediate)$/]',
          message: 'src/core has no timers: time is an input.',
        },
      ],
    },
  },
  {
    // The client ships to users on its own (propsim/client): it imports nothing else of the project at run time.
    files: ['src/client/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['../*'],
              allowTypeImports: false,
              message: 'src/client is published on its own: it imports only src/client and its own dependencies.',
            },
          ],
        },
      ],
    },
  },
  {
    // Drivers change and read the kernel only through dispatch and read (docs/architecture.md#one-kernel-many-drivers);
    // its parts are for tests' invariant checks.
    files: ['src/**/*.ts'],
    ignores: ['src/core/**/*.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "CallExpression[callee.property.name='internals']",
          message: 'use kernel.dispatch and kernel.read: internals() is for tests only.',
        },
      ],
    },
  },
  {
    // Files a reader can hold (docs/architecture.md#conventions): one that grows past this is split by what its parts
    // do. The client's types are generated (`npm run client:types`).
    files: ['**/*.ts'],
    ignores: ['src/client/api-types.ts'],
    rules: { 'max-lines': ['error', { max: 400 }] },
  },
  {
    // The paths a newcomer reads first: the kernel, a scenario's run and a back-test's cells.
    files: ['src/core/**/*.ts', 'src/scenario/**/*.ts', 'src/backtest/cells/**/*.ts', 'src/backtest/run-backtest.ts'],
    rules: { 'max-lines-per-function': ['error', { max: 70, skipBlankLines: true, skipComments: true }] },
  },
  ...layerRules(),
  {
    files: ['**/*.js'],
    ...tseslint.configs.disableTypeChecked,
  },
  {
    // Tool configs in CommonJS (.dependency-cruiser.cjs: no import cycles, type-only ones included).
    files: ['**/*.cjs'],
    ...tseslint.configs.disableTypeChecked,
    languageOptions: {
      ...tseslint.configs.disableTypeChecked.languageOptions,
      sourceType: 'commonjs',
      globals: { module: 'writable' },
    },
  },
);
