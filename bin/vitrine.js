#!/usr/bin/env node
// The `vitrine` command: runs the TypeScript CLI through tsx (no build step for the server). The project's
// tsconfig is named explicitly so JSX and paths compile the same from any working directory.
import { fileURLToPath } from 'node:url';
import { register } from 'tsx/esm/api';

register({ tsconfig: fileURLToPath(new URL('../tsconfig.json', import.meta.url)) });
await import('../src/cli/main.ts');
