/**
 * The pure parts of the front door: which domain an app's requests go to, how this reaper's Via
 * entry is recognised, which user agents keep quiet, and what the front's answers mean after Up.
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_FRONT_DOOR, QUIET_AGENTS, quietAgentOf } from '../../shared/front-door.ts';
import { cameThroughHere, upstreamHost, viaPseudonym, withVia } from './loop-guard.ts';
import { notYet } from './ready-gate.ts';

describe('the upstream domain', () => {
  const own = (hosts: string[]) => (h: string) => hosts.includes(h);

  it.each([
    [['shop.example.com', 'app-1.cleverapps.io'], ['shop.example.com'], 'app-1.cleverapps.io'],
    [['shop.example.com', 'app-1.cleverapps.io'], [], 'app-1.cleverapps.io'],
    [['SHOP.example.com.', 'www.shop.example.com'], ['shop.example.com'], 'www.shop.example.com'],
    [['shop.example.com'], ['shop.example.com'], null],
    [['app-1.cleverapps.io'], ['app-1.cleverapps.io'], null],
    [[], [], null],
    [['app-1.cleverapps.io', 'app-2.cleverapps.io'], ['app-1.cleverapps.io'], 'app-2.cleverapps.io'],
  ])('vhosts %j, own %j: %s', (vhosts, hosts, expected) => {
    expect(upstreamHost(vhosts, own(hosts))).toBe(expected);
  });
});

describe("this reaper's Via entry", () => {
  const me = viaPseudonym('abc123');

  it('is added after the entries already there, and recognised only when it is its own', () => {
    expect(withVia(undefined, me, '1.1')).toBe('1.1 clever-reaper-abc123');
    expect(withVia('1.0 cdn', me, '1.0')).toBe('1.0 cdn, 1.0 clever-reaper-abc123');
    expect(cameThroughHere(withVia('1.1 cdn', me, '1.1'), me)).toBe(true);
    expect(cameThroughHere(['1.1 cdn', `1.1 ${me} (Clever Reaper)`], me)).toBe(true);
    expect(cameThroughHere('1.1 clever-reaper-abc1234', me)).toBe(false);
    expect(cameThroughHere('1.1 cdn, HTTP/2 edge', me)).toBe(false);
    expect(cameThroughHere(undefined, me)).toBe(false);
  });

  it('is one per proxy unless given, and never carries a separator', () => {
    expect(viaPseudonym()).not.toBe(viaPseudonym());
    expect(viaPseudonym('a b,c')).toBe('clever-reaper-abc');
  });
});

describe('user agents that never wake an app', () => {
  it('matches each built-in entry by its token, in any case, unless the route lets it wake the app', () => {
    for (const agent of QUIET_AGENTS) {
      const ua = `Mozilla/5.0 (compatible; ${agent.token.toUpperCase()}/1.0)`;
      expect(quietAgentOf(ua, DEFAULT_FRONT_DOOR.quietAgents)?.name).toBe(agent.name);
      expect(quietAgentOf(ua, { builtIn: true, wake: [agent.name] })).toBeNull();
      expect(quietAgentOf(ua, { builtIn: false, wake: [] })).toBeNull();
    }
    expect(
      quietAgentOf('Mozilla/5.0 (X11; Linux x86_64) Firefox/140.0', DEFAULT_FRONT_DOOR.quietAgents),
    ).toBeNull();
    expect(quietAgentOf(undefined, DEFAULT_FRONT_DOOR.quietAgents)).toBeNull();
  });
});

describe("the front's answers after Up", () => {
  it('a 404 with X-CleverCloudUpgrade is "not yet" until the limit; a 5xx only within the ready delay', () => {
    const upgrade = { status: 404, upgrade: true };
    expect(notYet(upgrade, 9_000, 5_000, 120_000)).toBe(true);
    expect(notYet(upgrade, 120_000, 5_000, 120_000)).toBe(false);
    for (const status of [502, 503, 504]) {
      expect(notYet({ status, upgrade: false }, 4_999, 5_000, 120_000)).toBe(true);
      expect(notYet({ status, upgrade: false }, 5_000, 5_000, 120_000)).toBe(false);
    }
    for (const status of [200, 301, 401, 404, 500])
      expect(notYet({ status, upgrade: false }, 0, 5_000, 120_000)).toBe(false);
  });
});
