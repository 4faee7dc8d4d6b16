/**
 * Stateful resources: the single DynamoDB table (shape from functions/src/adapters/dynamo/table.ts),
 * the uploads bucket, the access-log bucket, the customer-managed key that encrypts the table and
 * the uploads (issue 33) and the KMS key for integration secrets.
 * Everything here is retained when the stack is deleted.
 */
import { Duration, RemovalPolicy, Stack } from 'aws-cdk-lib';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as kms from 'aws-cdk-lib/aws-kms';
import * as s3 from 'aws-cdk-lib/aws-s3';
import { Construct } from 'constructs';
import { tableDefinition } from '../../functions/src/adapters/dynamo/table.js';
import { KNOWLEDGE_INDEX_PREFIX } from '../../functions/src/adapters/aws/index-snapshots.js';
import { WHATSAPP_MEDIA_PREFIX } from '../../functions/src/contract/whatsapp-media.js';
import {
  EXPIRING_UPLOAD_PREFIXES,
  MEDIA_RETENTION_DAYS,
  MEDIA_RETENTION_MAX_DAYS,
  MEDIA_RETENTION_TAG_KEY,
} from '../../functions/src/adapters/uploads-lifecycle.js';

const str = (name: string) => ({ name, type: dynamodb.AttributeType.STRING });

/** Issue 33: how far back the table can be restored (DynamoDB's maximum). */
export const PITR_RECOVERY_DAYS = 35;
/**
 * Issue 33: a deleted or overwritten object of the uploads bucket stays restorable this long as a
 * noncurrent version, then S3 deletes it for good (erasure and account deletion reach it then).
 */
export const NONCURRENT_VERSION_DAYS = 30;
/**
 * Derived or temporary objects keep a replaced or deleted version one day only: nothing restores
 * them (the expiring prefixes hold uploads of the day, parked bodies and export ZIPs; the knowledge
 * index snapshots are rebuilt from the table), and a person's export must not linger as a version.
 */
export const SHORT_NONCURRENT_VERSION_DAYS = 1;

/**
 * One lifecycle rule per prefix: objects under it are deleted a day after they were written
 * (S3 counts from creation and runs expiry once a day). Prefix rules rather than tags: an object
 * leaves the rule only by being copied out, so a confirmation that fails half-way never leaves
 * kept data marked for deletion.
 */
export function expireAfterOneDay(prefixes: readonly string[]): s3.LifecycleRule[] {
  return prefixes.map((prefix) => {
    // A folder (never '' or a bare name, which would also match kept keys that merely start with it).
    if (!/^([A-Za-z0-9._-]+\/)+$/.test(prefix)) throw new Error(`Expiring prefix must be a folder like 'incoming/': ${prefix}`);
    return {
      id: `expire-${prefix.slice(0, -1).replace(/\//g, '-')}-after-1-day`,
      prefix,
      expiration: Duration.days(1),
      // The bucket is versioned (issue 33): the expired (or deleted) object's version goes a day later.
      noncurrentVersionExpiration: Duration.days(SHORT_NONCURRENT_VERSION_DAYS),
    };
  });
}

/**
 * Issue 33: the uploads bucket is versioned so an agent document deleted or overwritten by mistake
 * can be restored; every noncurrent version is deleted NONCURRENT_VERSION_DAYS after it was replaced
 * (the shortest matching rule wins: the expiring prefixes and `derivedPrefixes` keep theirs a day),
 * and a delete marker left with no version behind it is removed.
 */
export function versionRules(derivedPrefixes: readonly string[] = [KNOWLEDGE_INDEX_PREFIX]): s3.LifecycleRule[] {
  return [
    {
      id: `expire-noncurrent-versions-after-${NONCURRENT_VERSION_DAYS}-days`,
      noncurrentVersionExpiration: Duration.days(NONCURRENT_VERSION_DAYS),
      expiredObjectDeleteMarker: true,
    },
    ...derivedPrefixes.map((prefix) => {
      if (!/^([A-Za-z0-9._-]+\/)+$/.test(prefix)) throw new Error(`Derived prefix must be a folder like 'knowledge-index/': ${prefix}`);
      return {
        id: `expire-noncurrent-${prefix.slice(0, -1).replace(/\//g, '-')}-after-${SHORT_NONCURRENT_VERSION_DAYS}-day`,
        prefix,
        noncurrentVersionExpiration: Duration.days(SHORT_NONCURRENT_VERSION_DAYS),
      };
    }),
  ];
}

/**
 * Customers' WhatsApp media (issue 31): one rule per retention tag value under the media prefix,
 * plus one for the prefix alone at the longest retention, so an object whose tag is missing or
 * unknown is not kept for ever (S3 applies the shortest expiration among the rules that match).
 * Tags rather than one prefix per retention: an account's choice can change without moving keys.
 */
