/**
 * Stateful resources: the single DynamoDB table (shape from functions/src/adapters/dynamo/table.ts),
 * the uploads bucket, the access-log bucket and the KMS key for integration secrets.
 * Everything here is retained when the stack is deleted.
 */
import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as kms from 'aws-cdk-lib/aws-kms';
import * as s3 from 'aws-cdk-lib/aws-s3';
import { Construct } from 'constructs';
import { tableDefinition } from '../../functions/src/adapters/dynamo/table.js';
import { WHATSAPP_MEDIA_PREFIX } from '../../functions/src/contract/whatsapp-media.js';
import {
  EXPIRING_UPLOAD_PREFIXES,
  MEDIA_RETENTION_DAYS,
  MEDIA_RETENTION_MAX_DAYS,
  MEDIA_RETENTION_TAG_KEY,
} from '../../functions/src/adapters/uploads-lifecycle.js';

const str = (name: string) => ({ name, type: dynamodb.AttributeType.STRING });

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
    return { id: `expire-${prefix.slice(0, -1).replace(/\//g, '-')}-after-1-day`, prefix, expiration: Duration.days(1) };
  });
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

  constructor(scope: Construct, id: string) {
    super(scope, id);

    this.table = new dynamodb.Table(this, 'Table', {
      partitionKey: str(tableDefinition.partitionKey),
      sortKey: str(tableDefinition.sortKey),
      billingMode: dynamodb.BillingMode.PAY_PER_REQUEST,
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      timeToLiveAttribute: tableDefinition.ttlAttribute,
      encryption: dynamodb.TableEncryption.AWS_MANAGED,
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
      encryption: s3.BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      versioned: false,
      serverAccessLogsBucket: this.logs,
      serverAccessLogsPrefix: 'uploads/',
      // Customers' media are also written with SSE-S3 (AES256) named on each PUT (adapters/s3-media.ts).
      lifecycleRules: [
        { abortIncompleteMultipartUploadAfter: Duration.days(1) },
        ...expireAfterOneDay(EXPIRING_UPLOAD_PREFIXES),
        ...mediaRetentionRules(),
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
