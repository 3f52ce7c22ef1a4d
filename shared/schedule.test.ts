import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { HOUR, MINUTE } from './durations.ts';
import {
  type MustBeUpRange,
  nextTransitions,
  occurrences,
  parseDays,
  rangeProblems,
  Schedule,
  zonedInstant,
} from './schedule.ts';

const iso = (t: number | undefined) => (t === undefined ? undefined : new Date(t).toISOString());
const range = (days: string, start: string, end: string, timeZone: string): MustBeUpRange => ({
  days,
  start,
  end,
  timeZone,
});

describe('the next transitions', () => {
  const monday = Date.UTC(2026, 0, 5, 9);

  it('of a range that never ends: none (no false "goes down" where the search stops)', () => {
    expect(nextTransitions([range('Mon-Sun', '00:00', '24:00', 'Europe/Paris')], monday, 6)).toEqual([]);
    const halves = [range('Mon-Sun', '00:00', '12:00', 'UTC'), range('Mon-Sun', '12:00', '24:00', 'UTC')];
    expect(nextTransitions(halves, monday, 50)).toEqual([]);
  });

  it('stop at the horizon: every one listed lies inside the 5 weeks searched', () => {
    const weekdays = [range('Mon-Fri', '00:00', '24:00', 'UTC')];
    const next = nextTransitions(weekdays, monday, 50);
    expect(next.slice(0, 2).map((t) => `${t.up ? 'up' : 'down'} ${iso(t.at)}`)).toEqual([
      'down 2026-01-10T00:00:00.000Z',
      'up 2026-01-12T00:00:00.000Z',
    ]);
    expect(next).toHaveLength(10);
    expect(next.every((t) => t.at > monday && t.at < monday + 35 * 24 * HOUR)).toBe(true);
  });
});

describe('weekdays', () => {
  it.each([
    ['Mon-Fri', [1, 2, 3, 4, 5]],
    ['Sun-Thu', [0, 1, 2, 3, 4]],
    ['Fri-Mon', [0, 1, 5, 6]],
    ['Sat', [6]],
    ['Mon,Wed,Fri', [1, 3, 5]],
    ['mon-tue, Sat', [1, 2, 6]],
    ['Monday-Friday', [1, 2, 3, 4, 5]],
  ])('%s', (text, days) => {
    expect(parseDays(text)).toEqual({ days });
  });

  it.each(['', 'Mon-', 'Funday', 'Mon-Fri-Sat', 'Mo'])('refuses %j with a message', (text) => {
    expect(parseDays(text)).toHaveProperty('error');
  });
});

describe('validation of a range names the field', () => {
  it.each([
    [
      range('Mon-Fri', '8:00', '19:00', 'Europe/Paris'),
      { field: 'start', code: 'startTime', params: { value: '8:00' } },
    ],
    [
      range('Mon-Fri', '08:00', '25:00', 'Europe/Paris'),
      { field: 'end', code: 'endTime', params: { value: '25:00' } },
    ],
    [
      range('Mon-Fri', '08:00', '08:00', 'Europe/Paris'),
      { field: 'end', code: 'emptyRange', params: { start: '08:00', end: '08:00' } },
    ],
    [
      range('Mon-Fri', '08:00', '19:00', 'Mars/Olympus'),
      { field: 'timeZone', code: 'timeZone', params: { value: 'Mars/Olympus' } },
    ],
    [
      range('Workdays', '08:00', '19:00', 'UTC'),
      { field: 'days', code: 'days', params: { value: 'Workdays' } },
    ],
    [range(' ', '08:00', '19:00', 'UTC'), { field: 'days', code: 'daysMissing', params: {} }],
  ])('%j', (r, problem) => {
    expect(rangeProblems(r)).toEqual([problem]);
  });

  it('a whole day is 00:00-24:00', () => {
    expect(rangeProblems(range('Sat', '00:00', '24:00', 'UTC'))).toEqual([]);
    expect(
      occurrences([range('Sat', '00:00', '24:00', 'UTC')], Date.UTC(2026, 0, 10), Date.UTC(2026, 0, 11)),
    ).toEqual([{ start: Date.UTC(2026, 0, 10), end: Date.UTC(2026, 0, 11) }]);
  });
});

