/**
 * A fake of the `electron` module for Node tests (after Freelens' vitest.electron-stub.ts): the
 * few APIs the shell uses, recording what the shell does with them, so the real main process
 * (index.ts, bundled dependencies such as electron-store included) runs in vitest without the
 * Electron binary. vitest.config.ts aliases `electron` to this file for the Node tests.
 *
 * Not a simulation of Electron: enough to start the shell, drive its IPC, tray, notifications
 * and quit, and see what it did.
 */
import { EventEmitter } from 'node:events';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

type Handler = (...args: never[]) => unknown;

/** Everything the shell did, for the test to check. */
export const fake = {
  windows: [] as FakeBrowserWindow[],
  trays: [] as FakeTray[],
  notifications: [] as FakeNotification[],
  handlers: new Map<string, Handler>(),
  listeners: new Map<string, Handler>(),
  errors: [] as string[],
  opened: [] as string[],
  applicationMenu: undefined as unknown,
  exitCode: null as number | null,
  quit: false,
  /** app.enableSandbox() was called, and Electron was not ready yet (as it must be). */
  sandboxedBeforeReady: false,
  paths: new Map<string, string>([['userData', mkdtempSync(join(tmpdir(), 'reaper-fake-userdata-'))]]),
  /** What app.getPreferredSystemLanguages() answers (an empty list, as some Linux desktops give). */
  systemLanguages: ['en-US'] as string[],
  /** What app.getLocale() answers. */
  locale: 'en-US',
};

let contentsIds = 0;

class Preventable {
  defaultPrevented = false;
  preventDefault() {
    this.defaultPrevented = true;
  }
}

class FakeApp extends EventEmitter {
  isPackaged = false;
  private ready = false;
  private readyWaiters: (() => void)[] = [];

  /** The test says when Electron is ready (as Electron would, once). */
  becomeReady() {
    this.ready = true;
    for (const resolve of this.readyWaiters.splice(0)) resolve();
    this.emit('ready');
  }
  whenReady() {
    return this.ready ? Promise.resolve() : new Promise<void>((resolve) => this.readyWaiters.push(resolve));
  }
  isReady() {
    return this.ready;
  }
  enableSandbox() {
    if (this.ready) throw new Error('app.enableSandbox() can only be called before app is ready');
    fake.sandboxedBeforeReady = true;
  }
  getPath(name: string) {
    const path = fake.paths.get(name);
    if (!path) throw new Error(`the fake has no path ${name}`);
    return path;
  }
  setPath(name: string, path: string) {
    fake.paths.set(name, path);
  }
  getVersion() {
    return '0.1.0-test';
  }
  getName() {
    return 'Clever Reaper';
  }
  getPreferredSystemLanguages() {
    return [...fake.systemLanguages];
  }
  getLocale() {
    return fake.locale;
  }
  getAppPath() {
    return join(import.meta.dirname, '..', '..', '..');
  }
  requestSingleInstanceLock() {
    return true;
  }
  setAppUserModelId() {}
  setAsDefaultProtocolClient() {
    return true;
  }
  getLoginItemSettings() {
    return { openAtLogin: false };
  }
  setLoginItemSettings() {}
  quit() {
    const event = new Preventable();
    this.emit('before-quit', event);
    if (event.defaultPrevented) return;
    fake.quit = true;
    this.emit('will-quit', new Preventable());
    this.emit('quit');
  }
  exit(code = 0) {
    fake.exitCode = code;
  }
}

export const app = new FakeApp();

class FakeWebContents extends EventEmitter {
  readonly id = ++contentsIds;
  readonly sent: [string, ...unknown[]][] = [];
  destroyed = false;
  openHandler: Handler | null = null;
  readonly mainFrame = { url: '', parent: null };
  isDestroyed() {
    return this.destroyed;
  }
  send(channel: string, ...args: unknown[]) {
    this.sent.push([channel, ...structuredClone(args)]);
  }
  setWindowOpenHandler(handler: Handler) {
    this.openHandler = handler;
  }
  reload() {}
  toggleDevTools() {}
}

