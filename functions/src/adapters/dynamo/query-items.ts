/**
 * The one Query loop of the adapters: a Query followed through its pages (LastEvaluatedKey),
 * optionally stopping at `cap` items: then each page asks for at most what is still missing
 * (and at most `pageMax`, 1000 unless said), so no more than `cap` items are read. queryPages() hands the pages over as they come
 * (listings consumed page by page); queryItems() collects them.
 */
import { QueryCommand, type DynamoDBDocumentClient, type QueryCommandInput } from '../aws/dynamo-document.js';

type Item = Record<string, unknown>;

export async function* queryPages(db: DynamoDBDocumentClient, input: QueryCommandInput, cap?: number, pageMax = 1000): AsyncGenerator<Item[]> {
  if (cap !== undefined && cap <= 0) return;
  let read = 0;
  let start: Item | undefined;
  do {
    const limit = cap === undefined ? {} : { Limit: Math.min(pageMax, cap - read) };
    const page = await db.send(new QueryCommand({ ...input, ...limit, ExclusiveStartKey: start }));
    const items = (page.Items ?? []) as Item[];
    read += items.length;
    yield items;
    start = page.LastEvaluatedKey as Item | undefined;
  } while (start && (cap === undefined || read < cap));
}

export async function queryItems(db: DynamoDBDocumentClient, input: QueryCommandInput, cap?: number, pageMax?: number): Promise<Item[]> {
  const out: Item[] = [];
  for await (const page of queryPages(db, input, cap, pageMax)) out.push(...page);
  return out;
}
