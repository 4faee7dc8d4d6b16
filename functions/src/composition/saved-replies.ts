/** Wires the saved replies: the DynamoDB repository and the service (the /api/saved-replies routes). */
import { config } from '../config.js';
import { documentClient } from '../adapters/aws/dynamo.js';
import { DynamoSavedReplyRepository } from '../adapters/dynamo/saved-replies.js';
import { createSavedReplyService } from '../domain/conversations/saved-replies.js';
import { once } from '../lib/once.js';

export const savedReplyService = once(() => createSavedReplyService({ replies: new DynamoSavedReplyRepository(documentClient(), config().TABLE_NAME) }));
