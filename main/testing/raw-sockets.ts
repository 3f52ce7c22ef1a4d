/**
 * Raw TCP connections for the tests of the servers' caps and parsers (fetch would pool them, or fix
 * the bytes a test needs broken). Test-only: nothing in the app imports it.
 */
import { connect, type Socket } from 'node:net';

/**
 * Open a connection from `from` (any 127/8 address is this machine), kept in `sockets` for the test
 * to destroy after; resolves once connected.
 */
export function openFrom(
  sockets: Socket[],
  port: number,
  from = '127.0.0.1',
): Promise<{ socket: Socket; closed: () => boolean }> {
  return new Promise((resolve, reject) => {
    let closed = false;
    const socket = connect({ port, host: '127.0.0.1', localAddress: from });
    sockets.push(socket);
    socket.on('close', () => (closed = true));
    socket.on('error', () => undefined);
    socket.once('connect', () => resolve({ socket, closed: () => closed }));
    socket.once('error', reject);
  });
}

/** A request on an open connection; its first answer line, or '' when the server closed it. */
export function ask(socket: Socket, text: string): Promise<string> {
  return new Promise((resolve) => {
    let answer = '';
    const done = () => resolve(answer.split('\r\n')[0] ?? '');
    socket.on('data', (c: Buffer) => {
      answer += c.toString('latin1');
      if (answer.includes('\r\n')) done();
    });
    socket.once('close', done);
    socket.write(text);
  });
}
