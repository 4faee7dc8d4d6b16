/**
 * Plumbing the loopback fakes (Stripe, OpenAI, WhatsApp Graph, Twilio) share: a bounded request
 * body, a JSON object body, a JSON answer, listening on a port, scripted delays and closing. Each
 * fake keeps its own provider-shaped errors (passed in) and headers.
 */
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** The body as text; `tooLarge()` is thrown past `maxBytes`. */
export async function readBody(req: IncomingMessage, maxBytes: number, tooLarge: () => Error): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > maxBytes) throw tooLarge();
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** A JSON object body ({} when empty); `invalid()` is thrown for anything that is not a JSON object. */
export async function readJsonObject(
  req: IncomingMessage,
  maxBytes: number,
  errors: { tooLarge: () => Error; invalid: () => Error },
): Promise<Record<string, unknown>> {
  const text = await readBody(req, maxBytes, errors.tooLarge);
  if (!text) return {};
  try {
    const value = JSON.parse(text) as unknown;
    if (value && typeof value === 'object' && !Array.isArray(value)) return value as Record<string, unknown>;
  } catch {
    // fall through
  }
  throw errors.invalid();
}

/** A JSON answer; a no-op once the response is finished (a late error after a timeout). */
export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}, indent?: number): void {
  if (res.writableEnded || res.destroyed) return;
  const text = JSON.stringify(body, null, indent);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...headers });
  res.end(text);
}

/**
 * Node closes an idle keep-alive socket after 5 s, the clients (undici, the SDKs) after about 4 s:
 * on a loaded machine the client's timer runs late and a request written on the socket just as the
 * server closes it fails with "other side closed" (seen on CI, a presigned upload). The local
 * servers keep idle sockets longer than any client, as AWS's and the providers' endpoints do.
 */
export const IDLE_KEEP_ALIVE_MS = 65_000;

/** Listens on `port` (0 = any free port) and returns the port it got. */
export async function listen(server: Server, port: number, host: string): Promise<number> {
  server.keepAliveTimeout = IDLE_KEEP_ALIVE_MS;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return (server.address() as AddressInfo).port;
}

/** A fake's scripted delays: each ends early when the client hangs up; `cancel()` clears those still pending. */
export function createWaits() {
  const timers = new Set<NodeJS.Timeout>();
  return {
    /** true after `ms`; false as soon as the client closed the connection. */
    wait: (ms: number, res: ServerResponse) =>
      new Promise<boolean>((resolve) => {
        const timer = setTimeout(() => {
          timers.delete(timer);
          resolve(true);
        }, ms);
        timers.add(timer);
        res.once('close', () => {
          clearTimeout(timer);
          timers.delete(timer);
          resolve(false);
        });
      }),
    cancel: () => {
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
    },
  };
}

/** Stops a fake once (later calls get the same promise): its pending delays, the server and its open connections. */
export function closeOnce(server: Server, waits: { cancel: () => void }): () => Promise<void> {
  let closing: Promise<void> | undefined;
  return () =>
    (closing ??= new Promise<void>((resolve) => {
      waits.cancel();
      server.close(() => resolve());
      server.closeAllConnections();
    }));
}
