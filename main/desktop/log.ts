/**
 * The desktop's log: the console (a terminal that ran `npm start`), and a file of the data
 * directory (logs/main.log, the previous one kept as main.old.log past 1 MB), where an operator
 * finds what happened to an app launched from a menu. Never given a credential: the layers below
 * never log one.
 */
import { appendFileSync, mkdirSync, renameSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Log } from '../../shared/log.ts';

export const LOG_MAX_BYTES = 1024 * 1024;

export function createLog(dir: string, options: { console?: boolean; now?: () => Date } = {}): Log {
  const file = join(dir, 'main.log');
  const now = options.now ?? (() => new Date());
  let size: number | null = null;
  let broken = false;
  return (level, message) => {
    const line = `${now().toISOString()} ${level.padEnd(5)} ${message}\n`;
    if (options.console !== false) {
      if (level === 'info') console.log(message);
      else console.error(`[${level}] ${message}`);
    }
    if (broken) return;
    try {
      if (size === null) {
        mkdirSync(dir, { recursive: true, mode: 0o700 });
        size = statSizeOf(file);
      }
      if (size + line.length > LOG_MAX_BYTES) {
        renameSync(file, join(dir, 'main.old.log'));
        size = 0;
      }
      appendFileSync(file, line, { mode: 0o600 });
      size += Buffer.byteLength(line);
    } catch (error) {
      // A log that cannot be written must not take the app down: say it once, then the console only.
      broken = true;
      if (options.console !== false)
        console.error(`[warn] the log file ${file} cannot be written: ${(error as Error).message}`);
    }
  };
}

function statSizeOf(file: string): number {
  try {
    return statSync(file).size;
  } catch {
    return 0;
  }
}
