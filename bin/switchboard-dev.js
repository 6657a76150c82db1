#!/usr/bin/env node
// Development entry point: runs the TypeScript sources through tsx (`npm run dev`, the end-to-end tests).
// Production runs bin/switchboard.js, the compiled code.
import { register } from 'tsx/esm/api';

register();
await import('../src/cli.ts');
