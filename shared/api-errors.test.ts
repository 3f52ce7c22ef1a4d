import { describe, expect, it } from 'vitest';
import { ApiError, ConflictError, ERROR_STATUS, envelope, toErrorBody, unwrap } from './api-errors.ts';
import { InputError, NotFoundError } from './errors.ts';

describe('errors across a transport', () => {
  it('keep the field of each problem of invalid input', async () => {
    const result = await envelope(async () => {
      throw new InputError([{ field: 'gracePeriodMs', message: 'the grace period is at least 1 minute' }]);
    });
    expect(result).toEqual({
      ok: false,
      error: {
        code: 'invalid-input',
        message: 'gracePeriodMs: the grace period is at least 1 minute',
        problems: [{ field: 'gracePeriodMs', message: 'the grace period is at least 1 minute' }],
      },
    });
    const thrown = (() => {
      try {
        unwrap(result);
      } catch (error) {
        return error;
      }
    })();
    expect(thrown).toBeInstanceOf(ApiError);
    expect((thrown as ApiError).problems[0]?.field).toBe('gracePeriodMs');
  });

  it('map each error to its code and HTTP status, and hide unexpected ones', () => {
    expect(ERROR_STATUS[toErrorBody(new NotFoundError('app app_1')).error.code]).toBe(404);
    expect(ERROR_STATUS[toErrorBody(new ConflictError('in Error')).error.code]).toBe(409);
    expect(toErrorBody(new Error('SELECT * FROM secrets')).error).toEqual({
      code: 'internal',
      message: 'internal error: see the server log',
    });
  });

  it('pass a value through', async () => {
    expect(unwrap(await envelope(async () => 42))).toBe(42);
  });
});
