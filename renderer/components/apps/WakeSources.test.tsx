import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { WakeSources } from '../../../shared/api.ts';
import { ONLY_ACCESS_LOGS_WARNING, wakeSourcesOf } from '../../../shared/wake-sources.ts';
import { WakeSourcesSection } from './WakeSources.tsx';

const sources = (over: Partial<WakeSources>): WakeSources => ({
  proxy: { hosts: [], listening: false },
  accessLogs: true,
  ranges: false,
  manual: true,
  accessLogWakes: 0,
  warning: null,
  ...over,
});

describe('the wake sources of an app', () => {
  it('warns when access logs are its only automatic wake source', () => {
    const only = wakeSourcesOf({
      routing: {
        managed: true,
        ownerId: 'o',
        gracePeriodMs: 1,
        ranges: [],
        hosts: [],
        filters: { pathPrefixes: [], sources: [] },
        routeIds: ['r'],
        ruleId: null,
        dryRun: false,
        group: null,
      },
      accessLogs: true,
      proxyListening: false,
      accessLogWakes: 0,
    });
    render(<WakeSourcesSection sources={only} />);
    const warning = screen.getByRole('note', { name: 'Wake source warning' });
    expect(warning.textContent).toBe(ONLY_ACCESS_LOGS_WARNING);
    expect(screen.getByText('no wake by access log seen yet', { exact: false })).toBeTruthy();
    expect(screen.getByText(/no host name/)).toBeTruthy();
  });

  it('no warning with host names the wake proxy serves; the access-log wakes seen are shown', () => {
    render(
      <WakeSourcesSection
        sources={sources({ proxy: { hosts: ['shop.example.test'], listening: true }, accessLogWakes: 3 })}
      />,
    );
    expect(screen.queryByRole('note')).toBeNull();
    expect(screen.getByText('shop.example.test, through the wake proxy')).toBeTruthy();
    expect(screen.getByText('3 wakes by access log seen', { exact: false })).toBeTruthy();
  });

  it('no warning with must-be-up ranges, nor when access logs are not followed', () => {
    const { unmount } = render(<WakeSourcesSection sources={sources({ ranges: true })} />);
    expect(screen.queryByRole('note')).toBeNull();
    expect(screen.getByText('each range start wakes it')).toBeTruthy();
    unmount();
    render(<WakeSourcesSection sources={sources({ accessLogs: false })} />);
    expect(screen.queryByRole('note')).toBeNull();
    expect(screen.getByText('not followed')).toBeTruthy();
  });
});
