/**
 * Who the app is to the OS. electron-builder.yml says the same (a test checks): the app id names
 * its notifications on Windows (AppUserModelID) and its bundle on macOS.
 */
export const APP_ID = 'io.github.cleverreaper';
export const PRODUCT_NAME = 'Clever Reaper';
