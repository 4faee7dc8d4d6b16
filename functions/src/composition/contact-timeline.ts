/** Wires GET /api/contacts/{id}/timeline (contacts group): the contact's calls and conversations, DynamoDB only. */
import { config } from '../config.js';
import { documentClient } from '../adapters/aws/dynamo.js';
import { DynamoContactTimelineReader } from '../adapters/dynamo/contact-timeline.js';
import { createContactTimeline } from '../domain/contacts/timeline.js';
import { once } from '../lib/once.js';

export const contactTimeline = once(() => createContactTimeline({ reader: new DynamoContactTimelineReader(documentClient(), config().TABLE_NAME) }));