describe('Europe/Paris across both DST changes', () => {
  const office = [range('Mon-Fri', '08:00', '19:00', 'Europe/Paris')];

  it('winter (CET, UTC+1) and summer (CEST, UTC+2) office hours', () => {
    const winter = new Schedule(office).activeAt(Date.UTC(2026, 0, 5, 10));
    expect([iso(winter?.start), iso(winter?.end)]).toEqual([
      '2026-01-05T07:00:00.000Z',
      '2026-01-05T18:00:00.000Z',
    ]);
    const summer = new Schedule(office).activeAt(Date.UTC(2026, 6, 6, 10));
    expect([iso(summer?.start), iso(summer?.end)]).toEqual([
      '2026-07-06T06:00:00.000Z',
      '2026-07-06T17:00:00.000Z',
    ]);
  });

  it('spring forward (Sun 29 March 2026, 02:00 -> 03:00): the Monday after is on summer time', () => {
    const next = nextTransitions(office, Date.UTC(2026, 2, 28, 12), 2);
    expect(next.map((t) => `${t.up ? 'up' : 'down'} ${iso(t.at)}`)).toEqual([
      'up 2026-03-30T06:00:00.000Z',
      'down 2026-03-30T17:00:00.000Z',
    ]);
  });

  it('a range starting in the spring-forward gap starts when the gap ends (02:30 -> 03:30 CEST)', () => {
    expect(iso(zonedInstant(2026, 3, 29, 2 * 60 + 30, 'Europe/Paris'))).toBe('2026-03-29T01:30:00.000Z');
    const night = [range('Sun', '02:30', '05:00', 'Europe/Paris')];
    const o = occurrences(night, Date.UTC(2026, 2, 29), Date.UTC(2026, 2, 30));
    expect(o.map((i) => [iso(i.start), iso(i.end), (i.end - i.start) / MINUTE])).toEqual([
      ['2026-03-29T01:30:00.000Z', '2026-03-29T03:00:00.000Z', 90],
    ]);
  });

  it('fall back (Sun 25 October 2026, 03:00 -> 02:00): an overnight range lasts one hour more', () => {
    const night = [range('Sat', '22:00', '06:00', 'Europe/Paris')];
    const [o] = occurrences(night, Date.UTC(2026, 9, 24, 12), Date.UTC(2026, 9, 25, 12));
    expect([iso(o?.start), iso(o?.end)]).toEqual(['2026-10-24T20:00:00.000Z', '2026-10-25T05:00:00.000Z']);
    expect((o!.end - o!.start) / HOUR).toBe(9);
  });

  it('a time that happens twice when clocks fall back takes the first (02:30 CEST)', () => {
    expect(iso(zonedInstant(2026, 10, 25, 2 * 60 + 30, 'Europe/Paris'))).toBe('2026-10-25T00:30:00.000Z');
  });
});

describe('America/New_York across both DST changes', () => {
  const range9to5 = [range('Mon-Fri', '09:00', '17:00', 'America/New_York')];

  it('spring forward (Sun 8 March 2026): EST before, EDT after', () => {
    const next = nextTransitions(range9to5, Date.UTC(2026, 2, 6, 23), 2);
    expect(next.map((t) => iso(t.at))).toEqual(['2026-03-09T13:00:00.000Z', '2026-03-09T21:00:00.000Z']);
    const friday = new Schedule(range9to5).activeAt(Date.UTC(2026, 2, 6, 15));
    expect(iso(friday?.start)).toBe('2026-03-06T14:00:00.000Z');
  });

  it('fall back (Sun 1 November 2026): the Monday after is on EST again', () => {
    const next = nextTransitions(range9to5, Date.UTC(2026, 9, 31, 12), 1);
    expect(iso(next[0]?.at)).toBe('2026-11-02T14:00:00.000Z');
  });

  it('a Sunday overnight range across fall back lasts 9 hours instead of 8', () => {
    const [o] = occurrences(
      [range('Sat', '22:00', '06:00', 'America/New_York')],
      Date.UTC(2026, 9, 31, 12),
      Date.UTC(2026, 10, 1, 15),
    );
    expect((o!.end - o!.start) / HOUR).toBe(9);
  });
});

