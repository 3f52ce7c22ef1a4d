import { describe, expect, it } from 'vitest';
import { managedRouting } from '../main/testing/fixtures.ts';
import type { AppRouting } from './routes.ts';
import { ONLY_ACCESS_LOGS_WARNING, wakeSourcesOf } from './wake-sources.ts';

const routing = (hosts: string[], ranged: boolean): AppRouting =>
  managedRouting({
    ownerId: 'orga_1',
    gracePeriodMs: 60_000,
    ranges: ranged ? [{ days: 'Mon-Fri', start: '09:00', end: '18:00', timeZone: 'UTC' }] : [],
    hosts,
    routeIds: ['r1'],
  });

describe('wake sources', () => {
  const cases = [];
  for (const hosts of [false, true])
    for (const listening of [false, true])
      for (const ranges of [false, true])
        for (const accessLogs of [false, true]) cases.push({ hosts, listening, ranges, accessLogs });

  it.each(cases)(
    '$hosts host names (proxy listening $listening), ranges $ranges, access logs $accessLogs',
    (c) => {
      const sources = wakeSourcesOf({
        routing: routing(c.hosts ? ['a.example.test'] : [], c.ranges),
        accessLogs: c.accessLogs,
        proxyListening: c.listening,
        accessLogWakes: 2,
      });
      const proxyWakes = c.hosts && c.listening;
      expect(sources).toMatchObject({
        proxy: { hosts: c.hosts ? ['a.example.test'] : [], listening: c.listening },
        accessLogs: c.accessLogs,
        ranges: c.ranges,
        manual: true,
        accessLogWakes: 2,
      });
      // Warned exactly when access logs are the only automatic wake source.
      expect(sources.warning !== null).toBe(c.accessLogs && !proxyWakes && !c.ranges);
      if (sources.warning) expect(sources.warning).toContain(ONLY_ACCESS_LOGS_WARNING);
    },
  );

  it('an app no enabled route manages: only manual wakes, no warning', () => {
    expect(
      wakeSourcesOf({ routing: undefined, accessLogs: true, proxyListening: true, accessLogWakes: 0 }),
    ).toEqual({
      proxy: { hosts: [], listening: true },
      accessLogs: false,
      ranges: false,
      manual: true,
      accessLogWakes: 0,
      warning: null,
    });
  });
});
