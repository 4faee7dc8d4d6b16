/**
 * Lazy loading of the Lambda handlers named in the route manifest. Handlers are imported on
 * first use, after the stack has put its endpoints in process.env, so their module-level
 * config() sees local values; a module that does not exist yet only fails its own requests.
 */
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { routeGroups, socketApis, workers } from '../src/routes.js';

/** The functions/ folder: manifest entries are relative to it. */
export const functionsDir = dirname(dirname(fileURLToPath(import.meta.url)));

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- handlers take different event types
export type AnyHandler = (event: any, context: any) => Promise<unknown>;

export class HandlerNotFoundError extends Error {}

export async function loadEntry(entry: string, exportName = 'handler'): Promise<AnyHandler> {
  const file = join(functionsDir, entry);
  if (!existsSync(file)) throw new HandlerNotFoundError(`Handler module ${entry} does not exist yet`);
  const mod = (await import(pathToFileURL(file).href)) as Record<string, unknown>;
  const handler = mod[exportName];
  if (typeof handler !== 'function') throw new Error(`${entry} does not export a function named ${exportName}`);
  return handler as AnyHandler;
}

export function loadRouteGroup(group: string): Promise<AnyHandler> {
  const def = (routeGroups as Record<string, { entry: string } | undefined>)[group];
  if (!def) return Promise.reject(new HandlerNotFoundError(`Route group ${group} is not in the manifest`));
  return loadEntry(def.entry);
}

export function loadWorker(queue: string): Promise<AnyHandler> {
  const def = (workers as Record<string, { entry: string } | undefined>)[queue];
  if (!def) return Promise.reject(new HandlerNotFoundError(`Worker ${queue} is not in the manifest`));
  return loadEntry(def.entry);
}

export function loadSocketApi(name: string): Promise<AnyHandler> {
  const def = (socketApis as Record<string, { entry: string } | undefined>)[name];
  if (!def) return Promise.reject(new HandlerNotFoundError(`WebSocket API ${name} is not in the manifest`));
  return loadEntry(def.entry);
}
