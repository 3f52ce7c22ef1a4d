/**
 * The admin token of the headless server. The server prints the dashboard's URL with the token in
 * the fragment (#token=...), which browsers never send over the network; the dashboard moves it to
 * sessionStorage (gone when the tab closes) and takes it out of the address bar.
 */
const KEY = 'clever-reaper.token';

export function takeTokenFromLocation(location: Location, history: History, storage: Storage): string | null {
  const params = new URLSearchParams(location.hash.replace(/^#/, ''));
  const fromHash = params.get('token');
  if (fromHash) {
    storage.setItem(KEY, fromHash);
    params.delete('token');
    const rest = params.toString();
    history.replaceState(null, '', `${location.pathname}${location.search}${rest ? `#${rest}` : ''}`);
    return fromHash;
  }
  return storage.getItem(KEY);
}

export function saveToken(storage: Storage, token: string): void {
  storage.setItem(KEY, token.trim());
}

export function forgetToken(storage: Storage): void {
  storage.removeItem(KEY);
}
