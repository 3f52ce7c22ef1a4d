/** The text of a failure, as the dashboard shows it. */
import { ApiError } from '../../shared/api-errors.ts';
import { InputError } from '../../shared/errors.ts';
import { describeError } from '../../shared/log.ts';

export function errorText(error: unknown): string {
  if (error instanceof ApiError || error instanceof InputError) return error.message;
  return describeError(error);
}
