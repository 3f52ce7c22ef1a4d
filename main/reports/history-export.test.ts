import { describe, expect, it } from 'vitest';
import { type HistoryEntry, newRecord } from '../../shared/domain.ts';
import { MINUTE } from '../../shared/durations.ts';
import { HISTORY_CSV_COLUMNS } from '../../shared/history.ts';
import { SqliteStore } from '../store/sqlite/sqlite-store.ts';
import { exportHistory } from './history-export.ts';

/**
 * A strict RFC 4180 reader: records end with CRLF, fields are separated by commas, a quoted field may
 * hold commas, CR, LF and doubled quotes; anything else (a bare quote, text after a closing quote, a
 * lone LF) is an error, so an export that only looks right fails.
 */
function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let i = 0;
  const fail = (why: string) => {
    throw new Error(`not RFC 4180 at ${i}: ${why}`);
  };
  while (i < text.length) {
    let field = '';
    if (text[i] === '"') {
      i++;
      for (;;) {
        if (i >= text.length) fail('an unclosed quote');
        if (text[i] === '"') {
          if (text[i + 1] === '"') {
            field += '"';
            i += 2;
            continue;
          }
          i++;
          break;
        }
        field += text[i++];
      }
    } else {
      while (i < text.length && text[i] !== ',' && text[i] !== '\r') {
        if (text[i] === '"' || text[i] === '\n') fail('a quote or a line feed in an unquoted field');
        field += text[i++];
      }
    }
    record.push(field);
    if (text[i] === ',') {
      i++;
    } else if (text.startsWith('\r\n', i)) {
      i += 2;
      records.push(record);
      record = [];
    } else fail('a field must end with a comma or CRLF');
  }
  if (record.length) fail('the last record has no CRLF');
  return records;
}

const T = Date.UTC(2026, 0, 5, 9, 30, 15, 250);

async function store(count = 3) {
  const s = new SqliteStore(':memory:');
  await s.commit({ upsert: newRecord('app_docs', 'orga_acme', 'docs, "preview"', T), history: [] });
  const history: HistoryEntry[] = [];
  for (let n = 0; n < count; n++) {
    history.push({
      appId: 'app_docs',
      at: T + n * MINUTE,
      kind: 'transition',
      from: 'Up',
      to: 'WaitingForShutdown',
      actor: 'reaper',
      reason: n === 0 ? 'line one\r\nline two, with "quotes"' : `idle ${n}`,
    });
  }
  await s.commit({ history });
  return s;
}

/** The export's chunks, read to the end. */
async function chunksOf(chunks: AsyncIterable<string>): Promise<string[]> {
  const all: string[] = [];
  for await (const chunk of chunks) all.push(chunk);
  return all;
}

describe('the history export', () => {
  it('writes a CSV that parses back (RFC 4180) with the header row and the right columns', async () => {
    const s = await store();
    const text = (await chunksOf(exportHistory(s, {}, 'csv'))).join('');
    const [header, ...rows] = parseCsv(text);
    expect(header).toEqual([...HISTORY_CSV_COLUMNS]);
    expect(rows).toHaveLength(3);
    const byColumn = rows.map((r) => Object.fromEntries(header!.map((h, i) => [h, r[i]])));
    const oldest = byColumn.at(-1)!;
    expect(oldest).toMatchObject({
      time: '2026-01-05T09:30:15.250Z',
      app_id: 'app_docs',
      app_name: 'docs, "preview"',
      kind: 'transition',
      from_state: 'Up',
      to_state: 'WaitingForShutdown',
      from_label: 'Up',
      to_label: 'Going to sleep',
      actor: 'reaper',
      reason: 'line one\r\nline two, with "quotes"',
    });
    expect(rows.every((r) => r.length === HISTORY_CSV_COLUMNS.length)).toBe(true);
    // Newest first, like the screen.
    expect(byColumn.map((r) => r.reason)).toEqual(['idle 2', 'idle 1', oldest.reason]);
  });

  it('writes JSON: one array, newest first, with ISO times', async () => {
    const s = await store();
    const rows = JSON.parse((await chunksOf(exportHistory(s, {}, 'json'))).join('')) as Record<
      string,
      unknown
    >[];
    expect(rows).toHaveLength(3);
    expect(rows[2]).toMatchObject({ appName: 'docs, "preview"', time: '2026-01-05T09:30:15.250Z', at: T });
    expect(JSON.parse((await chunksOf(exportHistory(s, { actor: 'operator' }, 'json'))).join(''))).toEqual(
      [],
    );
  });

  it('produces a large history a page at a time, never all at once', async () => {
    const s = await store(2500);
    const chunks = await chunksOf(exportHistory(s, {}, 'csv', 1000));
    // The header, then three pages.
    expect(chunks).toHaveLength(4);
    expect(parseCsv(chunks.join(''))).toHaveLength(2501);
  });

  it('neutralises text a spreadsheet would run as a formula (OWASP CSV injection), numbers untouched', async () => {
    const s = new SqliteStore(':memory:');
    const names = [
      '=HYPERLINK("http://evil.example","click")',
      "+1+cmd|' /C calc'!A0",
      '-2+3',
      '@SUM(A1:A9)',
      '\t=1+1',
      '\r=1+1',
      'plain-name',
    ];
    for (const [n, name] of names.entries()) {
      await s.commit({ upsert: newRecord(`app_${n}`, 'orga_acme', name, T), history: [] });
      await s.commit({
        history: [
          {
            appId: `app_${n}`,
            at: T + n,
            kind: 'transition',
            from: 'Up',
            to: 'Down',
            actor: 'reaper',
            reason: '=1+1',
          },
        ],
      });
    }
    const text = (await chunksOf(exportHistory(s, {}, 'csv'))).join('');
    const [header, ...rows] = parseCsv(text);
    const column = (name: string) => rows.map((r) => r[header!.indexOf(name)]!);
    // Every dangerous name is kept, behind a single quote, in a quoted field.
    expect(column('app_name').toReversed()).toEqual([...names.slice(0, 6).map((n) => `'${n}`), 'plain-name']);
    expect(text).toContain('"\'=HYPERLINK(""http://evil.example"",""click"")"');
    expect(text).toContain(',"\'-2+3",');
    expect(column('reason').every((r) => r === "'=1+1")).toBe(true);
    // No field of any row starts a formula; the numeric id column is written as the number it is.
    for (const row of rows) for (const field of row) expect(field).not.toMatch(/^[=+\-@\t\r]/);
    expect(column('id').every((id) => /^[1-9]\d*$/.test(id))).toBe(true);
  });

  it('applies the filters to the export', async () => {
    const s = await store();
    const text = (await chunksOf(exportHistory(s, { from: T + MINUTE }, 'csv'))).join('');
    expect(parseCsv(text)).toHaveLength(3);
  });
});
