// The CLI as one bundle (dist/bundle/), which bin/propsim.js runs: Node loads an ES module file by file, and the
// CLI's dependencies come to many hundreds of files, and loading them one by one was most of every command's start-up
// (docs/architecture.md#layout; the replay-fixed benchmark, docs/performance.md). Run by `npm run build` after tsc, from its
// output; each command stays its own chunk, loaded when named. Left outside: the native SQLite addon, packages that
// read files beside their own code, and the store's writer thread, which is started from
// dist/src/store/commit-worker.js.
import { build, type Plugin } from 'esbuild';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from '../src/market/holiday-file.js';

const root = packageRoot();

/**
 * RxJS's ES modules, not the CommonJS build its exports give Node: esbuild keeps only the parts the CLI uses (the
 * package has no side effects), where the CommonJS build is run whole at every start-up.
 */
const rxjsAsEsModules: Plugin = {
  name: 'rxjs-as-es-modules',
  setup(build) {
    build.onResolve({ filter: /^rxjs$/ }, () => ({
      path: join(root, 'node_modules', 'rxjs', 'dist', 'esm', 'index.js'),
    }));
  },
};
// Chunks are named by content hash: without a clean folder, every build would leave the last one's chunks behind.
rmSync(join(root, 'dist', 'bundle'), { recursive: true, force: true });
await build({
  entryPoints: [join(root, 'dist', 'src', 'cli', 'main.js')],
  outdir: join(root, 'dist', 'bundle'),
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  // Left to Node: packages that find files beside their own code through __dirname (a worker script, a page,
  // their package.json), which a bundle cannot give them; and BullMQ, which requires its optional Redis clients by
  // name (only ioredis is installed), with ioredis.
  external: [
    'better-sqlite3',
    'echarts',
    'piscina',
    'pino',
    '@fastify/swagger',
    '@fastify/swagger-ui',
    'bullmq',
    'ioredis',
  ],
  // Bundled CommonJS packages (Fastify, yargs…) call require: give the bundle one.
  banner: {
    js: "import { createRequire as bundleRequire } from 'node:module'; const require = bundleRequire(import.meta.url);",
  },
  plugins: [rxjsAsEsModules],
  logLevel: 'warning',
});
