import { describe, expect, it } from 'vitest';
import { bulkInputSchema, bulkResult } from './bulk.ts';
import { InputError, parseInput } from './errors.ts';

const parse = (input: unknown) => parseInput(bulkInputSchema, input);
const problems = (input: unknown) => {
  try {
    parse(input);
  } catch (error) {
    if (error instanceof InputError) return error.problems;
    throw error;
  }
  return [];
};

describe('a bulk request', () => {
  it('takes an action, distinct app ids, and an instant for keepAwake only', () => {
    expect(parse({ action: 'reset', appIds: ['app_a', 'app_b'] })).toEqual({
      action: 'reset',
      appIds: ['app_a', 'app_b'],
      source: 'admin-api',
    });
    expect(parse({ action: 'keepAwake', appIds: ['app_a'], until: '2026-01-05T18:00:00Z' }).until).toBe(
      Date.UTC(2026, 0, 5, 18),
    );
    expect(parse({ action: 'keepAwake', appIds: ['app_a'], until: null }).until).toBeNull();
  });

  it('names each problem', () => {
    expect(problems({ action: 'explode', appIds: ['app_a'] })[0]!.field).toBe('action');
    expect(problems({ action: 'wake', appIds: [] })).toEqual([
      { field: 'appIds', code: 'tooFew', params: { count: 1 }, message: 'Apps: give at least one.' },
    ]);
    expect(problems({ action: 'wake', appIds: ['app_a', 'app_b', 'app_a'] })).toEqual([
      {
        field: 'appIds.2',
        code: 'listedTwice',
        params: { value: 'app_a' },
        message: 'Apps: “app_a” is listed twice.',
      },
    ]);
    expect(problems({ action: 'wake', appIds: ['app_a', 'orga_b'] })[0]!.field).toBe('appIds.1');
    expect(problems({ action: 'keepAwake', appIds: ['app_a'] })[0]!.field).toBe('until');
    expect(problems({ action: 'release', appIds: ['app_a'], until: 5 })[0]!.field).toBe('until');
    expect(problems({ action: 'release', appIds: ['app_a'], force: true })[0]!.message).toMatch(/force/);
    expect(
      problems({ action: 'release', appIds: Array.from({ length: 5001 }, (_, i) => `app_${i}`) }),
    ).toEqual([
      { field: 'appIds', code: 'tooMany', params: { count: 5000 }, message: 'Apps: at most 5,000.' },
    ]);
  });

  it('counts its outcomes', () => {
    expect(
      bulkResult('wake', [
        { appId: 'app_a', ok: true, app: null },
        { appId: 'app_b', ok: false, reason: 'in Error' },
      ]),
    ).toMatchObject({ succeeded: 1, refused: 1 });
  });
});
