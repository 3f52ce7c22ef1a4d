/**
 * The owners a sweep reads for the rules, besides the owners of managed apps: the owners the enabled
 * rules name, or every owner the credentials can see when a rule looks at all of them. That list of
 * owners is read from Clever Cloud once, then again at most once an hour (an organisation joined in
 * between is seen within the hour); a failed read keeps the list read before.
 */
import { HOUR } from '../../shared/durations.ts';
import { describeError } from '../../shared/log.ts';
import { ruleOwners } from '../../shared/rules.ts';
import type { EngineCore } from './core.ts';

export const OWNERS_REFRESH_MS = HOUR;

export class RuleOwners {
  private knownList: { ids: string[]; at: number } | null = null;
  private readonly core: EngineCore;

  constructor(core: EngineCore) {
    this.core = core;
  }

  /**
   * The owners the rules look at, as known now without a call: the owners they name, or the owners
   * last listed for a rule on every owner (none before the first sweep). Team mode registers their
   * leases, so that an owner named by a rule only is held and acted on like the others.
   */
  known(): string[] {
    const named = ruleOwners(this.core.deps.config.rules());
    if (named) return [...named];
    return this.knownList?.ids ?? [];
  }

  /** The owners whose application lists the rules need this sweep. */
  async wanted(): Promise<string[]> {
    const { config, clever, clock, log } = this.core.deps;
    const named = ruleOwners(config.rules());
    if (named) return [...named];
    const now = clock.now();
    if (!this.knownList || now - this.knownList.at >= OWNERS_REFRESH_MS) {
      try {
        const owners = await clever.listOwners({ signal: this.core.abort.signal });
        this.knownList = { ids: owners.map((o) => o.id), at: now };
      } catch (error) {
        log?.('warn', `cannot list the owners for the rules: ${describeError(error)}`);
        if (!this.knownList) return [];
      }
    }
    return this.knownList.ids;
  }
}
