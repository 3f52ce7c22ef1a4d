/**
 * How a failed call travels, whatever the transport: a code, a message, and for bad input the field
 * of each problem. `toErrorBody` encodes on the engine's side, `fromErrorBody` rebuilds an error the
 * dashboard can show (an InputError keeps its fields, so a form marks the right input).
 */
import { type FieldProblem, InputError, NotFoundError } from './errors.ts';

export const ERROR_CODES = [
  'invalid-input',
  'not-found',
  'unauthorized',
  'forbidden',
  'conflict',
  'timeout',
  'unavailable',
  'insufficient-storage',
  'internal',
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

export interface ErrorBody {
  error: { code: ErrorCode; message: string; problems?: FieldProblem[] };
}

/** The HTTP status of each code (the IPC transport carries the code alone). */
export const ERROR_STATUS: Record<ErrorCode, number> = {
  'invalid-input': 400,
  unauthorized: 401,
  forbidden: 403,
  'not-found': 404,
  conflict: 409,
  internal: 500,
  unavailable: 503,
  timeout: 504,
  // WebDAV's "cannot store what is needed to complete the request" (RFC 4918): the disk is full.
  'insufficient-storage': 507,
};

/** The request cannot be done in the current state (an app in Error asked to come up, ...). */
export class ConflictError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConflictError';
  }
}

/** Something the call needs is not there now: no account connected, Clever Cloud unreachable. */
export class UnavailableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UnavailableError';
  }
}

/**
 * A change could not be saved because the disk holding the data is full (or over quota): nothing was
 * changed, and the same call works once space is freed.
 */
export class InsufficientStorageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'InsufficientStorageError';
  }
}

/** Waited for something that did not happen in time. */
export class TimeoutError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TimeoutError';
  }
}

/** An error as a caller receives it: its code, and the field problems of invalid input. */
export class ApiError extends Error {
  readonly code: ErrorCode;
  readonly problems: FieldProblem[];
  constructor(code: ErrorCode, message: string, problems: FieldProblem[] = []) {
    super(message);
    this.name = 'ApiError';
    this.code = code;
    this.problems = problems;
  }
}

export function toErrorBody(error: unknown): ErrorBody {
  if (error instanceof InputError) {
    return { error: { code: 'invalid-input', message: error.message, problems: error.problems } };
  }
  if (error instanceof ApiError) {
    const body: ErrorBody = { error: { code: error.code, message: error.message } };
    if (error.problems.length) body.error.problems = error.problems;
    return body;
  }
  if (error instanceof NotFoundError) return { error: { code: 'not-found', message: error.message } };
  if (error instanceof ConflictError) return { error: { code: 'conflict', message: error.message } };
  if (error instanceof UnavailableError) return { error: { code: 'unavailable', message: error.message } };
  if (error instanceof TimeoutError) return { error: { code: 'timeout', message: error.message } };
  if (error instanceof InsufficientStorageError) {
    return { error: { code: 'insufficient-storage', message: error.message } };
  }
  return { error: { code: 'internal', message: 'internal error: see the server log' } };
}

export function isErrorBody(value: unknown): value is ErrorBody {
  if (!value || typeof value !== 'object') return false;
  const error = (value as { error?: unknown }).error;
  return (
    !!error &&
    typeof error === 'object' &&
    typeof (error as { message?: unknown }).message === 'string' &&
    (ERROR_CODES as readonly unknown[]).includes((error as { code?: unknown }).code)
  );
}

/** The error a caller throws for a body received. */
export function fromErrorBody(body: ErrorBody): ApiError {
  return new ApiError(body.error.code, body.error.message, body.error.problems ?? []);
}

/** The problems of an error for one field (and its sub-fields), for a form. */
export function problemsOf(error: unknown, field: string): string[] {
  const problems = error instanceof ApiError || error instanceof InputError ? error.problems : [];
  return problems.filter((p) => p.field === field || p.field.startsWith(`${field}.`)).map((p) => p.message);
}

/**
 * A call's outcome as a message transport (IPC) carries it: Electron keeps only the message of a
 * thrown error, so the main side answers with an envelope and the preload unwraps it.
 */
export type Envelope<T> = { ok: true; value: T } | ({ ok: false } & ErrorBody);

export async function envelope<T>(run: () => Promise<T>): Promise<Envelope<T>> {
  try {
    return { ok: true, value: await run() };
  } catch (error) {
    return { ok: false, ...toErrorBody(error) };
  }
}

/** The value of an envelope, or the ApiError it carries, thrown. */
export function unwrap<T>(result: Envelope<T>): T {
  if (result.ok) return result.value;
  throw fromErrorBody({ error: result.error });
}
