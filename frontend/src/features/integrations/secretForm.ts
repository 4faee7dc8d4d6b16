/**
 * What the integration setup forms share about secrets (API key, auth token, bearer token, app
 * secret): a stored secret reads '***' in the API, the form shows it masked, and an untouched or
 * emptied field is sent back as '***' so the server keeps the stored value.
 */
import * as z from 'zod/mini';
import { MASKED_SECRET, type IntegrationView } from '@agentdesk/functions/contract';

/** Whether the integration holds this secret (it reads '***'). */
export function hasStoredSecret(integration: IntegrationView | null | undefined, key: string): boolean {
  return Boolean(integration?.credentials?.[key]);
}

/** A secret field: kept when stored ('***' or empty), else required (not empty, not the mask). */
export const secretField = (stored: boolean, message: string, max: number) =>
  stored
    ? z.string().check(z.trim(), z.maxLength(max))
    : z.string({ error: message }).check(z.trim(), z.minLength(1, message), z.refine((v) => v !== MASKED_SECRET, message), z.maxLength(max));

/** The setup/test body: each emptied secret is sent as '***' so the server keeps the stored one. */
export function keepStoredSecrets<T extends object>(values: T, keys: readonly (keyof T & string)[]): T {
  const body = { ...values };
  for (const key of keys) if (body[key] === '') (body as Record<string, unknown>)[key] = MASKED_SECRET;
  return body;
}

/** A credential or setting as text ('' when absent). */
export const textOf = (value: unknown): string => (typeof value === 'string' ? value : '');
