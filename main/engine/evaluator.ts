/**
 * One app at a time: decide on a fresh observation and carry the decision out (a write, then the
 * Clever Cloud call it asks for). Never two evaluations of one app at once: a second request is
 * queued behind the first, and an app asked for while it is evaluated is evaluated again right after
 * (its callers wait for that evaluation, which reads what they wrote before asking).
 */
import { type Actor, type AppRecord, CAUSES, type HistoryKind } from '../../shared/domain.ts';
import { describeError } from '../../shared/log.ts';
import { CleverCallError, isNeverDeployed, LeaseLost } from '../../shared/port-errors.ts';
import type { EngineCore } from './core.ts';
import { type Call, type Decision, decide, type Observation } from './decide.ts';
import type { Journal } from './journal.ts';
import type { CleverApp } from './ports.ts';
import type { TrafficCoalescer } from './traffic.ts';

/** Deployments read per app when a decision needs them: the newest few are enough. */
const DEPLOYMENT_PAGE = 10;

export class Evaluator {
  private busy = new Map<string, Promise<void>>();
  /**
   * The evaluation queued behind the one under way, for the callers that asked meanwhile (the one
   * under way may have read the record before what they wrote); shared until it begins.
   */
  private again = new Map<string, Promise<void>>();

  private readonly core: EngineCore;
  private readonly journal: Journal;
  private readonly traffic: TrafficCoalescer;
  /** The evaluation of an app ended: its due time may have moved. */
  private readonly evaluated: (record: AppRecord) => void;

  constructor(
    core: EngineCore,
    journal: Journal,
    traffic: TrafficCoalescer,
    evaluated: (record: AppRecord) => void,
  ) {
    this.core = core;
    this.journal = journal;
    this.traffic = traffic;
    this.evaluated = evaluated;
  }

  /** The evaluations under way and those queued behind them (stop() and idle() wait for them). */
  underWay(): Promise<void>[] {
    return [...this.busy.values(), ...this.again.values()];
  }

  /** Run `fn` as the only evaluation of `appId`; a second caller waits for the first, then runs. */
  async exclusive(appId: string, fn: () => Promise<void>): Promise<void> {
    while (this.busy.has(appId)) await this.busy.get(appId);
    const run = fn().finally(() => this.busy.delete(appId));
    this.busy.set(appId, run);
    await run;
  }

  /**
   * The sweep's fast path: when the decision on this observation calls nothing (no Clever Cloud
   * call, no deployments to read, no release), carry it out here, for every app of an owner at once:
   * their writes go in one batch (one commit, the lease checked once) instead of eight at a time
   * behind the evaluations' limit. Most apps only note what was seen (commonly nothing to write); a
   * change of state (an app stopped or started from outside) is written under the
   * app's evaluation slot, followed by the decisions it leads to on the same observation, as
   * `evaluateNow` does. False when the app needs a full evaluation (or is being evaluated): from
   * the state reached, it decides again on the same observation.
   */
  async settledAtOnce(appId: string, app: CleverApp | null): Promise<boolean> {
    const record = this.traffic.apply(appId);
    if (!record || this.busy.has(appId)) return false;
    const decision = decide(record, { app }, this.core.context(appId));
    if (decision.type !== 'act' || decision.call) return false;
    if (!decision.transition && !decision.notes) {
      try {
        await this.journal.commit(record, decision.patch);
        return true;
      } catch {
        return false; // the evaluation reports it
      }
    }
    let settled = false;
    // Not busy (checked above, nothing awaited since): the slot is taken and the first write queued
    // in this turn, with the other apps' of the sweep.
    await this.exclusive(appId, async () => {
      settled = await this.settle(record, decision, app);
    });
    // Asked for meanwhile (a request): evaluated again on a fresh read, queued by `evaluate`.
    const followUp = this.again.get(appId);
    if (followUp) {
      await followUp;
      return true;
    }
    return settled;
  }

