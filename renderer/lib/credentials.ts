/** What the dashboard reads from the credentials status the engine gives (shared/api.ts). */
import type { ReaperStatus } from '../../shared/api.ts';

/**
 * Credentials saved but not yet checked: connected to an account whose owner is not known, because
 * Clever Cloud could not be asked (GET /v2/self) when they were opened. The engine names the account
 * only once that check answered (main/service/real-credentials.ts, `verify`), and keeps unchecked
 * credentials with the problem "could not be checked yet" rather than dropping them.
 */
export function credentialsUnchecked(status: ReaperStatus | null): boolean {
  return (
    status?.mode === 'account' &&
    status.credentials.state === 'connected' &&
    status.credentials.account === null
  );
}
