/**
 * The route editor's "Wake proxy answers" fields (shared/front-door.ts): other callers held or told
 * to come back, ignored requests answered 503 or 200, the ready delay after a wake, and the built-in
 * list of user agents that never wake the app.
 */
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { CALLER_MODES, IGNORED_ANSWERS } from '../../../shared/front-door.ts';
import type { Draft } from '../../lib/route-draft.ts';
import { Switch } from '../common/form.tsx';

export function RouteFrontDoor(props: {
  id: string;
  draft: Draft;
  set: (patch: Partial<Draft>) => void;
  err: (field: string) => ReactNode;
  described: (field: string) => object;
}) {
  const { id, draft, set, err, described } = props;
  const { t } = useTranslation('routes');
  const front = (patch: Partial<Draft['front']>) => set({ front: { ...draft.front, ...patch } });
  return (
    <>
      <label htmlFor={`${id}-callers`}>{t('front.callers')}</label>
      <div>
        <select
          id={`${id}-callers`}
          value={draft.front.callers}
          onChange={(e) => front({ callers: e.target.value as Draft['front']['callers'] })}
          {...described('callers')}
        >
          {CALLER_MODES.map((m) => (
            <option key={m} value={m}>
              {t(`front.callerModes.${m}`)}
            </option>
          ))}
        </select>
        <span className="hint">{t('front.callersHint')}</span>
        {err('callers')}
      </div>

      <label htmlFor={`${id}-ignored-answer`}>{t('front.ignoredAnswer')}</label>
      <div>
        <select
          id={`${id}-ignored-answer`}
          value={draft.front.ignoredAnswer}
          onChange={(e) => front({ ignoredAnswer: e.target.value as Draft['front']['ignoredAnswer'] })}
          {...described('ignoredAnswer')}
        >
          {IGNORED_ANSWERS.map((a) => (
            <option key={a} value={a}>
              {t(`front.ignoredAnswers.${a}`)}
            </option>
          ))}
        </select>
        {err('ignoredAnswer')}
      </div>

      <label htmlFor={`${id}-ready-delay`}>{t('front.readyDelay')}</label>
      <div>
        <input
          id={`${id}-ready-delay`}
          inputMode="decimal"
          value={draft.front.readyDelay}
          onChange={(e) => front({ readyDelay: e.target.value })}
          {...described('readyDelayMs')}
        />
        <span className="hint">{t('front.readyDelayHint')}</span>
        {err('readyDelayMs')}
      </div>

      <span>{t('front.quietAgents')}</span>
      <div>
        <Switch
          checked={draft.front.quietAgents.builtIn}
          onChange={(builtIn) => front({ quietAgents: { ...draft.front.quietAgents, builtIn } })}
        >
          <span>{draft.front.quietAgents.builtIn ? t('front.quietOn') : t('front.quietOff')}</span>
        </Switch>
        {err('quietAgents')}
      </div>
    </>
  );
}
