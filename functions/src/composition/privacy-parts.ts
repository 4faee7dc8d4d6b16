/**
 * The parts of a person's data (issue 33), one per kind, walked in PRIVACY_STEPS order by the
 * erasure, the export and the lookup (domain/privacy). Each part's adapter lives under
 * adapters/dynamo/privacy/; add its factory to the list below.
 */
import { config } from '../config.js';
import { documentClient } from '../adapters/aws/dynamo.js';
import { DynamoConversationsPart } from '../adapters/dynamo/privacy/conversations.js';
import { DynamoNotificationsPart } from '../adapters/dynamo/privacy/notifications.js';
import { S3AgentFiles } from '../adapters/s3-agent-files.js';
import { PRIVACY_STEPS } from '../contract/privacy.js';
import type { PersonDataPart } from '../domain/privacy/ports.js';
import { once } from '../lib/once.js';
import { bookingsPart, callsPart, contactPart } from './privacy-person-parts.js';
import { uploadsPresigner } from './user-view.js';

export const personDataParts = once((): PersonDataPart[] => {
  const parts: PersonDataPart[] = [
    // calls, conversations, bookings, notifications, contact: one line each.
    // Media objects deleted as S3MediaObjects.delete does (S3AgentFiles, retried on SlowDown), without the Graph media client in the API bundle.
    new DynamoConversationsPart(documentClient(), config().TABLE_NAME, new S3AgentFiles(uploadsPresigner())),
    new DynamoNotificationsPart(documentClient(), config().TABLE_NAME),
    callsPart(),
    bookingsPart(),
    contactPart(),
  ];
  return parts.sort((a, b) => PRIVACY_STEPS.indexOf(a.step) - PRIVACY_STEPS.indexOf(b.step));
});
