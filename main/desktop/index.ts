/**
 * The desktop app's main process: Electron around the same runtime as the headless server.
 *
 * Order matters here, and is the whole of this file: the command line and the data directory
 * (before anything touches userData), the single-instance lock (a second launch hands its link to
 * the first and quits), then once Electron is ready: security restrictions, the settings file and
 * the keychain, the service (its IPC registered first, so an early window waits for it), the
 * window, the tray, the notifications, power events, and a clean stop on quit. Everything with
 * behaviour worth testing lives in the modules it wires (controller.ts, ipc.ts, security.ts, ...).
 */
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { app, dialog, ipcMain, Menu, powerMonitor, safeStorage, session, shell } from 'electron';
import ElectronStore from 'electron-store';
import { ApiError } from '../../shared/api-errors.ts';
import { pickLanguage } from '../../shared/i18n/languages.ts';
import { CALL_CHANNEL, LANGUAGE_CHANNEL, READY_CHANNEL } from '../../shared/ipc.ts';
import { describeError, type Log } from '../../shared/log.ts';
import { CONSOLE_CHANNEL } from '../../shared/team-console.ts';
import { startHttpServer } from '../server/http-server.ts';
import { loadOrCreateToken } from '../server/token.ts';
import type { ReaperService } from '../service/reaper-service.ts';
import { startRuntime } from '../service/runtime.ts';
import { DESKTOP_USAGE, type DesktopArgs, findLink, parseDesktopArgs } from './args.ts';
import { createConsoleHandler, pushConsoleState } from './console-ipc.ts';
import { ConsoleMode } from './console-mode.ts';
import { DesktopController, type ServicePort } from './controller.ts';
import { APP_ID } from './identity.ts';
import { createCallHandler, createReadyHandler, EventPipe, type Trust } from './ipc.ts';
import { createLanguageHandler } from './language-ipc.ts';
import { createLog } from './log.ts';
import { autostartDir, type LoginItem, UNSUPPORTED_LOGIN_ITEM, XdgAutostart } from './login-item.ts';
import { ElectronNotifications } from './native-notifications.ts';
import { LINK_SCHEME } from './protocol.ts';
import { SafeStorageSecrets } from './safe-storage-secrets.ts';
import { denyPermissions, restrictContents } from './security.ts';
import {
  desktopPrefs,
  openSettings,
  SETTINGS_NAME,
  SettingsBackend,
  type SettingsFile,
  setAsideWarning,
  settingsFileOptions,
  updateDesktopPrefs,
} from './settings-file.ts';
import { ElectronTray } from './tray.ts';
import type { AppPage } from './url-policy.ts';
import { DashboardWindow } from './window.ts';

/** Stopping the engine and closing the datastore takes less; past this, the app exits anyway. */
const QUIT_TIMEOUT_MS = 10_000;

/** A handler for a promise nobody awaits: its failure logged with what was being done. */
function failed(log: Log, what: string): (error: unknown) => void {
  return (error) => log('error', `${what} failed: ${describeError(error, { stack: true })}`);
}

function fail(message: string, code = 1): void {
  console.error(message);
  dialog.showErrorBox('Clever Reaper', message);
  app.exit(code);
}

let args: DesktopArgs | null = null;
try {
  args = parseDesktopArgs(process.argv.slice(1));
} catch (error) {
  fail(`${(error as Error).message}\n\n${DESKTOP_USAGE}`, 2);
}

if (args) {
  // Before anything reads it: Chromium's profile, electron-store and the lock all live there, so
  // an app started with --data-dir (a test) is wholly apart from the installed one.
  if (args.dataDir) app.setPath('userData', args.dataDir);
  if (process.platform === 'win32') app.setAppUserModelId(APP_ID);
  if (!app.requestSingleInstanceLock({ link: args.link })) {
    // The running app got our link (second-instance) and shows itself.
    app.quit();
  } else {
    run(args);
  }
}

function run(args: DesktopArgs): void {
  const dataDir = app.getPath('userData');
  let controller: DesktopController | null = null;
  let window: DashboardWindow | null = null;
  const links: string[] = args.link ? [args.link] : [];
  const openLink = (link: string) => {
    if (controller) controller.openLink(link).catch(failed(log, `opening the link ${link}`));
    else links.push(link);
  };

  // macOS hands links over with an event (it may come before ready).
  app.on('open-url', (event, url) => {
    event.preventDefault();
    openLink(url);
  });
  app.on('second-instance', (_event, argv, _cwd, data) => {
    const link = (data as { link?: unknown } | undefined)?.link;
    const given = typeof link === 'string' ? link : findLink(argv);
    if (given) openLink(given);
    else window?.open();
  });
  // Closing the window leaves the reaper running in the tray: only Quit stops it.
  app.on('window-all-closed', () => undefined);
  app.on('activate', () => window?.open());

  const log = createLog(join(dataDir, 'logs'));
  process.on('unhandledRejection', (reason) => {
    log('error', `unhandled rejection: ${describeError(reason, { stack: true })}`);
  });
  start(args, dataDir, log, {
    setController: (c) => {
      controller = c;
      for (const link of links.splice(0)) c.openLink(link).catch(failed(log, `opening the link ${link}`));
    },
    setWindow: (w) => {
      window = w;
    },
  }).catch((error: unknown) => {
    log('error', `the app could not start: ${(error as Error).stack ?? error}`);
    fail(`Clever Reaper could not start: ${(error as Error).message}`);
  });
}

