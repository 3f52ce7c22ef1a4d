import { describe, expect, it } from 'vitest';
import { ConfigStore, MemoryBackend } from './config-store.ts';

describe('rules in the config store', () => {
  it('are kept beside the routes, in their order, across a reopen', () => {
    const backend = new MemoryBackend();
    const config = new ConfigStore(backend);
    const a = config.createRule({ pattern: 'review-*' });
    const b = config.createRule({ pattern: '*-pr-*', group: 'pr-{2}', position: 0 });
    config.updateRule(a.id, { position: 0, dryRun: true });
    const reopened = new ConfigStore(backend);
    expect(reopened.rules().map((r) => [r.id, r.dryRun])).toEqual([
      [a.id, true],
      [b.id, false],
    ]);
    expect(reopened.problems()).toEqual([]);
  });

  it('a stored rule that does not validate is kept, named, and holds every release', () => {
    const backend = new MemoryBackend();
    backend.set('rules', [{ id: 'rule_bad', pattern: '*', group: '{4}' }]);
    const config = new ConfigStore(backend);
    expect(config.rules()).toEqual([]);
    expect(config.problems()[0]).toMatch(/^1 stored rule could not be read and is not used: rule_bad/);
    expect(config.engineConfig().settings().releaseDelayMs).toBe(Number.POSITIVE_INFINITY);
    config.createRule({ pattern: 'ok-*' });
    expect((backend.get('rules') as { id: string }[]).map((r) => r.id)).toContain('rule_bad');
    config.deleteRule('rule_bad');
    expect(config.problems()).toEqual([]);
    expect(config.engineConfig().settings().releaseDelayMs).toBe(5 * 60_000);
  });
});
