#!/usr/bin/env node
// Entry point: runs the TypeScript sources through tsx, so `npx switchboard` works right after `npm ci`.
import { register } from 'tsx/esm/api';

register();
await import('../src/cli.ts');
