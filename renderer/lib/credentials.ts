/** What the dashboard reads from the credentials status the engine gives (shared/api.ts). */
import type { ReaperStatus } from '../../shared/api.ts';

/**
 * Credentials saved but not yet checked: connected to an account that Clever Cloud could not be
 * asked about (GET /v2/self) when they were opened. The engine keeps them (and retries as it reads
 * the apps) and says so with `unchecked` (main/service/real-credentials.ts).
 */
export function credentialsUnchecked(status: ReaperStatus | null): boolean {
  return (
    status?.mode === 'account' &&
    status.credentials.state === 'connected' &&
    status.credentials.unchecked === true
  );
}
