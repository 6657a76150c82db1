/**
 * @discordjs/rest, from its fetch build. The package publishes two builds of the same client: the
 * one Node's resolver picks bundles its own undici 6 (about 100 modules and 10 MiB at start), while
 * Node 20 has fetch built in; Slack's Socket Mode already loads undici 7. The fetch build is the one
 * the package itself serves every runtime but Node ("default" in its exports), with the same REST
 * class, rate-limit queues and errors. Its file is found next to the resolved entry, so the package
 * version stays the one in package.json. The build (scripts/build.mjs) gives this module as a static
 * re-export of the same file, so dist/ bundles it rather than loading it and its imports one by one.
 */
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type * as DiscordRest from '@discordjs/rest';

const entry = createRequire(import.meta.url).resolve('@discordjs/rest');
const rest = (await import(pathToFileURL(join(dirname(entry), 'web.mjs')).href)) as typeof DiscordRest;

export const { REST, DiscordAPIError, HTTPError, RateLimitError } = rest;
export type REST = DiscordRest.REST;
export type DiscordAPIError = DiscordRest.DiscordAPIError;
export type HTTPError = DiscordRest.HTTPError;
export type RateLimitError = DiscordRest.RateLimitError;
export type { RateLimitData } from '@discordjs/rest';
