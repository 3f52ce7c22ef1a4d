import { describe, expect, it } from 'vitest';
import { linkFor, parseLink } from './protocol.ts';

describe('clever-reaper:// links', () => {
  it('open an app, or wake it', () => {
    expect(parseLink('clever-reaper://open/app_0a1b2c3d-4e5f')).toEqual({
      action: 'open',
      appId: 'app_0a1b2c3d-4e5f',
    });
    expect(parseLink('clever-reaper://wake/app_0a1b2c3d')).toEqual({ action: 'wake', appId: 'app_0a1b2c3d' });
  });

  it('are read whatever the case of the scheme and the action, and with a trailing slash', () => {
    expect(parseLink('Clever-Reaper://WAKE/app_x1/')).toEqual({ action: 'wake', appId: 'app_x1' });
  });

  it('open a place of the dashboard as the route of its URL fragment, without a token', () => {
    expect(parseLink('clever-reaper://open/apps?state=Error')).toEqual({
      action: 'navigate',
      route: '#/apps?state=Error',
    });
    expect(parseLink('clever-reaper://open/apps/app_0a1b?q=shop')).toEqual({
      action: 'navigate',
      route: '#/apps/app_0a1b?q=shop',
    });
    expect(parseLink('clever-reaper://open/history?app=app_1&token=s3cret&kind=action')).toEqual({
      action: 'navigate',
      route: '#/history?app=app_1&kind=action',
    });
    expect(parseLink('clever-reaper://open/routes/route_12')).toEqual({
      action: 'navigate',
      route: '#/routes/route_12',
    });
    expect(parseLink('clever-reaper://open/settings')).toEqual({ action: 'navigate', route: '#/settings' });
  });

  it.each([
    ['an unknown view', 'clever-reaper://open/elsewhere?x=1'],
    ['an app that is not an app id', 'clever-reaper://open/apps/orga_1'],
    ['a place that goes on', 'clever-reaper://open/apps/app_1/more'],
    ['a fragment', 'clever-reaper://open/apps#x'],
  ])('refuse a place with %s', (_what, link) => {
    expect(parseLink(link)).toBeNull();
  });

  it('round-trip through linkFor', () => {
    expect(parseLink(linkFor('wake', 'app_abc'))).toEqual({ action: 'wake', appId: 'app_abc' });
  });

  it.each([
    ['another scheme', 'https://wake/app_1'],
    ['an unknown action', 'clever-reaper://delete/app_1'],
    ['no app', 'clever-reaper://wake/'],
    ['not an app id', 'clever-reaper://wake/orga_1'],
    ['an escaped app id', 'clever-reaper://wake/app_%31'],
    ['a path that goes on', 'clever-reaper://wake/app_1/more'],
    ['a query', 'clever-reaper://wake/app_1?then=https://evil.example'],
    ['a fragment', 'clever-reaper://wake/app_1#x'],
    ['credentials', 'clever-reaper://user:pw@wake/app_1'],
    ['a port', 'clever-reaper://wake:80/app_1'],
    ['no authority', 'clever-reaper:wake/app_1'],
    ['garbage', 'not a link'],
    ['a huge link', `clever-reaper://wake/app_${'a'.repeat(400)}`],
  ])('are refused with %s', (_what, link) => {
    expect(parseLink(link)).toBeNull();
  });
});
