/**
 * The tray icon, Electron side: draws what the controller computed (status icon, tooltip, menu
 * from tray-menu.ts). Icons come from build/icons/tray (copied next to the app by
 * electron-builder's extraResources), one per status, with a @2x variant.
 */
import { join } from 'node:path';
import { Menu, nativeImage, Tray } from 'electron';
import { type TrayAction, type TrayPort, type TrayView, toMenuTemplate } from './tray-menu.ts';
import type { TrayStatus } from './tray-status.ts';

export class ElectronTray implements TrayPort {
  private readonly tray: Tray;
  private readonly iconDir: string;
  private readonly run: (action: TrayAction) => void;
  private status: TrayStatus = 'ok';

  constructor(iconDir: string, run: (action: TrayAction) => void, onClick: () => void) {
    this.iconDir = iconDir;
    this.run = run;
    this.tray = new Tray(this.icon('ok'));
    this.tray.setToolTip('Clever Reaper');
    // Windows opens the app on a click of its tray icon; elsewhere a click shows the menu.
    if (process.platform === 'win32') this.tray.on('click', onClick);
  }

  render(view: TrayView): void {
    if (view.status !== this.status) {
      this.status = view.status;
      this.tray.setImage(this.icon(view.status));
    }
    this.tray.setToolTip(view.tooltip);
    this.tray.setContextMenu(Menu.buildFromTemplate(toMenuTemplate(view.menu, process.platform, this.run)));
  }

  destroy(): void {
    this.tray.destroy();
  }

  private icon(status: TrayStatus) {
    // Linux panels draw tray icons at 22-24 px: the 32 px image is the sharper start there.
    const file = process.platform === 'linux' ? `${status}@2x.png` : `${status}.png`;
    return nativeImage.createFromPath(join(this.iconDir, file));
  }
}
