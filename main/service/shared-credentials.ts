/**
 * The credentials' status as every instance of a team server shows it: what an instance knows of
 * its credentials (connected and whose, refused, or a problem checking them) is written to the
 * datastore (contract.ts, `saveCredentialsStatus`) each time it changes, and each instance shows
 * the newest written, its own or another's. Only the state, the account's name or email and the
 * problem in words are kept: never a token or a secret. Where they come from, where they are kept
 * and what this machine can find stay this instance's own.
 */
import type { CredentialsStatus } from '../../shared/api.ts';
import { describeError, type Log } from '../../shared/log.ts';
import type { ReaperStore } from '../store/contract.ts';

export type CredentialsStatusStore = Pick<ReaperStore, 'credentialsStatus' | 'saveCredentialsStatus'>;

export class SharedCredentialsStatus {
  private lastKey: string | null = null;
  private localAt = 0;
  private lastStore: CredentialsStatusStore | null = null;
  private failing = false;
  private readonly log: Log | undefined;

  constructor(log?: Log) {
    this.log = log;
  }

  /** This instance's status, or the newer one another instance wrote (no store: this one). */
  async status(
    local: CredentialsStatus,
    store: CredentialsStatusStore | null,
    now = Date.now(),
  ): Promise<CredentialsStatus> {
    if (!store) return local;
    try {
      const key = JSON.stringify([local.state, local.account, local.problem]);
      if (key !== this.lastKey || store !== this.lastStore) {
        // At least one past the last write: a change met in the same millisecond is still the newest.
        this.localAt = Math.max(now, this.localAt + 1);
        // Connected, its account not known here yet (not checked): the account another one knows.
        const known =
          local.state === 'connected' && local.account === null
            ? ((await store.credentialsStatus())?.account ?? null)
            : local.account;
        await store.saveCredentialsStatus({
          state: local.state,
          account: known,
          problem: local.problem,
          at: this.localAt,
        });
        this.lastKey = key;
        this.lastStore = store;
      }
      const stored = await store.credentialsStatus();
      this.failing = false;
      if (!stored) return local;
      if (stored.at <= this.localAt) return { ...local, account: local.account ?? stored.account };
      return {
        ...local,
        state: stored.state,
        account: stored.account ?? local.account,
        problem: stored.problem,
      };
    } catch (error) {
      if (!this.failing) {
        this.failing = true;
        this.log?.('warn', `the credentials status could not be shared: ${describeError(error)}`);
      }
      return local;
    }
  }
}
