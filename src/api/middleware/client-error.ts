import type { Duplex } from 'node:stream';

/**
 * Node's HTTP parser answers requests it cannot read (headers or URL over 16 KiB, broken framing)
 * before Express sees them; this keeps those answers in the contract's error body too.
 */
export function rejectMalformedRequest(err: NodeJS.ErrnoException, socket: Duplex): void {
  if (!socket.writable || err.code === 'ECONNRESET') {
    socket.destroy();
    return;
  }
  const tooLarge = err.code === 'HPE_HEADER_OVERFLOW';
  const status = tooLarge ? '431 Request Header Fields Too Large' : '400 Bad Request';
  const body = JSON.stringify({
    success: false,
    message: tooLarge ? 'The request headers or URL are too large' : 'The request could not be read',
    error: { code: 'BAD_REQUEST' },
  });
  socket.end(`HTTP/1.1 ${status}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
}