async function start(
  args: DesktopArgs,
  dataDir: string,
  log: Log,
  hooks: { setController(c: DesktopController): void; setWindow(w: DashboardWindow): void },
): Promise<void> {
  let controller: DesktopController | null = null;
  // Security, before Electron is ready: every renderer sandboxed, whatever its webPreferences say
  // (checklist item 4; the window asks for it too), and every session denies permissions (item 5),
  // the default one and any created later.
  app.enableSandbox();
  app.on('session-created', (created) => denyPermissions(created, log));
  await app.whenReady();
  log(
    'info',
    `Clever Reaper ${app.getVersion()} (Electron ${process.versions.electron}); data in ${dataDir}`,
  );
  const packaged = app.isPackaged;

  // Security: every page of the app, before any exists.
  const devUrl = packaged ? undefined : process.env.ELECTRON_RENDERER_URL;
  const page: AppPage = devUrl
    ? { kind: 'dev', url: devUrl }
    : { kind: 'file', url: pathToFileURL(join(import.meta.dirname, '../renderer/index.html')).toString() };
  app.on('web-contents-created', (_event, contents) => restrictContents(contents, { page, shell, log }));
  denyPermissions(session.defaultSession, log);
  // macOS needs an Edit menu for copy and paste; elsewhere the window has no menu bar.
  Menu.setApplicationMenu(
    process.platform === 'darwin'
      ? Menu.buildFromTemplate([{ role: 'appMenu' }, { role: 'editMenu' }, { role: 'windowMenu' }])
      : null,
  );
  // Installed apps own the links; a checkout does not register itself with the OS.
  if (packaged) app.setAsDefaultProtocolClient(LINK_SCHEME);

  // Settings and credentials.
  const settings = openSettings(
    dataDir,
    () => new ElectronStore<SettingsFile>({ ...settingsFileOptions(dataDir, log), name: SETTINGS_NAME }),
  );
  const accountSettings = new SettingsBackend(settings.store, settings.setAside);
  const notices: string[] = [];
  if (settings.setAside) {
    notices.push(setAsideWarning(settings.setAside));
    log('warn', notices[0]!);
  }
  const secrets = await SafeStorageSecrets.open({
    file: join(dataDir, 'credentials.safe'),
    safeStorage,
    log,
  });
  if (secrets.unavailable)
    log('warn', `${secrets.unavailable}: a pasted token cannot be kept across restarts`);

  // The service, its events to the window's push channel from its first moment: this computer's
  // engine, or (team mode, console-mode.ts) a team server's API and event stream.
  const teamStore = await SafeStorageSecrets.open({
    file: join(dataDir, 'team-server.safe'),
    safeStorage,
    log,
  });
  const pipe = new EventPipe();
  let localService: ReaperService | null = null;
  const mode = new ConsoleMode({
    startLocal: async () => {
      const service = await startRuntime({
        demo: args.demo,
        scenario: args.scenario,
        timeScale: args.timeScale,
        dataDir,
        apiUrl: null,
        version: app.getVersion(),
        log,
        accountBackend: () => accountSettings,
        secrets,
        notices: () => notices,
      });
      localService = service;
      return {
        call: (name, input) => service.call(name, input),
        subscribe: (listener) => service.subscribe(listener),
        reconcile: () => service.reconcile(),
        close: async () => {
          if (localService === service) localService = null;
          await service.close();
        },
      };
    },
    store: teamStore,
    log,
  });
  mode.subscribe((event, seq) => pipe.push(event, seq));
  const started: Promise<ConsoleMode> = mode.start().then(() => mode);

  const icons = packaged ? join(process.resourcesPath, 'icons') : join(app.getAppPath(), 'build', 'icons');
  const window = new DashboardWindow({
    page,
    preload: join(import.meta.dirname, '../preload/index.cjs'),
    pipe,
    icon: join(icons, 'icon.png'),
    devTools: !packaged,
    onClosed: () => controller?.windowClosed(),
    log,
  });
  hooks.setWindow(window);
  const trust: Trust = { page, isAppWindow: (id) => window.isAppWindow(id) };
  ipcMain.handle(
    CALL_CHANNEL,
    createCallHandler({ call: async (name, input) => (await started).call(name, input) }, trust, log),
  );
  ipcMain.handle(
    CONSOLE_CHANNEL,
    createConsoleHandler(
      {
        state: () => mode.state(),
        connect: async (input) => (await started).connect(input),
        switchToLocal: async () => (await started).switchToLocal(),
      },
      trust,
      log,
    ),
  );
  pushConsoleState(mode, pipe);
  ipcMain.on(READY_CHANNEL, createReadyHandler(pipe, trust, log));
  const prefs = {
    get: () => desktopPrefs(settings.store),
    update: (changes: Parameters<typeof updateDesktopPrefs>[1]) =>
      updateDesktopPrefs(settings.store, changes),
  };
  ipcMain.handle(
    LANGUAGE_CHANNEL,
    createLanguageHandler(
      () =>
        controller ?? {
          // Chosen before the tray exists: kept, and the tray starts in it.
          setLanguage: (choice) => {
            prefs.update({ language: choice ?? undefined });
            return pickLanguage(systemLanguages(), choice);
          },
        },
      trust,
      log,
    ),
  );
  // The window opens at once ("Loading the reaper…") while the service starts.
  if (!args.hidden && !args.link) window.open();

  await started;
  const tray = new ElectronTray(
    join(icons, 'tray'),
    (action) => {
      controller?.run(action).catch(failed(log, `the tray's ${action}`));
    },
    () => window.open(),
  );
  controller = new DesktopController({
    service: {
      // The tray's actions: written as the local user's through the tray (or sent so to a team server).
      call: (name, input) => mode.call(name, input, 'tray'),
      subscribe: (listener) => mode.subscribe(listener),
      reconcile: () => mode.reconcile(),
    } as ServicePort,
    console: mode,
    window,
    tray,
    pipe,
    notifications: new ElectronNotifications(join(icons, 'icon.png')),
    prefs,
    login: loginItem(packaged),
    quit: () => app.quit(),
    systemLanguages,
    log,
  });
  await controller.start();
  hooks.setController(controller);
  powerMonitor.on('resume', () => {
    controller?.resumed().catch(failed(log, 'catching up after a sleep of the computer'));
  });

  // --admin-port: the admin API of the headless server, on loopback, for scripts (and tests): the
  // local engine's (in team mode, the team server's own API is the one to use).
  let admin: Awaited<ReturnType<typeof startHttpServer>> | null = null;
  if (args.adminPort !== null) {
    const token = loadOrCreateToken(dataDir);
    const local = (): ReaperService => {
      if (!localService) throw new ApiError('unavailable', "team mode: use the team server's admin API");
      return localService;
    };
    admin = await startHttpServer({
      backend: {
        call: (name, input) => local().call(name, input),
        subscribe: (listener) => mode.subscribe(listener),
        clock: () => localService?.clock() ?? { now: Date.now(), timeScale: 1 },
        metricsText: () => local().metricsText(),
        historyExport: (raw) => local().historyExport(raw),
      },
      token: token.token,
      host: '127.0.0.1',
      port: args.adminPort,
      staticDir: null,
      log,
    });
    console.log(`Admin API: ${admin.url}/api  (token: ${token.file ?? '$REAPER_ADMIN_TOKEN'})`);
  }

  // Quit: stop the engine and close the datastore before the process ends.
  let stopped = false;
  let stopping = false;
  app.on('before-quit', (event) => {
    if (stopped) return;
    event.preventDefault();
    if (stopping) return;
    stopping = true;
    void (async () => {
      log('info', 'quitting: stopping the reaper');
      controller?.stop();
      const timeout = new Promise<void>((resolve) => setTimeout(resolve, QUIT_TIMEOUT_MS).unref());
      await Promise.race([
        Promise.allSettled([admin?.close(), mode.close(), secrets.flush(), teamStore.flush()]).then(
          () => undefined,
        ),
        timeout,
      ]);
      tray.destroy();
    })()
      .catch((error: unknown) => log('error', `while quitting: ${(error as Error).message}`))
      .finally(() => {
        stopped = true;
        app.quit();
      });
  });
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => app.quit());
}

/** The system's preferred languages, most preferred first; the UI locale where the OS gives no list. */
function systemLanguages(): string[] {
  const preferred = app.getPreferredSystemLanguages();
  return preferred.length ? preferred : [app.getLocale()];
}

function loginItem(packaged: boolean): LoginItem {
  if (!packaged) return UNSUPPORTED_LOGIN_ITEM;
  if (process.platform === 'linux') {
    // An AppImage moves with its file: APPIMAGE is where it is now.
    return new XdgAutostart(autostartDir(), [process.env.APPIMAGE ?? process.execPath, '--hidden']);
  }
  return {
    supported: true,
    isEnabled: () => app.getLoginItemSettings({ args: ['--hidden'] }).openAtLogin,
    setEnabled: (on) => app.setLoginItemSettings({ openAtLogin: on, args: ['--hidden'] }),
  };
}
