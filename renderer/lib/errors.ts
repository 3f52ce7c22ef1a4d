/** The text of a failure, as the dashboard shows it. */
import { ApiError } from '../../shared/api-errors.ts';
import { InputError } from '../../shared/errors.ts';
import { describeError } from '../../shared/log.ts';
import { problemText } from '../../shared/validation.ts';
import { i18n } from '../i18n.ts';

export function errorText(error: unknown): string {
  // Bad input is said in the language shown, problem by problem (see shared/validation.ts).
  const problems = error instanceof ApiError || error instanceof InputError ? error.problems : [];
  if (problems.some((p) => p.code)) return problems.map((p) => problemText(i18n, p)).join(' ');
  if (error instanceof ApiError || error instanceof InputError) return error.message;
  return describeError(error);
}
