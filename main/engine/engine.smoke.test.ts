import { describe, expect, it } from 'vitest';
import { HOUR, SECOND } from '../../shared/durations.ts';
import { harness } from './testing.ts';

describe('engine smoke', () => {
  it('puts an idle app to sleep after its grace period', async () => {
    const h = harness();
    const app = h.manage('staging');
    h.engine.start();
    await h.clock.advance(10 * SECOND);
    expect(h.state(app.id)).toBe('Up');
    const t = await h.until(() => h.state(app.id) === 'WaitingForShutdown', 2 * HOUR);
    expect(t).not.toBeNull();
    await h.clock.advance(30 * SECOND);
    expect(h.state(app.id)).toBe('Down');
    await h.engine.stop();
  });
});
