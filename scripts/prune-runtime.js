#!/usr/bin/env node
'use strict';
/**
 * Prunes a production install (`npm ci --omit=dev --omit=optional`) down to what the running
 * service loads: source maps, type declarations and Markdown are never read at run time, and
 * TypeORM's `browser/` build is only for bundlers. Used by the Dockerfile's runtime stage and
 * by test/platform/runtime-image.e2e-spec.ts. Usage: node scripts/prune-runtime.js [node_modules]
 */
const { readdirSync, rmSync, lstatSync } = require('node:fs');
const { join } = require('node:path');

const root = process.argv[2] || 'node_modules';
const FILE = /(\.map|\.d\.ts|\.d\.mts|\.d\.cts|\.md|\.markdown)$/i;
const DIRS = [join('typeorm', 'browser')];

let files = 0;
let bytes = 0;
function walk(dir) {
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    const st = lstatSync(p);
    if (st.isDirectory()) walk(p);
    else if (st.isFile() && FILE.test(name) && !/^license/i.test(name)) {
      bytes += st.size;
      files++;
      rmSync(p);
    }
  }
}
for (const d of DIRS) rmSync(join(root, d), { recursive: true, force: true });
walk(root);
console.log(`pruned ${files} files (${(bytes / 1048576).toFixed(1)} MB) and ${DIRS.join(', ')} from ${root}`);