export function mediaRetentionRules(prefix: string = WHATSAPP_MEDIA_PREFIX): s3.LifecycleRule[] {
  if (!/^([A-Za-z0-9._-]+\/)+$/.test(prefix)) throw new Error(`Media prefix must be a folder like 'whatsapp-media/': ${prefix}`);
  const folder = prefix.slice(0, -1).replace(/\//g, '-');
  return [
    ...Object.entries(MEDIA_RETENTION_DAYS).map(([value, days]) => ({
      id: `expire-${folder}-retention-${value}-after-${days}-days`,
      prefix,
      tagFilters: { [MEDIA_RETENTION_TAG_KEY]: value },
      expiration: Duration.days(days),
    })),
    { id: `expire-${folder}-untagged-after-${MEDIA_RETENTION_MAX_DAYS}-days`, prefix, expiration: Duration.days(MEDIA_RETENTION_MAX_DAYS) },
  ];
}

export class Data extends Construct {
  readonly table: dynamodb.Table;
  readonly uploads: s3.Bucket;
  /** Server access logs of the buckets and CloudFront standard logs. */
  readonly logs: s3.Bucket;
  readonly secretsKey: kms.Key;
  /**
   * Issue 33: the customer-managed key of customers' data at rest, the table and the uploads bucket.
   * Its policy is the default one: the account, i.e. IAM decides, and each function's role gets the
   * key's actions only with the grants of its table and uploads needs (needs.ts). Separate from the
   * secrets key: a role that reads the table must not be able to open the sealed secrets stored in it.
   */
  readonly dataKey: kms.Key;

  constructor(scope: Construct, id: string) {
    super(scope, id);

    this.dataKey = new kms.Key(this, 'DataKey', {
      description: "AgentDesk: customers' data at rest (the DynamoDB table, the uploads bucket and its versions)",
      // Yearly, automatically; old key material stays to decrypt what it encrypted.
      enableKeyRotation: true,
      // Without it the table and every object become unreadable, backups included.
      removalPolicy: RemovalPolicy.RETAIN,
      pendingWindow: Duration.days(30),
      alias: `alias/${Stack.of(this).stackName}/data`,
    });

    this.table = new dynamodb.Table(this, 'Table', {
      partitionKey: str(tableDefinition.partitionKey),
      sortKey: str(tableDefinition.sortKey),
      billingMode: dynamodb.BillingMode.PAY_PER_REQUEST,
      // Issue 33: restorable to any second of the last 35 days (README: restoring from a backup).
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true, recoveryPeriodInDays: PITR_RECOVERY_DAYS },
      timeToLiveAttribute: tableDefinition.ttlAttribute,
      // PITR backups are encrypted with the same key.
      encryption: dynamodb.TableEncryption.CUSTOMER_MANAGED,
      encryptionKey: this.dataKey,
      deletionProtection: true,
      removalPolicy: RemovalPolicy.RETAIN,
    });
    for (const gsi of tableDefinition.globalSecondaryIndexes) {
      this.table.addGlobalSecondaryIndex({
        indexName: gsi.indexName,
        partitionKey: str(gsi.partitionKey),
        sortKey: str(gsi.sortKey),
        projectionType: dynamodb.ProjectionType.ALL,
      });
    }

    this.logs = new s3.Bucket(this, 'Logs', {
      blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL,
      // SSE-S3, not the data key: S3 server access log delivery documents SSE-S3 as the supported
      // default encryption of a destination bucket, and CloudFront standard logs (written by AWS's
      // log-delivery account with ACLs) would need that account in the key policy. No customer content:
      // request lines, object keys (ids only) and client IPs, deleted after 90 days.
      encryption: s3.BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      // CloudFront standard logging writes with ACLs.
      objectOwnership: s3.ObjectOwnership.BUCKET_OWNER_PREFERRED,
      lifecycleRules: [{ expiration: Duration.days(90), abortIncompleteMultipartUploadAfter: Duration.days(1) }],
      removalPolicy: RemovalPolicy.RETAIN,
    });
    // (No S1 finding: cdk-nag recognises the access-log destination bucket itself.)

    this.uploads = new s3.Bucket(this, 'Uploads', {
      blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL,
      // Issue 33: every object is encrypted with the data key. No request names another encryption
      // (the presigned PUTs and forms sign none, adapters/s3-media.ts included), so this default applies.
      // A Bucket Key: S3 asks KMS once per bucket-level key, not once per object (cost, KMS quotas).
      encryption: s3.BucketEncryption.KMS,
      encryptionKey: this.dataKey,
      bucketKeyEnabled: true,
      enforceSSL: true,
      // Issue 33: a deleted or overwritten document stays restorable NONCURRENT_VERSION_DAYS (versionRules).
      versioned: true,
      serverAccessLogsBucket: this.logs,
      serverAccessLogsPrefix: 'uploads/',
      lifecycleRules: [
        { abortIncompleteMultipartUploadAfter: Duration.days(1) },
        ...expireAfterOneDay(EXPIRING_UPLOAD_PREFIXES),
        ...mediaRetentionRules(),
        ...versionRules(),
      ],
      removalPolicy: RemovalPolicy.RETAIN,
    });

    this.secretsKey = new kms.Key(this, 'SecretsKey', {
      description: 'AgentDesk: envelope encryption of integration secrets (API keys, tokens)',
      enableKeyRotation: true,
      removalPolicy: RemovalPolicy.RETAIN,
    });
  }

  /**
   * Browsers upload agent documents (up to 50 MB, past API Gateway's 10 MB cap) with presigned
   * form POSTs straight to the bucket (the signed policy fixes key, Content-Type and size range),
   * and download/HEAD with presigned links, from the site's origin only.
   */
  allowBrowserUploadsFrom(origin: string): void {
    this.uploads.addCorsRule({
      allowedMethods: [s3.HttpMethods.POST, s3.HttpMethods.GET, s3.HttpMethods.HEAD],
      allowedOrigins: [origin],
      allowedHeaders: ['content-type'],
      exposedHeaders: ['ETag'],
      maxAge: 3600,
    });
  }
}
