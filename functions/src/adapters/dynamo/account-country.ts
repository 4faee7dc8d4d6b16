/**
 * The account's country (issue 19): one GetItem of the profile projecting `country`, for every
 * route group that reads typed phone numbers. A function of its own (not the user repository) so
 * those groups bundle only this; a profile that never chose a country gets the deployment's default.
 */
import { GetCommand, type DynamoDBDocumentClient } from '../aws/dynamo-document.js';
import { userPk } from './keys.js';

export function dynamoAccountCountry(db: DynamoDBDocumentClient, tableName: string, defaultCountry: string) {
  return async (userId: string): Promise<string> => {
    const { Item } = await db.send(
      new GetCommand({
        TableName: tableName,
        Key: { pk: userPk(userId), sk: 'PROFILE' },
        ProjectionExpression: '#c',
        ExpressionAttributeNames: { '#c': 'country' },
      }),
    );
    return typeof Item?.country === 'string' && Item.country ? Item.country : defaultCountry;
  };
}
