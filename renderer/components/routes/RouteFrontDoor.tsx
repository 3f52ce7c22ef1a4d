/**
 * The route editor's "Wake proxy answers" fields (shared/front-door.ts): other callers held or told
 * to come back, ignored requests answered 503 or 200, the ready delay after a wake, the built-in
 * list of user agents that never wake the app (each entry may be let through for this route), and
 * whether open connections keep the app awake, with their idle limit (shared/connection-settings.ts).
 */
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { CALLER_MODES, IGNORED_ANSWERS, QUIET_AGENTS } from '../../../shared/front-door.ts';
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
  const connections = (patch: Partial<Draft['connections']>) =>
    set({ connections: { ...draft.connections, ...patch } });
  const quiet = draft.front.quietAgents;
  const letWake = (name: string, wakes: boolean) =>
    front({
      quietAgents: {
        ...quiet,
        wake: wakes ? [...quiet.wake.filter((n) => n !== name), name] : quiet.wake.filter((n) => n !== name),
      },
    });
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
        {quiet.builtIn && (
          <details className="quiet-agents" open={quiet.wake.length > 0}>
            <summary>
              {quiet.wake.length > 0
                ? t('front.quietWakeSome', { names: quiet.wake.join(', ') })
                : t('front.quietWakeNone')}
            </summary>
            <fieldset className="events">
              <legend>{t('front.quietWakeLegend')}</legend>
              {QUIET_AGENTS.map((a) => (
                <label key={a.name} className="check">
                  <input
                    type="checkbox"
                    checked={quiet.wake.includes(a.name)}
                    onChange={(e) => letWake(a.name, e.target.checked)}
                  />
                  {t('front.quietAgent', { name: a.name, kind: t(`front.quietKinds.${kindKey(a.kind)}`) })}
                </label>
              ))}
            </fieldset>
          </details>
        )}
        {err('quietAgents')}
      </div>

      <span>{t('front.connections')}</span>
      <div>
        <Switch checked={draft.connections.keepAwake} onChange={(keepAwake) => connections({ keepAwake })}>
          <span>{draft.connections.keepAwake ? t('front.connectionsOn') : t('front.connectionsOff')}</span>
        </Switch>
        {err('connectionsKeepAwake')}
      </div>

      {draft.connections.keepAwake && (
        <>
          <label htmlFor={`${id}-idle-limit`}>{t('front.idleLimit')}</label>
          <div>
            <input
              id={`${id}-idle-limit`}
              inputMode="decimal"
              value={draft.connections.idleLimit}
              onChange={(e) => connections({ idleLimit: e.target.value })}
              {...described('connectionIdleLimitMs')}
            />
            <span className="hint">{t('front.idleLimitHint')}</span>
            {err('connectionIdleLimitMs')}
          </div>
        </>
      )}
    </>
  );
}

/** The catalogue key of a kind of quiet user agent. */
function kindKey(kind: (typeof QUIET_AGENTS)[number]['kind']): 'preview' | 'monitor' | 'crawler' {
  if (kind === 'link preview') return 'preview';
  return kind === 'uptime monitor' ? 'monitor' : 'crawler';
}
