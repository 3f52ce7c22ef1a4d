import { afterEach, describe, expect, it } from 'vitest';
import { CAUSES } from '../../shared/domain.ts';
import { CAUSE_FILTERS } from '../../shared/history.ts';
import { i18n } from '../i18n.ts';
import { appView } from '../test/fake-api.ts';
import { causeFilterLabel, errorCauses } from './error-causes.ts';

afterEach(async () => {
  await i18n.changeLanguage('en');
});

describe('the Error causes by short name', () => {
  const apps = [
    appView('a', 'Error', { cause: CAUSES.unsafeLastDeployment('FAIL') }),
    appView('b', 'Error', { cause: CAUSES.unsafeLastDeployment('CANCELLED') }),
    appView('c', 'Error', { cause: 'something else' }),
    appView('d', 'Up'),
  ];

  it('groups every deployment state under one name; an unknown cause by its own text', () => {
    expect(errorCauses(apps)).toEqual([
      { label: 'unsafe last deployment', appIds: ['app_a', 'app_b'] },
      { label: 'something else', appIds: ['app_c'] },
    ]);
  });

  it('in French', async () => {
    await i18n.changeLanguage('fr');
    expect(errorCauses(apps).map((c) => c.label)).toEqual(['dernier déploiement douteux', 'something else']);
  });

  it('names each History cause filter as the English filter does, and in French', async () => {
    expect(CAUSE_FILTERS.map((c) => causeFilterLabel(c.prefix, '?'))).toEqual(
      CAUSE_FILTERS.map((c) => c.label),
    );
    await i18n.changeLanguage('fr');
    expect(CAUSE_FILTERS.map((c) => causeFilterLabel(c.prefix, '?'))).toEqual([
      'ne s’est pas arrêtée à temps',
      'n’a pas démarré à temps',
      'échec du démarrage',
      'dernier déploiement douteux',
      'jamais déployée',
      'état Clever Cloud inattendu',
    ]);
  });
});
