/** The traffic section of the details: the connections open through the wake proxy, in English and French. */
import { render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { AppTrafficView } from '../../../shared/api.ts';
import { i18n } from '../../i18n.ts';
import { TrafficSection } from './AppFacts.tsx';

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