  /** Write a decision that calls nothing, then those it leads to (a few steps at most); false: a call follows. */
  private async settle(
    first: AppRecord,
    decision: Extract<Decision, { type: 'act' }>,
    app: CleverApp | null,
  ): Promise<boolean> {
    let record: AppRecord | undefined = first;
    let next: Decision = decision;
    try {
      for (let step = 0; step < 4 && this.core.running; step++) {
        if (step > 0) {
          record = this.traffic.apply(first.appId);
          if (!record) return true;
          next = decide(record, { app }, this.core.context(first.appId));
        }
        if (next.type !== 'act' || next.call || !this.core.acts(record.ownerId)) return false;
        await this.journal.commit(record, next.patch, { transition: next.transition, notes: next.notes });
        if (!next.transition) return true;
      }
      return true;
    } catch {
      return false; // the evaluation decides again from the state written, and reports a failure
    }
  }

  /**
   * Decide for one app on a fresh observation (read now when not given) and carry the decision out.
   * If the app is being evaluated already (maybe on a read older than the caller's write), it is
   * evaluated again on a fresh read right after, and this resolves once that one has ended.
   */
  async evaluate(appId: string, app?: CleverApp | null): Promise<void> {
    if (!this.busy.has(appId)) return this.exclusive(appId, () => this.evaluateNow(appId, app));
    let followUp = this.again.get(appId);
    if (!followUp) {
      followUp = this.exclusive(appId, async () => {
        // Begun: a caller from now on may have written after this read, and queues the next one.
        this.again.delete(appId);
        if (this.core.running) await this.evaluateNow(appId, undefined);
      });
      this.again.set(appId, followUp);
    }
    return followUp;
  }

  /** Release an app: started first when it sleeps, then forgotten (its history stays). */
  async release(
    record: AppRecord,
    decision: Extract<Decision, { type: 'release' }>,
    actor: Actor,
  ): Promise<void> {
    if (decision.start) {
      // Like every call, the start follows a write (team mode: it checks the lease; LeaseLost ends here).
      await this.journal.commit(record, {}, { beforeCall: true });
      if (this.refused(record, 'start')) return;
      try {
        await this.core.deps.clever.startApplication(record.ownerId, record.appId, {
          signal: this.core.abort.signal,
        });
      } catch (error) {
        const gone = error instanceof CleverCallError && error.kind === 'not-found';
        if (!isNeverDeployed(error) && !gone) {
          // Not released yet: a sleeping app is never forgotten without its start. Tried again next run.
          await this.journal.noteProblem(
            record.appId,
            `the release could not start the app: ${describeError(error)}`,
          );
          return;
        }
      }
    }
    const entry = this.journal.entry(record, 'release', actor, decision.reason, record.state, null);
    await this.journal.remove(record, entry);
  }

  private async evaluateNow(appId: string, given: CleverApp | null | undefined): Promise<void> {
    const { core } = this;
    const signal = core.abort.signal;
    let record = core.records.get(appId);
    if (!record || !core.running || !core.acts(record.ownerId)) return;
    try {
      const obs: Observation = {
        app:
          given !== undefined
            ? given
            : await core.deps.clever.getApplication(record.ownerId, appId, { signal }),
      };
      // A transition without a call is followed by another decision on the same observation
      // (WaitingForInit -> Down -> start when a request is waiting), a few steps at most.
      for (let step = 0; step < 4 && core.running; step++) {
        record = this.traffic.apply(appId);
        if (!record) return;
        let decision: Decision = decide(record, obs, core.context(appId));
        if (decision.type === 'need-deployments') {
          obs.deployments = await core.deps.clever.listDeployments(record.ownerId, appId, {
            limit: DEPLOYMENT_PAGE,
            signal,
          });
          decision = decide(record, obs, core.context(appId));
          if (decision.type === 'need-deployments')
            throw new Error('a decision asked twice for the deployments');
        }
        if (decision.type === 'release') {
          await this.release(record, decision, 'reaper');
          return;
        }
        const next = await this.journal.commit(record, decision.patch, {
          transition: decision.transition,
          notes: decision.notes,
          beforeCall: decision.call !== undefined,
        });
        if (decision.call) {
          await this.perform(next, decision.call, decision.transition?.actor ?? 'reaper');
          return;
        }
        if (!decision.transition) return;
      }
    } catch (error) {
      if (!core.running || (error instanceof CleverCallError && error.kind === 'aborted')) return;
      // Team mode: another instance took the owner over; it acts now (the journal logged it).
      if (error instanceof LeaseLost) return;
      await this.journal.noteProblem(appId, `Clever Cloud could not be read: ${describeError(error)}`);
    } finally {
      const latest = core.records.get(appId);
      if (latest) this.evaluated(latest);
    }
  }

