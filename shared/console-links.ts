/**
 * Links to an app's pages in the Clever Cloud console, for an organisation or the personal space.
 * Pure: the dashboard renders them, the desktop's URL policy (main/desktop/url-policy.ts) lets them
 * through to the browser (its host is one of EXTERNAL_HOSTS).
 *
 * Sources (Clever Cloud's own code):
 * - the console's address: clever-tools `src/commands/console.js` (`baseUrl`), and `config.js`;
 * - the app page: clever-tools `src/commands/console/console.command.js` (`clever console`): an owner
 *   id starting with `user_` is the personal space, `/users/me/applications/{appId}`; any other is
 *   `/organisations/{ownerId}/applications/{appId}`;
 * - the logs page: clever-components `cc-addon-info.smart-*.md` and `cc-addon-header.smart-*.md`,
 *   whose `logsUrlPattern` is `/organisations/${ownerId}/applications/${appId}/logs`;
 * - the deployments ("activity") are listed on the app's overview page by `<cc-tile-deployments>`
 *   (clever-components `src/components/cc-tile-deployments/`), each with its logs.
 */

export const CONSOLE_ORIGIN = 'https://console.clever-cloud.com';

/** A personal space's owner id is its user's id (`user_…`); an organisation's is `orga_…`. */
export function isPersonalSpace(ownerId: string): boolean {
  return ownerId.startsWith('user_');
}

/** The owner's part of a console path: the personal space or an organisation. */
export function consoleOwnerPath(ownerId: string): string {
  return isPersonalSpace(ownerId) ? '/users/me' : `/organisations/${encodeURIComponent(ownerId)}`;
}

/** The app's page in the console (its overview, with its deployments). */
export function consoleAppUrl(ownerId: string, appId: string): string {
  return `${CONSOLE_ORIGIN}${consoleOwnerPath(ownerId)}/applications/${encodeURIComponent(appId)}`;
}

/** The app's logs in the console. */
export function consoleLogsUrl(ownerId: string, appId: string): string {
  return `${consoleAppUrl(ownerId, appId)}/logs`;
}