describe('overnight and Sunday-first ranges', () => {
  it('an end before the start crosses midnight and belongs to the day it starts', () => {
    const nights = new Schedule([range('Fri', '22:00', '06:00', 'UTC')]);
    expect(nights.activeAt(Date.UTC(2026, 0, 10, 3))).toEqual({
      start: Date.UTC(2026, 0, 9, 22),
      end: Date.UTC(2026, 0, 10, 6),
    }); // Saturday 03:00 belongs to Friday's range
    expect(nights.activeAt(Date.UTC(2026, 0, 9, 3))).toBeNull(); // Friday 03:00 would be Thursday's
  });

  it('Sun-Thu: Sunday is in, Friday and Saturday are out', () => {
    const s = new Schedule([range('Sun-Thu', '09:00', '17:00', 'Asia/Jerusalem')]);
    expect(s.activeAt(Date.UTC(2026, 0, 4, 8))).not.toBeNull(); // Sunday 10:00 in Jerusalem
    expect(s.activeAt(Date.UTC(2026, 0, 9, 8))).toBeNull(); // Friday
    expect(s.activeAt(Date.UTC(2026, 0, 10, 8))).toBeNull(); // Saturday
  });

  it('weekdays are those of the range zone: Monday 08:00 in Tokyo is still Sunday in UTC', () => {
    const tokyo = new Schedule([range('Mon', '08:00', '10:00', 'Asia/Tokyo')]);
    expect(iso(tokyo.activeAt(Date.UTC(2026, 0, 4, 23, 30))?.start)).toBe('2026-01-04T23:00:00.000Z');
  });

  it('overlapping ranges of several routes merge into one must-be-up interval', () => {
    const s = new Schedule([range('Mon', '08:00', '12:00', 'UTC'), range('Mon', '11:00', '14:00', 'UTC')]);
    expect(s.activeAt(Date.UTC(2026, 0, 5, 9))).toEqual({
      start: Date.UTC(2026, 0, 5, 8),
      end: Date.UTC(2026, 0, 5, 14),
    });
  });
});

describe('ranges in a zone other than the machine', () => {
  const script = fileURLToPath(new URL('./schedule.ts', import.meta.url));
  const probe = `
    const { nextTransitions } = await import(${JSON.stringify(script)});
    const r = [{ days: 'Mon-Fri', start: '08:00', end: '19:00', timeZone: 'Europe/Paris' }];
    console.log(JSON.stringify(nextTransitions(r, Date.UTC(2026, 2, 27, 12), 4)));
  `;
  const inZone = (tz: string) =>
    execFileSync(
      process.execPath,
      ['--disable-warning=ExperimentalWarning', '--input-type=module', '-e', probe],
      {
        env: { ...process.env, TZ: tz },
        encoding: 'utf8',
      },
    );

  it('give the same instants whatever the machine time zone is', () => {
    const expected = JSON.stringify(
      nextTransitions([range('Mon-Fri', '08:00', '19:00', 'Europe/Paris')], Date.UTC(2026, 2, 27, 12), 4),
    );
    for (const tz of ['UTC', 'America/Los_Angeles', 'Pacific/Kiritimati', 'Asia/Kolkata']) {
      expect(inZone(tz).trim()).toBe(expected);
    }
  });
});
