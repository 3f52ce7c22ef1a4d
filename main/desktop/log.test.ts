import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createLog, LOG_MAX_BYTES } from './log.ts';

const at = () => new Date('2026-01-05T09:00:00Z');

describe('the desktop log file', () => {
  it('gets one line per message with its time and level', () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'reaper-log-')), 'logs');
    const log = createLog(dir, { console: false, now: at });
    log('info', 'started');
    log('error', 'something broke');
    expect(readFileSync(join(dir, 'main.log'), 'utf8')).toBe(
      '2026-01-05T09:00:00.000Z info  started\n2026-01-05T09:00:00.000Z error something broke\n',
    );
  });

  it('keeps the previous file when it grows past its limit', () => {
    const dir = mkdtempSync(join(tmpdir(), 'reaper-log-'));
    writeFileSync(join(dir, 'main.log'), 'x'.repeat(LOG_MAX_BYTES - 10));
    const log = createLog(dir, { console: false, now: at });
    log('info', 'one more line that does not fit');
    expect(readFileSync(join(dir, 'main.old.log'), 'utf8')).toHaveLength(LOG_MAX_BYTES - 10);
    expect(readFileSync(join(dir, 'main.log'), 'utf8')).toContain('one more line');
  });

  it('does not take the app down when the file cannot be written', () => {
    const blocker = join(mkdtempSync(join(tmpdir(), 'reaper-log-')), 'not-a-dir');
    writeFileSync(blocker, '');
    const log = createLog(join(blocker, 'logs'), { console: false, now: at });
    expect(() => log('info', 'still fine')).not.toThrow();
    expect(existsSync(join(blocker, 'logs'))).toBe(false);
  });
});
