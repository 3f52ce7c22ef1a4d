import { describe, expect, it } from 'vitest';
import { ApiError } from '../../shared/api-errors.ts';
import { createHttpClient } from './http-client.ts';

function recordingFetch(answer: (url: string, init: RequestInit) => Response) {
  const requests: { url: string; method: string; body: unknown; auth: string | null }[] = [];
  const fetchFn = (async (url: string, init: RequestInit = {}) => {
    const headers = new Headers(init.headers);
    requests.push({
      url,
      method: init.method ?? 'GET',
      body: init.body ? JSON.parse(String(init.body)) : undefined,
      auth: headers.get('authorization'),
    });
    return answer(url, init);
  }) as typeof fetch;
  return { requests, fetchFn };
}

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

describe('the HTTP client of the dashboard', () => {
  it('builds each request from the shared route table, with the bearer token', async () => {
    const { requests, fetchFn } = recordingFetch(() => json(200, {}));
    const api = createHttpClient({ baseUrl: 'http://reaper', token: 'tok', fetch: fetchFn });
    await api.wake({ appId: 'app_1', source: 'dashboard' });
    await api.history({ appId: 'app_1', limit: 50 });
    await api.updateRoute({ routeId: 'route_1', changes: { enabled: false } });
    await api.deleteRoute({ routeId: 'route_1' });
    expect(requests).toEqual([
      {
        url: 'http://reaper/api/apps/app_1/_wake',
        method: 'POST',
        body: { source: 'dashboard' },
        auth: 'Bearer tok',
      },
      {
        url: 'http://reaper/api/apps/app_1/history?limit=50',
        method: 'GET',
        body: undefined,
        auth: 'Bearer tok',
      },
      {
        url: 'http://reaper/api/routes/route_1',
        method: 'PATCH',
        body: { enabled: false },
        auth: 'Bearer tok',
      },
      { url: 'http://reaper/api/routes/route_1', method: 'DELETE', body: undefined, auth: 'Bearer tok' },
    ]);
  });

  it('turns a 400 into an error that keeps the field of each problem', async () => {
    const { fetchFn } = recordingFetch(() =>
      json(400, {
        error: {
          code: 'invalid-input',
          message: 'gracePeriodMs: the grace period is at least 1 minute',
          problems: [{ field: 'gracePeriodMs', message: 'the grace period is at least 1 minute' }],
        },
      }),
    );
    const api = createHttpClient({ baseUrl: '', token: 'tok', fetch: fetchFn });
    const error = await api
      .createRoute({ appId: 'app_1', ownerId: 'orga_1', gracePeriodMs: 1 })
      .catch((e) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error.code).toBe('invalid-input');
    expect(error.problems).toEqual([
      { field: 'gracePeriodMs', message: 'the grace period is at least 1 minute' },
    ]);
  });

  it('says the token was refused on a 401', async () => {
    const { fetchFn } = recordingFetch(() =>
      json(401, { error: { code: 'unauthorized', message: 'a valid admin token is needed' } }),
    );
    const api = createHttpClient({ baseUrl: '', token: 'bad', fetch: fetchFn });
    const states: string[] = [];
    api.onConnection?.((s) => states.push(s));
    await expect(api.status()).rejects.toMatchObject({ code: 'unauthorized' });
    expect(states.at(-1)).toBe('unauthorized');
  });
});
