/**
 * The Savings view's table per app, virtualised as the apps table is (a thousand apps render the rows
 * on screen, in a scrolling box): for each app its flavor and price, its hours asleep because of the
 * reaper and what they saved today, this month, this year and all time, the hours it was asleep after
 * a stop outside the reaper (not counted), and in dry-run what it would have saved.
 */
import { useVirtualizer } from '@tanstack/react-virtual';
import { useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { type AppSavings, SAVINGS_WINDOWS, type SavingsFigures } from '../../../shared/savings.ts';
import { eur, hours } from '../../lib/savings-format.ts';
import { SpacerRow } from '../common/SpacerRow.tsx';

/** Every row is two lines high (hours, then euros), so the virtualiser knows its size. */
export const SAVINGS_ROW_HEIGHT = 50;

export function SavingsTable({ apps }: { apps: readonly AppSavings[] }) {
  const { t } = useTranslation('savings');
  const scrollRef = useRef<HTMLElement>(null);
  const anyProjected = apps.some((a) => a.windows.all.projectedHours > 0);
  const columns = 4 + SAVINGS_WINDOWS.length + (anyProjected ? 1 : 0);
  const virtualizer = useVirtualizer({
    count: apps.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => SAVINGS_ROW_HEIGHT,
    getItemKey: (index) => apps[index]!.appId,
    overscan: 6,
    initialRect: { width: 1200, height: 520 },
  });
  if (apps.length === 0) return <p className="muted">{t('perApp.none')}</p>;
  const items = virtualizer.getVirtualItems();
  const padTop = items[0]?.start ?? 0;
  const padBottom = items.length ? virtualizer.getTotalSize() - items.at(-1)!.end : 0;
  return (
    <>
      <p className="muted table-count">{t('perApp.count', { count: apps.length })}</p>
      {/* Focusable, so a keyboard can scroll a table that holds nothing else to focus (axe's
          scrollable-region-focusable). */}
      <section
        ref={scrollRef}
        className="table-scroll savings-scroll"
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must take the keyboard's focus
        tabIndex={0}
        aria-label={t('perApp.table')}
      >
        <table className="savings-table" aria-rowcount={apps.length + 1}>
          <thead>
            <tr aria-rowindex={1}>
              <th scope="col">{t('perApp.app')}</th>
              <th scope="col">{t('perApp.flavor')}</th>
              <th scope="col" className="num">
                {t('perApp.hourly')}
              </th>
              {SAVINGS_WINDOWS.map((w) => (
                <th key={w} scope="col" className="num">
                  {t(`perApp.${w}`)}
                </th>
              ))}
              <th scope="col" className="num" title={t('perApp.outsideHint')}>
                {t('perApp.outside')}
              </th>
              {anyProjected && (
                <th scope="col" className="num">
                  {t('perApp.wouldHaveSaved')}
                </th>
              )}
            </tr>
          </thead>
          <tbody>
            <SpacerRow height={padTop} columns={columns} />
            {items.map((item) => (
              <SavingsRow
                key={item.key}
                app={apps[item.index]!}
                index={item.index}
                anyProjected={anyProjected}
              />
            ))}
            <SpacerRow height={padBottom} columns={columns} />
          </tbody>
        </table>
      </section>
    </>
  );
}

function SavingsRow({ app, index, anyProjected }: { app: AppSavings; index: number; anyProjected: boolean }) {
  const { t } = useTranslation('savings');
  const all = app.windows.all;
  const now =
    app.asleepNow === 'reaper'
      ? t('perApp.asleepNow')
      : app.asleepNow === 'outside'
        ? t('perApp.outsideNow')
        : '';
  return (
    <tr aria-rowindex={index + 2}>
      <th scope="row">
        <span className="line">{app.name}</span>
        <span className={`line cell-sub${app.asleepNow === 'reaper' ? ' asleep-now' : ''}`}>
          {app.managed ? now : t('perApp.released').trim()}
        </span>
      </th>
      <td>
        {app.flavorName ? (
          `${app.flavorName} × ${app.instances ?? '?'}`
        ) : (
          <span className="muted">{t('perApp.notRead')}</span>
        )}
      </td>
      <td className="num">{eur(app.hourlyEur)}</td>
      {SAVINGS_WINDOWS.map((w) => (
        <td key={w} className="num">
          <Cell figures={app.windows[w]} />
        </td>
      ))}
      <td className="num muted">{all.outsideHours > 0 ? hours(all.outsideHours) : '—'}</td>
      {anyProjected && (
        <td className="num">
          {all.projectedHours > 0 ? (
            <>
              <span className="line">{eur(all.projectedEur)}</span>
              <span className="line cell-sub">{hours(all.projectedHours)}</span>
            </>
          ) : (
            '—'
          )}
        </td>
      )}
    </tr>
  );
}

/** Hours asleep because of the reaper, and below what they saved. */
function Cell({ figures }: { figures: SavingsFigures }) {
  return (
    <>
      <span className="line">{hours(figures.hoursAsleep)}</span>
      <strong className="line cell-sub">{eur(figures.savedEur)}</strong>
    </>
  );
}
