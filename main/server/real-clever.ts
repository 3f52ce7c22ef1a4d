/**
 * The headless server on a real Clever Cloud account.
 *
 * ┌──────────────────────────────────────────────────────────────────────────────────────────────┐
 * │ TO WIRE AT MERGE: `createRealCleverPort` builds the Clever Cloud client (main/clever) for the │
 * │ credentials found (CLEVER_TOKEN / CLEVER_SECRET, the clever-tools login, a stored token),      │
 * │ and `createRealCredentials` becomes the real CredentialsManager. Until then, the server starts │
 * │ without an account and the dashboard offers the demo.                                          │
 * └──────────────────────────────────────────────────────────────────────────────────────────────┘
 */
import type { ConnectInput, CredentialsStatus } from '../../shared/api.ts';
import { UnavailableError } from '../../shared/api-errors.ts';
import type { CleverCloudPort } from '../engine/ports.ts';
import { type CredentialsManager, NO_CREDENTIALS } from '../service/credentials.ts';

export interface RealCleverFlags {
  /** --api-url: another Clever Cloud API (a simulator, a proxy); null for the real one. */
  apiUrl: string | null;
  dataDir: string;
  env: NodeJS.ProcessEnv;
}

/** The Clever Cloud port of the credentials found. */
export function createRealCleverPort(_flags: RealCleverFlags, _input?: ConnectInput): CleverCloudPort {
  throw new UnavailableError(
    'connect a Clever Cloud account: this build has no Clever Cloud client yet (try --demo)',
  );
}

export function createRealCredentials(flags: RealCleverFlags): CredentialsManager {
  let problem: string | null = null;
  return {
    async status(): Promise<CredentialsStatus> {
      return { ...NO_CREDENTIALS, problem, canConnect: false };
    },
    async open() {
      try {
        return createRealCleverPort(flags);
      } catch (error) {
        problem = error instanceof Error ? error.message : String(error);
        return null;
      }
    },
    async connect(input) {
      return createRealCleverPort(flags, input);
    },
  };
}
