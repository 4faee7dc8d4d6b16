/**
 * Plumbing the loopback fakes (Stripe, OpenAI, WhatsApp Graph) share: a bounded request body,
 * a JSON object body, a JSON answer, and listening on a port. Each fake keeps its own
 * provider-shaped errors (passed in) and headers.
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

/** Listens on `port` (0 = any free port) and returns the port it got. */
export async function listen(server: Server, port: number, host: string): Promise<number> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return (server.address() as AddressInfo).port;
}
