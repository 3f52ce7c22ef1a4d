/** Errors every layer shares: bad input (the field and what is wrong with it), unknown things. */
import type { z } from 'zod';

export interface FieldProblem {
  /** Dotted path of the field, e.g. `ranges.0.start`; empty for the whole input. */
  field: string;
  message: string;
}

/** Input that does not validate: nothing was applied. */
export class InputError extends Error {
  readonly problems: FieldProblem[];
  constructor(problems: FieldProblem[]) {
    super(
      problems.map((p) => (p.field ? `${p.field}: ${p.message}` : p.message)).join('; ') || 'invalid input',
    );
    this.name = 'InputError';
    this.problems = problems;
  }

  static fromZod(error: z.ZodError, prefix = ''): InputError {
    return new InputError(
      error.issues.map((issue) => ({
        field: [prefix, ...issue.path.map(String)].filter(Boolean).join('.'),
        message: issue.message,
      })),
    );
  }
}

export class NotFoundError extends Error {
  constructor(what: string) {
    super(`${what} not found`);
    this.name = 'NotFoundError';
  }
}

/** Parse `input` with `schema`, or throw an InputError naming each bad field. */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown, prefix = ''): z.output<S> {
  const result = schema.safeParse(input);
  if (!result.success) throw InputError.fromZod(result.error, prefix);
  return result.data;
}