export class FakeBrowserWindow extends EventEmitter {
  readonly webContents = new FakeWebContents();
  readonly options: Record<string, unknown>;
  url = '';
  visible = false;
  destroyed = false;
  constructor(options: Record<string, unknown>) {
    super();
    this.options = options;
    fake.windows.push(this);
    app.emit('web-contents-created', new Preventable(), this.webContents);
  }
  async loadURL(url: string) {
    this.url = url;
    this.webContents.mainFrame.url = url;
    this.webContents.emit('did-start-loading');
    queueMicrotask(() => this.emit('ready-to-show'));
  }
  isDestroyed() {
    return this.destroyed;
  }
  isMinimized() {
    return false;
  }
  restore() {}
  show() {
    this.visible = true;
  }
  focus() {}
  close() {
    this.destroyed = true;
    this.webContents.destroyed = true;
    this.emit('closed');
  }
}
export const BrowserWindow = FakeBrowserWindow;

export const ipcMain = {
  handle(channel: string, handler: Handler) {
    fake.handlers.set(channel, handler);
  },
  on(channel: string, listener: Handler) {
    fake.listeners.set(channel, listener);
  },
};

export const Menu = {
  buildFromTemplate(template: unknown[]) {
    return { template };
  },
  setApplicationMenu(menu: unknown) {
    fake.applicationMenu = menu;
  },
};

export class FakeTray extends EventEmitter {
  image: unknown;
  tooltip = '';
  menu: { template: { label?: string; click?: () => void; submenu?: unknown }[] } | null = null;
  destroyed = false;
  constructor(image: unknown) {
    super();
    this.image = image;
    fake.trays.push(this);
  }
  setImage(image: unknown) {
    this.image = image;
  }
  setToolTip(tooltip: string) {
    this.tooltip = tooltip;
  }
  setContextMenu(menu: FakeTray['menu']) {
    this.menu = menu;
  }
  destroy() {
    this.destroyed = true;
  }
}
export const Tray = FakeTray;

export const nativeImage = {
  createFromPath(path: string) {
    return { path };
  },
};

export const nativeTheme = { shouldUseDarkColors: false };

export class FakeNotification extends EventEmitter {
  static isSupported() {
    return true;
  }
  readonly options: { title: string; body: string };
  constructor(options: { title: string; body: string }) {
    super();
    this.options = options;
  }
  show() {
    fake.notifications.push(this);
  }
}
export const Notification = FakeNotification;

export const powerMonitor = new EventEmitter();

/** A desktop without a keychain (as a CI machine is). */
export const safeStorage = {
  isAsyncEncryptionAvailable: async () => false,
  encryptStringAsync: async () => {
    throw new Error('no keychain');
  },
  decryptStringAsync: async () => {
    throw new Error('no keychain');
  },
  getSelectedStorageBackend: () => 'basic_text',
};

/** A session that keeps the permission handlers it is given. */
export class FakeSession {
  requestHandler: Handler | null = null;
  checkHandler: Handler | null = null;
  deviceHandler: Handler | null = null;
  setPermissionRequestHandler(handler: Handler | null) {
    this.requestHandler = handler;
  }
  setPermissionCheckHandler(handler: Handler | null) {
    this.checkHandler = handler;
  }
  setDevicePermissionHandler(handler: Handler | null) {
    this.deviceHandler = handler;
  }
}

export const session = { defaultSession: new FakeSession() };

export const shell = {
  async openExternal(url: string) {
    fake.opened.push(url);
  },
  async openPath() {
    return '';
  },
};

export const dialog = {
  showErrorBox(_title: string, message: string) {
    fake.errors.push(message);
  },
};

export default {
  app,
  BrowserWindow,
  dialog,
  ipcMain,
  Menu,
  nativeImage,
  nativeTheme,
  Notification,
  powerMonitor,
  safeStorage,
  session,
  shell,
  Tray,
};
