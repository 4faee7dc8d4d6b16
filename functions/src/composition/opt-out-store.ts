/** Customers' opt-outs (issue 33, OPTOUT# items): DynamoDB only, for every writer of a business-initiated message and the views that show it. */
import { config } from '../config.js';
import { documentClient } from '../adapters/aws/dynamo.js';
import { DynamoOptOuts } from '../adapters/dynamo/opt-outs.js';
import { once } from '../lib/once.js';

export const optOutStore = once(() => new DynamoOptOuts(documentClient(), config().TABLE_NAME));
