/**
 * vitest setupFiles: runs in each test process before its test file (issue 38, hermetic tests). The
 * product's own variables that the developer's shell may hold (a real OPENAI_API_KEY, LOG_LEVEL=debug,
 * SWITCHBOARD_HOME, a DATABASE_URL, a door's token …) are removed from this process's environment, so
 * no in-process test reads one it did not set itself (createLogger() reads LOG_LEVEL, for one).
 * Commands a test runs get only what it gives them (test/helpers/cli.ts: cleanEnv, runCli, startCli).
 * Kept: the test run's own switches, SWITCHBOARD_TEST_* (SWITCHBOARD_TEST_COMPILED,
 * SWITCHBOARD_TEST_DATABASE_URL, SWITCHBOARD_TEST_POSTGRES) and SWITCHBOARD_SCREENSHOTS. After the
 * file, the empty working folder and HOME its commands ran in are removed.
 */
import { afterAll } from 'vitest';
import { removeHermeticDirs } from '../helpers/cli.js';

const PRODUCT = /^(?:SWITCHBOARD_|OPENAI_|ANTHROPIC_|TELEGRAM_|SLACK_|DISCORD_|IMAP_|SMTP_|EMAIL_)|^(?:DATABASE_URL|MODEL|LOG_LEVEL|NO_COLOR)$/;
const RUN_SWITCH = /^SWITCHBOARD_(?:TEST_|SCREENSHOTS$)/;

for (const name of Object.keys(process.env)) if (PRODUCT.test(name) && !RUN_SWITCH.test(name)) delete process.env[name];

afterAll(() => removeHermeticDirs());
