/**
 * WhatsApp wiring shared by the WhatsApp features (integration test, inbound worker, human
 * replies, retries): the Graph API client and the user's connection (the sealed token opened).
 * DynamoDB, the secret box and fetch only; the webhook's queue lives in whatsapp-webhook.ts.
 */
import { config } from '../config.js';
import { documentClient } from '../adapters/aws/dynamo.js';
import { DynamoIntegrationRepository } from '../adapters/dynamo/integrations.js';
import { HttpGraphClient } from '../adapters/whatsapp/graph.js';
import { createWhatsAppConnector, type WhatsAppConnection } from '../domain/whatsapp/integration.js';
import type { GraphClient, GraphContentClient, GraphTemplateClient } from '../domain/whatsapp/ports.js';
import { once } from '../lib/once.js';
import { secretBox } from './secrets.js';

export type { WhatsAppConnection };

export const graphClient = once((): GraphClient & GraphTemplateClient & GraphContentClient => new HttpGraphClient({ baseUrl: config().WHATSAPP_GRAPH_URL }));

/** The integrations table (built here, not taken from ai.ts, so WhatsApp bundles skip the OpenAI SDK). */
export const whatsappIntegrations = once(() => new DynamoIntegrationRepository(documentClient(), config().TABLE_NAME));

const connector = once(() => createWhatsAppConnector({ integrations: whatsappIntegrations(), secrets: secretBox() }));

/** The user's active WhatsApp integration with its token opened ({credentials, phoneNumber, integrationId}), or null. */
export const whatsappCredentials = (userId: string): Promise<WhatsAppConnection | null> => connector().forUser(userId);
