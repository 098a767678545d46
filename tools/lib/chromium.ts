/**
 * How every browser run here launches Chromium (browser tests, benchmarks, screenshots): Debian's
 * Chromium where present (CI; CHROMIUM_PATH overrides), Playwright's own otherwise, and none of
 * Chromium's calls to outside hosts. AutofillServerCommunication: Chromium otherwise asks
 * content-autofill.googleapis.com about every form.
 */
import { existsSync } from 'node:fs';

const systemChromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export const chromiumLaunchOptions = {
  executablePath: existsSync(systemChromium) ? systemChromium : undefined,
  args: [
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--no-first-run',
    '--disable-features=AutofillServerCommunication',
  ],
};
