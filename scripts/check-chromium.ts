/**
 * `npm test` starts here: the end-to-end tests drive the system's Chromium (Playwright never
 * downloads a browser on these machines). Without it, say so at once, with how to install it, instead
 * of failing spec by spec minutes later.
 */
import { accessSync, constants } from 'node:fs';

export function chromiumProblem(env: NodeJS.ProcessEnv = process.env): string | null {
  const path = env.CHROMIUM_PATH ?? '/usr/bin/chromium';
  try {
    accessSync(path, constants.X_OK);
    return null;
  } catch {
    return [
      `No Chromium at ${path}: the end-to-end tests need it.`,
      'Install it (Debian, Ubuntu): sudo apt-get install -y chromium',
      'or point CHROMIUM_PATH at a Chromium or Chrome binary, then run npm test again.',
      'Do not run `playwright install`: these tests use the system browser.',
    ].join('\n');
  }
}

if (import.meta.main) {
  const problem = chromiumProblem();
  if (problem) {
    console.error(problem);
    process.exit(1);
  }
}
