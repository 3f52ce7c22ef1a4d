/**
 * The route editor's owner and app: picked from the account's lists when Clever Cloud can be read,
 * typed as ids when not.
 */

import { type Dispatch, type ReactNode, type SetStateAction, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Owner, PickableApp } from '../../../shared/api.ts';
import type { Route } from '../../../shared/routes.ts';
import { cleverStatus, cleverStatusLabel } from '../../lib/clever-status.ts';
import { errorText } from '../../lib/errors.ts';
import { ownerLabel } from '../../lib/format.ts';
import type { Draft } from '../../lib/route-draft.ts';
import { useApi } from '../../store/context.tsx';

/** A field's problems under it, and its input's ARIA attributes when it has some. */
export interface FieldHelp {
  err(field: string): ReactNode;
  described(field: string): { 'aria-describedby'?: string; 'aria-invalid'?: boolean };
}

/** The owners, and the apps of the draft's owner; the first owner is chosen when none is. */
export function usePickable(ownerId: string, setDraft: Dispatch<SetStateAction<Draft>>) {
  const api = useApi();
  const [owners, setOwners] = useState<Owner[] | null>(null);
  const [ownersError, setOwnersError] = useState<string | null>(null);
  const [apps, setApps] = useState<PickableApp[] | null>(null);

  useEffect(() => {
    api.listOwners().then(
      (o) => {
        setOwners(o);
        setDraft((d) => (d.ownerId || !o[0] ? d : { ...d, ownerId: o[0].id }));
      },
      (e: unknown) => setOwnersError(errorText(e)),
    );
  }, [api, setDraft]);

  useEffect(() => {
    if (!ownerId) return;
    let live = true;
    setApps(null);
    api.listOwnerApps({ ownerId }).then(
      (a) => live && setApps(a),
      (e: unknown) => live && setOwnersError(errorText(e)),
    );
    return () => {
      live = false;
    };
  }, [api, ownerId]);

  return { owners, ownersError, apps };
}

export function RouteTarget({
  id,
  route,
  draft,
  set,
  owners,
  ownersError,
  apps,
  err,
  described,
}: FieldHelp & {
  id: string;
  route: Route | null;
  draft: Draft;
  set: (patch: Partial<Draft>) => void;
  owners: Owner[] | null;
  ownersError: string | null;
  apps: PickableApp[] | null;
}) {
  const { t } = useTranslation('routes');
  return (
    <>
      <label htmlFor={`${id}-owner`}>{t('editor.owner')}</label>
      <div>
        {owners ? (
          <select
            id={`${id}-owner`}
            value={draft.ownerId}
            onChange={(e) => set({ ownerId: e.target.value, appId: '' })}
            {...described('ownerId')}
          >
            {!draft.ownerId && <option value="">{t('editor.chooseOwner')}</option>}
            {owners.map((o) => (
              <option key={o.id} value={o.id}>
                {ownerLabel({ ownerId: o.id, ownerName: o.name })}
              </option>
            ))}
            {draft.ownerId && !owners.some((o) => o.id === draft.ownerId) && (
              <option value={draft.ownerId}>{draft.ownerId}</option>
            )}
          </select>
        ) : !ownersError ? (
          // Until the owners are listed: a select that waits, not a text field that a pick would miss.
          <select id={`${id}-owner`} disabled aria-busy="true" value="" {...described('ownerId')}>
            <option value="">{t('editor.loadingOwners')}</option>
          </select>
        ) : (
          <input
            id={`${id}-owner`}
            value={draft.ownerId}
            placeholder={t('editor.ownerPlaceholder')}
            onChange={(e) => set({ ownerId: e.target.value })}
            {...described('ownerId')}
          />
        )}
        {ownersError && <span className="muted"> {t('editor.cannotList', { error: ownersError })}</span>}
        {err('ownerId')}
      </div>

      <label htmlFor={`${id}-app`}>{t('editor.app')}</label>
      <div>
        {apps ? (
          <select
            id={`${id}-app`}
            value={draft.appId}
            onChange={(e) => set({ appId: e.target.value })}
            {...described('appId')}
          >
            <option value="">{t('editor.chooseApp')}</option>
            {apps.map((a) => (
              <option key={a.id} value={a.id}>
                {t(a.routeIds.some((r) => r !== route?.id) ? 'editor.alreadyRouted' : 'editor.appOption', {
                  name: a.name,
                  // The console's words for the state, as the apps table says it (the raw value is the API's).
                  state: cleverStatusLabel(cleverStatus(a.cleverState, null)),
                })}
              </option>
            ))}
            {draft.appId && !apps.some((a) => a.id === draft.appId) && (
              <option value={draft.appId}>{draft.appId}</option>
            )}
          </select>
        ) : !ownersError ? (
          <select id={`${id}-app`} disabled aria-busy={draft.ownerId !== ''} value="" {...described('appId')}>
            <option value="">{draft.ownerId ? t('editor.loadingApps') : t('editor.ownerFirst')}</option>
          </select>
        ) : (
          <input
            id={`${id}-app`}
            value={draft.appId}
            placeholder={t('editor.appPlaceholder')}
            onChange={(e) => set({ appId: e.target.value })}
            {...described('appId')}
          />
        )}
        {err('appId')}
      </div>
    </>
  );
}
