/**
 * Meta's media id of an agent file the agent sent on WhatsApp (issue 31, FileRecord.metaMedia),
 * kept on the file's item (ACCESS-PATTERNS.md, agents: pk=USER#{u}, sk=AGENT#{agentId}#FILE#{fileId})
 * so the next send_file of it within Meta's 30 days goes by that id without uploading it again.
 */
import { UpdateCommand, type DynamoDBDocumentClient } from '../aws/dynamo-document.js';
import type { FileMetaMedia } from '../../domain/agents/ports.js';
import { childSk } from './agents.js';
import { unlessConditionFails } from './conditions.js';
import { userPk } from './keys.js';

export class DynamoAgentFileMedia {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  /** Notes the upload on the file; nothing when the file was deleted meanwhile. */
  async remember(userId: string, agentId: string, fileId: string, media: FileMetaMedia): Promise<void> {
    await unlessConditionFails(
      this.db.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: { pk: userPk(userId), sk: childSk(agentId, 'FILE', fileId) },
          UpdateExpression: 'SET #media = :media',
          ConditionExpression: 'attribute_exists(pk)',
          ExpressionAttributeNames: { '#media': 'metaMedia' },
          ExpressionAttributeValues: { ':media': { phoneId: media.phoneId, mediaId: media.mediaId, at: media.at } },
        }),
      ),
    );
  }
}
