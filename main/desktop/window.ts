/**
 * The dashboard's window, with Electron's security defaults spelled out (checklist items 2-4, 6, 8,
 * 9: no Node in the page, context isolation, sandbox, web security on, no insecure content, no
 * experimental features; no enableBlinkFeatures, item 10). One window at a time; closing
 * it destroys it (the reaper keeps running in the main process, the tray stays), opening it again
 * builds a new one that starts from a snapshot.
 */
import { BrowserWindow, nativeTheme } from 'electron';
import type { Log } from '../../shared/log.ts';
import type { WindowPort } from './controller.ts';
import type { EventPipe } from './ipc.ts';
import type { AppPage } from './url-policy.ts';

export interface DashboardWindowOptions {
  page: AppPage;
  preload: string;
  pipe: EventPipe;
  /** The window icon (Linux and Windows; macOS uses the bundle's). */
  icon?: string;
  /** DevTools can be opened (a checkout; never the installed app). */
  devTools: boolean;
  onClosed(): void;
  log?: Log;
}

export class DashboardWindow implements WindowPort {
  private readonly options: DashboardWindowOptions;
  private window: BrowserWindow | null = null;
  private contentsId: number | null = null;

  constructor(options: DashboardWindowOptions) {
    this.options = options;
  }

  /** The webContents of the app's window (for the IPC sender check). */
  isAppWindow(webContentsId: number): boolean {
    return this.contentsId !== null && webContentsId === this.contentsId;
  }

  get current(): BrowserWindow | null {
    return this.window;
  }

  open(): void {
    const existing = this.window;
    if (existing && !existing.isDestroyed()) {
      if (existing.isMinimized()) existing.restore();
      existing.show();
      existing.focus();
      return;
    }
    this.window = this.create();
  }

  private create(): BrowserWindow {
    const { page, preload, pipe, icon, devTools } = this.options;
    const win = new BrowserWindow({
      width: 1280,
      height: 820,
      minWidth: 860,
      minHeight: 560,
      show: false,
      title: 'Clever Reaper',
      // The page's own background, so no white flash before the first paint in dark mode.
      backgroundColor: nativeTheme.shouldUseDarkColors ? '#0f1115' : '#f5f6f8',
      autoHideMenuBar: true,
      ...(icon ? { icon } : {}),
      webPreferences: {
        preload,
        contextIsolation: true,
        sandbox: true,
        nodeIntegration: false,
        nodeIntegrationInWorker: false,
        nodeIntegrationInSubFrames: false,
        webSecurity: true,
        allowRunningInsecureContent: false,
        experimentalFeatures: false,
        webviewTag: false,
        navigateOnDragDrop: false,
        spellcheck: false,
        devTools,
      },
    });
    const contents = win.webContents;
    this.contentsId = contents.id;
    pipe.attach(contents);
    // A reload: the new page says when it listens again.
    contents.on('did-start-loading', () => pipe.attach(contents));
    // A crashed page is loaded again (at most once a minute: a page that keeps crashing stays down,
    // and the log says why); the reaper itself runs on in the main process meanwhile.
    let reloadedAt = -Infinity;
    contents.on('render-process-gone', (_event, details) => {
      this.options.log?.('error', `the dashboard's page went away: ${details.reason} (${details.exitCode})`);
      if (details.reason === 'clean-exit' || win.isDestroyed()) return;
      if (Date.now() - reloadedAt < 60_000) return;
      reloadedAt = Date.now();
      contents.reload();
    });
    // A checkout has no menu bar to open DevTools from: F12 or Ctrl/Cmd+Shift+I.
    if (devTools) {
      contents.on('before-input-event', (_event, input) => {
        const shortcut =
          input.key === 'F12' || ((input.control || input.meta) && input.shift && input.key === 'I');
        if (input.type === 'keyDown' && shortcut) contents.toggleDevTools();
      });
    }
    win.once('ready-to-show', () => {
      win.show();
      win.focus();
    });
    win.on('closed', () => {
      pipe.detach(contents);
      if (this.window === win) {
        this.window = null;
        this.contentsId = null;
      }
      this.options.onClosed();
    });
    win.loadURL(page.url).catch((error: unknown) => {
      this.options.log?.('error', `the dashboard could not be loaded: ${(error as Error).message}`);
    });
    return win;
  }
}
