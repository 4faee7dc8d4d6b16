/**
 * Port helpers. Every port is checked before anything starts, so a clash is reported
 * once and clearly instead of as a half-started stack.
 */
import { createServer } from 'node:net';

export class PortInUseError extends Error {
  constructor(
    readonly port: number,
    readonly service: string,
    readonly envVar?: string,
  ) {
    super(
      `Port ${port} is already in use (${service}).` + (envVar ? ` Set ${envVar} to another port.` : ''),
    );
    this.name = 'PortInUseError';
  }
}

/**
 * True when nothing listens on the port. Binding the wildcard address also collides with a
 * listener on 127.0.0.1 or on a dual-stack '::', which covers how our services bind.
 */
export function isPortFree(port: number, host = '0.0.0.0'): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', () => resolve(false));
    probe.listen({ port, host, exclusive: true }, () => probe.close(() => resolve(true)));
  });
}

/** A port the OS considers free right now (tests ask for 0 = "any"). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen({ port: 0, host: '127.0.0.1', exclusive: true }, () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

export interface PortRequest {
  service: string;
  /** 0 or undefined: pick a free one. */
  port?: number;
  envVar?: string;
}

/** Resolve 0 to free ports and fail with PortInUseError on the first taken fixed port. */
export async function resolvePorts<K extends string>(requests: Record<K, PortRequest>): Promise<Record<K, number>> {
  const result = {} as Record<K, number>;
  const taken = new Set<number>();
  for (const key of Object.keys(requests) as K[]) {
    const { port, service, envVar } = requests[key];
    if (port) {
      if (taken.has(port) || !(await isPortFree(port))) throw new PortInUseError(port, service, envVar);
      result[key] = port;
    } else {
      let picked = await freePort();
      while (taken.has(picked)) picked = await freePort();
      result[key] = picked;
    }
    taken.add(result[key]);
  }
  return result;
}