  /**
   * Team mode: the call may not leave (the lease may have run out since the write that asked for it,
   * this instance having been paused in between): it stays pending on the record, and the owner's
   * holder checks it against Clever Cloud before sending it (decide-sleep, decide-wake).
   */
  private refused(record: AppRecord, call: Call): boolean {
    const why = this.core.callRefusal(record.ownerId);
    if (why === null) return false;
    this.core.deps.log?.(
      'warn',
      `the ${call} of ${record.appId} was not sent: ${why}; it stays pending, and is checked against Clever Cloud before it is sent again`,
    );
    return true;
  }

  /** Carry out a stop or a start decided (and written) before. */
  private async perform(record: AppRecord, call: Call, actor: Actor): Promise<void> {
    const { clever, log } = this.core.deps;
    const signal = this.core.abort.signal;
    // Nothing awaited between this check and the call: it is as close to the call as it gets.
    if (this.refused(record, call)) return;
    try {
      if (call === 'stop') {
        await clever.stopApplication(record.ownerId, record.appId, { signal });
        await this.journal.commitLatest(record.appId, { pendingCall: null, notice: null }, [
          { kind: 'stop-asked', actor, reason: 'Clever Cloud accepted the stop (DELETE instances)' },
        ]);
      } else {
        const { deploymentId } = await clever.startApplication(record.ownerId, record.appId, { signal });
        const patch: Partial<AppRecord> = { pendingCall: null, notice: null };
        if (deploymentId) patch.deploymentId = deploymentId;
        const reason = `Clever Cloud accepted the start${deploymentId ? `, deployment ${deploymentId}` : ''}`;
        const kind: HistoryKind = call === 'restart' ? 'restart-asked' : 'start-asked';
        await this.journal.commitLatest(record.appId, patch, [
          { kind, actor, reason: call === 'restart' ? `${reason} (sent again)` : reason },
        ]);
      }
    } catch (error) {
      if (!this.core.running && error instanceof CleverCallError && error.kind === 'aborted') return;
      const latest = this.core.records.get(record.appId);
      if (!latest) return;
      if (isNeverDeployed(error)) {
        // "An app that was never deployed cannot be started: ... the app goes to Error at once."
        await this.journal.commit(
          latest,
          { cause: CAUSES.neverDeployed, pendingCall: null, notice: null, wakeRequestedAt: null },
          {
            transition: {
              to: 'Error',
              actor: 'reaper',
              reason: `${CAUSES.neverDeployed} (${describeError(error)})`,
            },
          },
        );
        return;
      }
      // The call may or may not have been carried out: pendingCall stays, and the next run checks
      // Clever Cloud before sending it again.
      const message = describeError(error);
      log?.('warn', `${call} of ${record.appId} failed: ${message}`);
      await this.journal.commit(
        latest,
        { notice: `the ${call === 'stop' ? 'stop' : 'start'} call failed: ${message}` },
        { notes: [{ kind: 'call-failed', actor: 'reaper', reason: `${call} failed: ${message}` }] },
      );
    }
  }
}
