import { describe, expect, it } from 'vitest';
import {
  connectionUseOf,
  DEFAULT_CONNECTION_IDLE_LIMIT_MS,
  MAX_CONNECTION_IDLE_LIMIT_MS,
  MIN_CONNECTION_IDLE_LIMIT_MS,
} from './connection-settings.ts';
import { MINUTE } from './durations.ts';
import { inputProblems } from './errors.ts';
import { routeCreateSchema, routeUpdateSchema } from './routes.ts';

const base = { appId: 'app_1', ownerId: 'orga_1' };

describe('the connection settings of a route', () => {
  it('are optional, checked with the other fields, and said for people', () => {
    expect(inputProblems(routeCreateSchema, base)).toEqual([]);
    expect(routeCreateSchema.parse(base)).not.toHaveProperty('connectionsKeepAwake');
    expect(
      inputProblems(routeCreateSchema, {
        ...base,
        connectionsKeepAwake: false,
        connectionIdleLimitMs: 5 * MINUTE,
      }),
    ).toEqual([]);
    const [short] = inputProblems(routeUpdateSchema, {
      connectionIdleLimitMs: MIN_CONNECTION_IDLE_LIMIT_MS - 1,
    });
    expect(short).toMatchObject({ field: 'connectionIdleLimitMs', code: 'tooShort' });
    expect(short!.message).toContain('Idle limit of a connection');
    expect(short!.message).toContain('1 minute');
    const [long] = inputProblems(routeUpdateSchema, {
      connectionIdleLimitMs: MAX_CONNECTION_IDLE_LIMIT_MS + 1,
    });
    expect(long).toMatchObject({ field: 'connectionIdleLimitMs', code: 'tooLong' });
    const [notWhole] = inputProblems(routeUpdateSchema, { connectionIdleLimitMs: 90_000.5 });
    expect(notWhole?.field).toBe('connectionIdleLimitMs');
    const [flag] = inputProblems(routeUpdateSchema, { connectionsKeepAwake: 'yes' });
    expect(flag?.field).toBe('connectionsKeepAwake');
  });

  it('merge over the enabled routes of an app: on when one says so, the longest idle limit', () => {
    const route = (over: object) => ({ appId: 'app_1', enabled: true, ...over });
    expect(connectionUseOf([], 'app_1')).toEqual({
      keepsAwake: true,
      idleLimitMs: DEFAULT_CONNECTION_IDLE_LIMIT_MS,
    });
    expect(connectionUseOf([route({ connectionsKeepAwake: false })], 'app_1').keepsAwake).toBe(false);
    expect(
      connectionUseOf(
        [
          route({ connectionsKeepAwake: false, connectionIdleLimitMs: 7 * 24 * 60 * MINUTE }),
          route({ connectionIdleLimitMs: 2 * MINUTE }),
          route({ connectionIdleLimitMs: 5 * MINUTE }),
          route({ enabled: false, connectionIdleLimitMs: 60 * MINUTE }),
          { appId: 'app_2', enabled: true, connectionIdleLimitMs: 90 * MINUTE },
        ],
        'app_1',
      ),
    ).toEqual({ keepsAwake: true, idleLimitMs: 5 * MINUTE });
    // A disabled route alone says nothing: the defaults, as for an app a rule manages.
    expect(
      connectionUseOf([route({ enabled: false, connectionsKeepAwake: false })], 'app_1').keepsAwake,
    ).toBe(true);
  });
});
