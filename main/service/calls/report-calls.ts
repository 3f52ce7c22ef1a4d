/** The calls about reports: the history across apps, its export as a file, and the savings. */
import { InputError, parseInput } from '../../../shared/errors.ts';
import {
  EXPORT_FORMATS,
  type ExportFormat,
  exportFileName,
  historyFilterSchema,
} from '../../../shared/history.ts';
import { EXPORT_CONTENT_TYPES, exportHistory } from '../../reports/history-export.ts';
import { savingsPricesFor } from '../../reports/savings-prices.ts';
import { loadSavingsReport } from '../../reports/savings-report.ts';
import type { Session } from '../session.ts';
import type { CallContext, HandlersOf } from './context.ts';

export type ReportCall = 'historyQuery' | 'savings';

export function reportCalls(ctx: CallContext): HandlersOf<ReportCall> {
  return {
    historyQuery: async (query) => ctx.need().store.queryHistory(query),

    savings: async ({ timeZone }) => {
      const s = ctx.need();
      const prices = await savingsPricesFor(s.clever, s.engine.list());
      return loadSavingsReport({
        ...(prices ? { prices } : {}),
        store: s.store,
        now: s.clock.now(),
        timeZone: timeZone ?? Intl.DateTimeFormat().resolvedOptions().timeZone,
        settings: s.config.settings(),
        managed: new Map(s.engine.list().map((r) => [r.appId, r.name])),
        nextMustBeUpAfter: (appId, t) => s.engine.scheduleOf(appId).nextStartAfter(t),
      });
    },
  };
}

export interface HistoryFile {
  filename: string;
  contentType: string;
  chunks: AsyncIterable<string>;
}

/**
 * The filtered history as a file, produced a page at a time (GET /api/history?format=csv). The
 * input is checked before the session is asked for, and before anything is produced.
 */
export function historyFile(raw: unknown, session: () => Session): HistoryFile {
  const { format, ...rest } = (raw ?? {}) as Record<string, unknown>;
  if (!EXPORT_FORMATS.includes(format as ExportFormat)) {
    throw InputError.of('format', 'notOneOf', {
      value: String(format ?? ''),
      options: EXPORT_FORMATS.join(', '),
    });
  }
  const filter = parseInput(historyFilterSchema, rest);
  const s = session();
  const f = format as ExportFormat;
  return {
    filename: exportFileName(f, s.clock.now()),
    contentType: EXPORT_CONTENT_TYPES[f],
    chunks: exportHistory(s.store, filter, f),
  };
}
