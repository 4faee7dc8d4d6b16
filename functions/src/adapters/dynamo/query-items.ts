/**
 * A Query followed through every page (LastEvaluatedKey), optionally stopping at `cap` items:
 * then each page asks for at most what is still missing (≤ 1000), so no more than `cap` items are
 * read. For listings whose size the caller bounds; pages that are consumed as they arrive use their
 * own loop (e.g. the call log's generator).
 */
import { QueryCommand, type DynamoDBDocumentClient, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';

type Item = Record<string, unknown>;

export async function queryItems(db: DynamoDBDocumentClient, input: QueryCommandInput, cap?: number): Promise<Item[]> {
  const out: Item[] = [];
  if (cap !== undefined && cap <= 0) return out;
  let start: Item | undefined;
  do {
    const limit = cap === undefined ? {} : { Limit: Math.min(1000, cap - out.length) };
    const page = await db.send(new QueryCommand({ ...input, ...limit, ExclusiveStartKey: start }));
    out.push(...((page.Items ?? []) as Item[]));
    start = page.LastEvaluatedKey as Item | undefined;
  } while (start && (cap === undefined || out.length < cap));
  return out;
}
