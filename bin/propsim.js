#!/usr/bin/env node
// Thin launcher: `npm run build` (run by `prepare` on npm ci / npm install) compiles the CLI to dist/ and bundles it
// into dist/bundle/ (scripts/bundle-cli.ts).
import '../dist/bundle/main.js';
