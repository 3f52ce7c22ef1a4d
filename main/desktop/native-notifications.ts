/** System notifications, Electron side: shows what notifications.ts decided. */
import { Notification } from 'electron';
import type { NotificationPort, NotificationSpec } from './notifications.ts';

const KEPT_MAX = 50;

export class ElectronNotifications implements NotificationPort {
  /** Shown notifications are kept until closed: a collected one no longer answers its click. */
  private readonly open = new Set<Notification>();
  private readonly icon: string | undefined;

  constructor(icon?: string) {
    this.icon = icon;
  }

  show(spec: NotificationSpec): void {
    if (!Notification.isSupported()) return;
    const notification = new Notification({
      title: spec.title,
      body: spec.body,
      urgency: spec.urgent ? 'critical' : 'low',
      silent: !spec.urgent,
      ...(this.icon ? { icon: this.icon } : {}),
    });
    this.open.add(notification);
    // Some stay in the notification centre for days: keep the latest ones answering their click.
    if (this.open.size > KEPT_MAX) this.open.delete(this.open.values().next().value!);
    const forget = () => this.open.delete(notification);
    notification.on('click', () => {
      forget();
      spec.onClick();
    });
    notification.on('close', forget);
    notification.on('failed', forget);
    notification.show();
  }
}
