/**
 * Errors every layer shares: bad input (each problem with its field, its code and its English text,
 * see validation.ts), unknown things.
 */
import type { i18n as I18n } from 'i18next';
import type { z } from 'zod';
import { validation as englishValidation } from './i18n/en/validation.ts';
import { createI18nOn } from './i18n/instance.ts';
import {
  type FieldProblem,
  type ProblemCode,
  type ProblemParams,
  problemsFromZod,
  problemText,
} from './validation.ts';

export type { FieldProblem } from './validation.ts';

let englishInstance: I18n | null = null;
/**
 * The English problems (the validation namespace, all they use): what the API says (the dashboard
 * translates each problem's code). Not the whole catalogue: the dashboard's bundle carries this.
 */
export function english(): I18n {
  englishInstance ??= createI18nOn('en', { en: { validation: englishValidation } }, ['validation']);
  return englishInstance;
}

/** Input that does not validate: nothing was applied. */
export class InputError extends Error {
  readonly problems: FieldProblem[];
  constructor(problems: FieldProblem[]) {
    super(
      problems.map((p) => (p.code || !p.field ? p.message : `${p.field}: ${p.message}`)).join(' ') ||
        'The input is not valid.',
    );
    this.name = 'InputError';
    this.problems = problems;
  }

  /** One problem of the catalogue, on `field`. */
  static of(field: string, code: ProblemCode, params: ProblemParams = {}): InputError {
    return new InputError([
      { field, code, params, message: problemText(english(), { field, code, params }) },
    ]);
  }

  /** The problems of a failed parse (see parseInput: parsed with `reportInput`, to quote each entry). */
  static fromZod(error: z.ZodError, prefix = ''): InputError {
    return new InputError(problemsFromZod(error, english(), prefix));
  }
}

export class NotFoundError extends Error {
  constructor(what: string) {
    super(`${what} not found`);
    this.name = 'NotFoundError';
  }
}

/** Parse `input` with `schema`, or throw an InputError naming each bad field and quoting its entry. */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown, prefix = ''): z.output<S> {
  const result = schema.safeParse(input, { reportInput: true });
  if (!result.success) throw InputError.fromZod(result.error, prefix);
  return result.data;
}

/** The problems of `input` for `schema` (none when valid), each quoting its entry. */
export function inputProblems(schema: z.ZodType, input: unknown, prefix = ''): FieldProblem[] {
  const result = schema.safeParse(input, { reportInput: true });
  return result.success ? [] : InputError.fromZod(result.error, prefix).problems;
}
