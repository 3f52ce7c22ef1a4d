/**
 * The details: the connections open through the wake proxy, and each wake's first answer (the wait
 * its first visitor had) in the history, in English and French.
 */
import { render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { AppTrafficView } from '../../../shared/api.ts';
import { i18n } from '../../i18n.ts';
import { HistoryList, TrafficSection } from './AppFacts.tsx';

afterEach(async () => {
  await i18n.changeLanguage('en');
});

const traffic = (open: number, inUse: number): AppTrafficView => ({
  counted: 3,
  bySource: { 'wake-proxy': 3 },
  ignored: {},
  lastIgnoredAt: null,
  accessLog: null,
  connections: { open, inUse },
});

describe('the open connections of an app', () => {
  it('are said when there are some, with how many keep it awake; not when there are none', async () => {
    const { rerender } = render(<TrafficSection traffic={traffic(2, 1)} />);
    expect(screen.getByText('2 connections open through the wake proxy (1 keeping it awake).')).toBeTruthy();
    rerender(<TrafficSection traffic={traffic(1, 1)} />);
    expect(screen.getByText('1 connection open through the wake proxy (1 keeping it awake).')).toBeTruthy();
    rerender(<TrafficSection traffic={traffic(0, 0)} />);
    expect(screen.queryByText(/open through the wake proxy/)).toBeNull();
    await i18n.changeLanguage('fr');
    rerender(<TrafficSection traffic={traffic(3, 0)} />);
    expect(
      screen.getByText('3 connexions ouvertes par le proxy de réveil (la gardant éveillée : 0).'),
    ).toBeTruthy();
  });
});

describe('the first answer of a wake in the details', () => {
  it('says how long the first visitor waited, and how long after Up, in both languages', async () => {
    const entry = {
      appId: 'app_shop',
      at: Date.UTC(2026, 11, 2, 9, 0),
      kind: 'first-answer' as const,
      from: null,
      to: null,
      actor: 'request' as const,
      reason: 'the app answered the first request 18 s after it (4 s after Up)',
    };
    const { rerender } = render(<HistoryList entries={[entry]} />);
    expect(screen.getByText('first answer')).toBeTruthy();
    expect(screen.getByText('the app answered the first request 18 s after it (4 s after Up)')).toBeTruthy();
    await i18n.changeLanguage('fr');
    rerender(<HistoryList entries={[entry]} />);
    expect(screen.getByText('première réponse')).toBeTruthy();
    expect(
      screen.getByText('l’application a répondu à la première requête 18 s après elle (4 s après l’éveil)'),
    ).toBeTruthy();
  });
});
