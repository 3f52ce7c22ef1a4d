/** The security restrictions on fake webContents and sessions (the handlers are what Electron calls). */
import { EventEmitter } from 'node:events';
import type { HandlerDetails, Session, WebContents, WindowOpenHandlerResponse } from 'electron';
import { describe, expect, it, vi } from 'vitest';
import { denyPermissions, restrictContents } from './security.ts';
import { externalLink, isAppPage } from './url-policy.ts';

const PAGE = 'file:///opt/Clever%20Reaper/resources/app.asar/renderer/index.html';

class FakeContents extends EventEmitter {
  openHandler: ((details: HandlerDetails) => WindowOpenHandlerResponse) | null = null;
  setWindowOpenHandler(handler: (details: HandlerDetails) => WindowOpenHandlerResponse) {
    this.openHandler = handler;
  }
  /** Emit an event Electron would emit; true when a handler called preventDefault(). */
  fire(name: string, url?: string): boolean {
    let prevented = false;
    this.emit(name, { preventDefault: () => (prevented = true) }, url);
    return prevented;
  }
}

function setup(openExternal: (url: string) => Promise<void> = async () => undefined) {
  const contents = new FakeContents();
  const opened: string[] = [];
  const logged: string[] = [];
  restrictContents(contents as unknown as WebContents, {
    page: { kind: 'file', url: PAGE },
    shell: {
      openExternal: (url) => {
        opened.push(url);
        return openExternal(url);
      },
    },
    log: (_level, message) => logged.push(message),
  });
  return { contents, opened, logged };
}

describe('the security restrictions of the app’s pages', () => {
  it("let the page reload itself and move within the app's page", () => {
    const { contents } = setup();
    expect(contents.fire('will-navigate', PAGE)).toBe(false);
    expect(contents.fire('will-navigate', `${PAGE}#routes`)).toBe(false);
  });

  it('refuse any other navigation; a link the app builds goes to the browser instead', () => {
    const { contents, opened, logged } = setup();
    expect(contents.fire('will-navigate', 'https://evil.example/phish')).toBe(true);
    expect(contents.fire('will-navigate', 'file:///etc/passwd')).toBe(true);
    expect(contents.fire('will-navigate', 'https://console.clever-cloud.com/organisations/orga_1')).toBe(
      true,
    );
    expect(opened).toEqual(['https://console.clever-cloud.com/organisations/orga_1']);
    expect(logged.join('\n')).toContain('navigation refused: https://evil.example/phish');
  });

  it('refuse redirects away from the page', () => {
    const { contents } = setup();
    expect(contents.fire('will-redirect', 'https://evil.example/')).toBe(true);
  });

  it('never open a new window; only an allowed link goes to the browser', () => {
    const { contents, opened } = setup();
    const deny = { action: 'deny' };
    expect(
      contents.openHandler?.({ url: 'https://developers.clever-cloud.com/doc/' } as HandlerDetails),
    ).toEqual(deny);
    expect(contents.openHandler?.({ url: 'javascript:alert(1)' } as HandlerDetails)).toEqual(deny);
    expect(contents.openHandler?.({ url: 'file:///etc/passwd' } as HandlerDetails)).toEqual(deny);
    expect(contents.openHandler?.({ url: 'smb://share/x' } as HandlerDetails)).toEqual(deny);
    expect(opened).toEqual(['https://developers.clever-cloud.com/doc/']);
  });

  it('hand the browser a link as the URL policy normalised it, and log when the browser fails', async () => {
    const { contents, opened, logged } = setup(async () => {
      throw new Error('no browser');
    });
    contents.openHandler?.({ url: 'https://console.clever-cloud.com/a/../b' } as HandlerDetails);
    expect(opened).toEqual(['https://console.clever-cloud.com/b']);
    await vi.waitFor(() =>
      expect(logged).toContain('the browser could not open https://console.clever-cloud.com/b: no browser'),
    );
  });

  it('refuse webviews', () => {
    const { contents } = setup();
    expect(contents.fire('will-attach-webview')).toBe(true);
  });

  it('deny every permission request and check', () => {
    const handlers: Record<string, (...args: never[]) => unknown> = {};
    const session = {
      setPermissionRequestHandler: (h: never) => (handlers.request = h),
      setPermissionCheckHandler: (h: never) => (handlers.check = h),
      setDevicePermissionHandler: (h: never) => (handlers.device = h),
    };
    denyPermissions(session as unknown as Session);
    const answers: boolean[] = [];
    for (const permission of ['media', 'geolocation', 'notifications', 'clipboard-read', 'openExternal']) {
      (handlers.request as unknown as (c: unknown, p: string, cb: (ok: boolean) => void) => void)(
        {},
        permission,
        (ok) => answers.push(ok),
      );
    }
    expect(answers).toEqual([false, false, false, false, false]);
    expect((handlers.check as unknown as () => boolean)()).toBe(false);
    expect((handlers.device as unknown as () => boolean)()).toBe(false);
  });
});

describe('the URL policy', () => {
  it("knows the app's page by its file, whatever the fragment", () => {
    const page = { kind: 'file', url: PAGE } as const;
    expect(isAppPage(`${PAGE}?x#y`, page)).toBe(true);
    expect(isAppPage(PAGE.replace('index.html', 'other.html'), page)).toBe(false);
    expect(isAppPage('not a url', page)).toBe(false);
  });

  it('sends to the browser https links to Clever Cloud, and loopback links (the wake proxy)', () => {
    expect(externalLink('https://console.clever-cloud.com/')).toBe('https://console.clever-cloud.com/');
    expect(externalLink('http://127.0.0.1:7420/')).toBe('http://127.0.0.1:7420/');
    expect(externalLink('http://console.clever-cloud.com/')).toBeNull();
    expect(externalLink('https://console.clever-cloud.com.evil.example/')).toBeNull();
    expect(externalLink('https://user:pw@console.clever-cloud.com/')).toBeNull();
    expect(externalLink('mailto:someone@example.com')).toBeNull();
  });
});
