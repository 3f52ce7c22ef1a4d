/**
 * The history as a file: CSV (RFC 4180: a header row, CRLF line ends, fields quoted when needed, ISO
 * 8601 times in UTC) or JSON (one array), newest first, produced a page at a time so a transport can
 * stream it with backpressure, whatever its size. A CSV text cell that a spreadsheet would run as a
 * formula (= + - @, tab, CR first) is written behind a single quote, quoted (csvField).
 */
import {
  type ExportFormat,
  type HistoryFilter,
  historyCsvHeader,
  historyCsvLine,
  historyJsonRecord,
} from '../../shared/history.ts';
import type { ReaperStore } from '../store/contract.ts';

export const EXPORT_CONTENT_TYPES: Record<ExportFormat, string> = {
  csv: 'text/csv; charset=utf-8; header=present',
  json: 'application/json; charset=utf-8',
};

/** The export, as chunks of text (one per page of the history, as the pages are read). */
export async function* exportHistory(
  store: Pick<ReaperStore, 'iterateHistory'>,
  filter: HistoryFilter,
  format: ExportFormat,
  pageSize = 1000,
): AsyncGenerator<string, void, void> {
  if (format === 'csv') {
    yield historyCsvHeader();
    for await (const rows of store.iterateHistory(filter, pageSize)) yield rows.map(historyCsvLine).join('');
    return;
  }
  let first = true;
  yield '[';
  for await (const rows of store.iterateHistory(filter, pageSize)) {
    let chunk = '';
    for (const row of rows) {
      chunk += `${first ? '\n' : ',\n'}${JSON.stringify(historyJsonRecord(row))}`;
      first = false;
    }
    yield chunk;
  }
  yield first ? ']\n' : '\n]\n';
}
