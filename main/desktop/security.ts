/**
 * Security restrictions of every web page of the app (after Podman Desktop's
 * security-restrictions.ts); each block names the item of Electron's security checklist it
 * implements (https://www.electronjs.org/docs/latest/tutorial/security). The window's own
 * preferences (context isolation, sandbox, no Node) are in window.ts, the CSP in renderer/index.html,
 * the IPC sender check in ipc.ts.
 *
 * Types only from Electron: index.ts applies these to the real objects, tests to fakes.
 */
import type { Event, HandlerDetails, Session, Shell, WebContents, WindowOpenHandlerResponse } from 'electron';
import type { Log } from '../../shared/log.ts';
import { type AppPage, externalLink, isAppPage } from './url-policy.ts';

export interface SecurityPolicy {
  page: AppPage;
  /** Electron's shell: it is handed only the links externalLink() lets through. */
  shell: Pick<Shell, 'openExternal'>;
  log?: Log;
}

type Contents = Pick<WebContents, 'on' | 'setWindowOpenHandler'>;

/** Navigation, new windows, webviews: only the app's own page, links to the browser when allowed. */
export function restrictContents(contents: Contents, policy: SecurityPolicy): void {
  const leave = (url: string, what: string) => {
    const link = externalLink(url);
    if (!link) {
      policy.log?.('warn', `${what} refused: ${url.slice(0, 200)}`);
      return;
    }
    // 15. Do not use shell.openExternal with untrusted content: the one call of the app, on a link
    // externalLink() accepted (https to Clever Cloud's hosts, or loopback), as it normalised it.
    policy.shell.openExternal(link).catch((error: unknown) => {
      policy.log?.('warn', `the browser could not open ${link.slice(0, 200)}: ${(error as Error).message}`);
    });
  };

  // 13. Disable or limit navigation: the page never leaves the app's own page.
  contents.on('will-navigate', (event: Event, url: string) => {
    if (isAppPage(url, policy.page)) return;
    event.preventDefault();
    leave(url, 'navigation');
  });
  contents.on('will-redirect', (event: Event, url: string) => {
    if (isAppPage(url, policy.page)) return;
    event.preventDefault();
    policy.log?.('warn', `redirect refused: ${url.slice(0, 200)}`);
  });

  // 14. Disable or limit the creation of new windows: never; an allowed link goes to the browser
  // (a middle-click on a link comes here too).
  contents.setWindowOpenHandler((details: HandlerDetails): WindowOpenHandlerResponse => {
    leave(details.url, 'new window');
    return { action: 'deny' };
  });

  // 12. Verify WebView options before creation: the app has no webview at all.
  contents.on('will-attach-webview', (event: Event) => {
    event.preventDefault();
    policy.log?.('warn', 'webview refused');
  });
}

type SessionLike = Pick<
  Session,
  'setPermissionRequestHandler' | 'setPermissionCheckHandler' | 'setDevicePermissionHandler'
>;

/** 5. Handle session permission requests from remote content: every permission is denied. */
export function denyPermissions(session: SessionLike, log?: Log): void {
  session.setPermissionRequestHandler((_contents, permission, callback) => {
    log?.('warn', `permission refused: ${permission}`);
    callback(false);
  });
  session.setPermissionCheckHandler(() => false);
  session.setDevicePermissionHandler(() => false);
}
