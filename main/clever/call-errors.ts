/**
 * How a failed call becomes a CleverCallError: an HTTP error status with Clever Cloud's error id and
 * message, a timeout, a cancellation or a network failure. No credential ever appears in a message:
 * Clever Cloud's text is kept only once every form of every secret is redacted (redaction.ts).
 */
import { HTTPError, isNetworkError, isTimeoutError } from 'ky';
import { CleverCallError, type CleverErrorKind } from '../../shared/port-errors.ts';
import { type Credentials, secretSetOf } from './credentials.ts';
import { externalText, redactSecrets, type SecretSet } from './redaction.ts';
import { errorBodySchema } from './schemas.ts';

/**
 * An HTTP error status, with the error body's Clever Cloud id and message when it has them. Clever
 * Cloud's text is never kept as it is: the id only when it is a number or a short plain word, the
 * message only once every form of every secret is redacted (redaction.ts), on one line, cut.
 */
export function statusError(
  status: number,
  data: unknown,
  endpoint: string,
  credentials: Credentials,
): CleverCallError {
  const body = errorBodySchema.safeParse(data);
  const secrets = secretSetOf(credentials);
  const cleverId = body.success ? plainId(body.data.id ?? body.data.code ?? null, secrets) : null;
  const raw = body.success ? (body.data.message ?? body.data.error ?? null) : null;
  const text = raw ? externalText(raw, secrets) : null;
  const kind: CleverErrorKind =
    String(cleverId) === '4014'
      ? 'never-deployed'
      : status === 401
        ? 'unauthorized'
        : status === 403
          ? 'forbidden'
          : status === 404
            ? 'not-found'
            : status === 429
              ? 'rate-limited'
              : status >= 500
                ? 'server'
                : 'client';
  const idText = cleverId !== null ? ` (error ${cleverId})` : '';
  const message = `Clever Cloud answered ${status}${idText} to ${endpoint}${text ? `: ${text}` : ''}`;
  return new CleverCallError(kind, message, { status, cleverId, endpoint });
}

/** Any failure of a call (ky's, fetch's, node:http's, a stream's) as a CleverCallError. */
export async function toCallError(
  error: unknown,
  endpoint: string,
  credentials: Credentials,
): Promise<CleverCallError> {
  const clean = (s: string) => externalText(s, secretSetOf(credentials));
  if (error instanceof HTTPError) {
    return statusError(error.response.status, error.data, endpoint, credentials);
  }
  if (isTimeoutError(error)) {
    return new CleverCallError('timeout', `Clever Cloud did not answer ${endpoint} in time`, { endpoint });
  }
  if (
    error instanceof Error &&
    (error.name === 'AbortError' || (error as { code?: string }).code === 'ABORT_ERR')
  ) {
    return new CleverCallError('aborted', `${endpoint} was cancelled`, { endpoint });
  }
  // fetch's network failures, and node:http's (a system error: ECONNREFUSED, ECONNRESET...).
  const systemError =
    !(error instanceof CleverCallError) && typeof (error as { code?: unknown })?.code === 'string';
  if (isNetworkError(error) || error instanceof TypeError || systemError) {
    const reason = networkReason(error);
    return new CleverCallError(
      'network',
      `Clever Cloud could not be reached for ${endpoint}${reason ? ` (${reason})` : ''}`,
      {
        endpoint,
      },
    );
  }
  if (error instanceof CleverCallError) return error;
  return new CleverCallError(
    'network',
    clean(`${endpoint} failed: ${String((error as Error)?.message ?? error)}`),
    {
      endpoint,
    },
  );
}

/** Did the request surely not reach the server (safe to send again)? */
export function notSent(error: unknown): boolean {
  let e: unknown = error;
  for (let i = 0; i < 4 && e; i++) {
    const code = (e as { code?: string }).code;
    if (code === 'ECONNREFUSED' || code === 'ENOTFOUND' || code === 'EAI_AGAIN') return true;
    e = (e as { cause?: unknown }).cause;
  }
  return false;
}

/** A Clever Cloud error id worth keeping: a number, or a short plain word that holds no secret. */
function plainId(id: number | string | null, secrets: SecretSet): number | string | null {
  if (typeof id === 'number') return Number.isSafeInteger(id) ? id : null;
  if (id === null || !/^[A-Za-z0-9._-]{1,40}$/.test(id)) return null;
  return redactSecrets(id, secrets) === id ? id : null;
}

function networkReason(error: unknown): string | null {
  let e: unknown = error;
  for (let i = 0; i < 4 && e; i++) {
    const code = (e as { code?: string }).code;
    if (code) return code;
    e = (e as { cause?: unknown }).cause;
  }
  return null;
}
