/**
 * The single table's shape, shared by infra/ (CDK) and the local runtime (which
 * creates the same table in DynamoDB Local). Access patterns live in docs/data-model.md.
 */
export const tableDefinition = {
  partitionKey: 'pk',
  sortKey: 'sk',
  /** Epoch seconds; DynamoDB deletes expired items eventually, so readers also check it. */
  ttlAttribute: 'expiresAt',
  globalSecondaryIndexes: [
    /** Generic inverted / lookup index: gsi1pk = lookup key, gsi1sk = order. */
    { indexName: 'gsi1', partitionKey: 'gsi1pk', sortKey: 'gsi1sk' },
  ],
} as const;
