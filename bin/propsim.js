#!/usr/bin/env node
// Thin launcher: the CLI is compiled to dist/ by `npm run build` (run by `prepare` on npm ci / npm install).
import '../dist/src/cli/main.js';
