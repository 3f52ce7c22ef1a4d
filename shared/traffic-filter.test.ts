import { describe, expect, it } from 'vitest';
import { cidrContains, parseCidr, parseIp } from './net.ts';
import { compileFilters, ignoredBecause } from './traffic-filter.ts';

const filters = compileFilters({
  pathPrefixes: ['/health', '/status/'],
  sources: ['10.0.0.0/8', '2001:db8::/32', '198.51.100.7'],
});

describe('traffic filters', () => {
  it.each([
    ['/health', '203.0.113.1', 'path /health'],
    ['/health/live?x=1', '203.0.113.1', 'path /health'],
    ['/status/ping', '203.0.113.1', 'path /status/'],
    ['/healthy-food', '203.0.113.1', null],
    ['/', '10.20.30.40', 'source 10.0.0.0/8'],
    ['/', '::ffff:10.1.2.3', 'source 10.0.0.0/8'],
    ['/', '2001:db8:1::5', 'source 2001:db8::/32'],
    ['/', '198.51.100.7', 'source 198.51.100.7'],
    ['/', '198.51.100.8', null],
    ['/cart', null, null],
  ])('%s from %s: %s', (path, sourceIp, expected) => {
    expect(ignoredBecause({ path, sourceIp }, filters)).toBe(expected);
  });
});

describe('IP and CIDR parsing', () => {
  it.each(['10.0.0.0/8', '0.0.0.0/0', '::/0', '2001:db8::/32', 'fe80::1', '::ffff:192.0.2.1', '192.0.2.1'])(
    'accepts %s',
    (text) => expect(parseCidr(text)).not.toBeNull(),
  );
  it.each([
    '10.0.0.0/33',
    '256.1.1.1',
    '01.2.3.4',
    '1.2.3',
    'fe80:::1',
    '2001:db8::/129',
    'abc',
    '10.0.0.0/8/1',
    '',
  ])('refuses %s', (text) => expect(parseCidr(text)).toBeNull());
  it('a block contains the addresses of its prefix only', () => {
    const block = parseCidr('192.168.4.0/22')!;
    expect(cidrContains(block, parseIp('192.168.7.255')!)).toBe(true);
    expect(cidrContains(block, parseIp('192.168.8.0')!)).toBe(false);
    expect(cidrContains(block, parseIp('::1')!)).toBe(false);
  });
});
