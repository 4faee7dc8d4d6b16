/**
 * Turns a function's `needs` (from functions/src/routes.ts) into the narrowest IAM grants
 * and the environment variables (names from functions/src/config.ts) that go with them.
 * This is the only place that maps a Need to AWS permissions.
 */
import { ArnFormat, Stack } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import type * as cognito from 'aws-cdk-lib/aws-cognito';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import type * as kms from 'aws-cdk-lib/aws-kms';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import type * as s3 from 'aws-cdk-lib/aws-s3';
import type * as sqs from 'aws-cdk-lib/aws-sqs';
import { KNOWLEDGE_INDEX_PREFIX } from '../../functions/src/adapters/aws/index-snapshots.js';
import { ATTACHMENT_STAGING_PREFIX, WHATSAPP_MEDIA_PREFIX } from '../../functions/src/contract/whatsapp-media.js';
import { AGENT_FILES_PREFIX } from '../../functions/src/domain/agents/files.js';
import { PRIVACY_EXPORTS_PREFIX } from '../../functions/src/domain/privacy/jobs.js';
import type { Need, QueueName, SocketApiName } from '../../functions/src/routes.js';
import { acknowledgeWildcardAction, acknowledgeWildcardResource } from './nag.js';

/**
 * Cognito admin actions the API uses (InitiateAuth / ChangePassword need no IAM: they are
 * unauthenticated or token-based). AdminDeleteUser rolls back a half-created user at sign-up.
 */
export const userPoolActions = [
  'cognito-idp:AdminCreateUser',
  'cognito-idp:AdminDeleteUser',
  'cognito-idp:AdminSetUserPassword',
  'cognito-idp:AdminGetUser',
  'cognito-idp:AdminUpdateUserAttributes',
  'cognito-idp:AdminInitiateAuth',
  'cognito-idp:AdminRespondToAuthChallenge',
  'cognito-idp:AdminUserGlobalSignOut',
] as const;

/**
 * The key actions table.grantReadData / grantWriteData add for a table encrypted with a
 * customer-managed key (aws-dynamodb KEY_READ_ACTIONS / KEY_WRITE_ACTIONS), for grants made by hand.
 */
export const tableKeyReadActions = ['kms:Decrypt', 'kms:DescribeKey'] as const;
export const tableKeyWriteActions = ['kms:Encrypt', 'kms:ReEncrypt*', 'kms:GenerateDataKey*'] as const;
/** Of those, the ones cdk-nag reports as wildcards (acknowledged with tableKeyReason). */
export const tableKeyWildcardActions = ['kms:ReEncrypt*', 'kms:GenerateDataKey*'] as const;

export const mailActions = ['ses:SendEmail', 'ses:SendRawEmail'] as const;
export const uploadsReadActions = ['s3:GetObject'] as const;
export const secretsEncryptActions = ['kms:GenerateDataKey'] as const;
/** The Stripe functions read their one secret at runtime (functions/src/adapters/stripe/secrets.ts). */
export const stripeSecretActions = ['secretsmanager:GetSecretValue'] as const;
/** Posting to, reading and closing a WebSocket connection are all this one action. */
export const socketConnectionActions = ['execute-api:ManageConnections'] as const;
/** The incoming-call webhook warms the socket function up (an asynchronous Invoke). */
export const socketInvokeActions = ['lambda:InvokeFunction'] as const;
/** Knowledge index snapshots (knowledge-index/ only): a search loads one, and writes it when it had to load the chunks instead. */
export const knowledgeIndexSearchActions = ['s3:GetObject', 's3:PutObject'] as const;
/** The ingestion workers write the snapshot of the version they just made. */
export const knowledgeIndexWriteActions = ['s3:PutObject'] as const;
/** DeleteObject: removing an agent document (or the agent) deletes its object through a presigned DELETE. */
export const uploadsWriteActions = ['s3:PutObject', 's3:AbortMultipartUpload', 's3:DeleteObject'] as const;

/** Customers' WhatsApp media (issue 31, whatsapp-media/ only): presigned GET/HEAD links for the inbox, reading a stored copy. */
export const whatsappMediaReadActions = ['s3:GetObject'] as const;
/** Storing a copy (each PUT carries the retention tag: x-amz-tagging needs PutObjectTagging besides PutObject) and deleting it. */
export const whatsappMediaWriteActions = ['s3:PutObject', 's3:PutObjectTagging', 's3:DeleteObject'] as const;
/** Agents' documents (agents/ only): a document the agent sent, read to send it again (a Message Hub retry). */
export const agentFilesReadActions = ['s3:GetObject'] as const;
/** Owners' attachments staged by the browser (incoming/attachments/ only): the signed form POST, its HEAD and read, deleting it once sent. */
export const attachmentStagingActions = ['s3:PutObject', 's3:GetObject', 's3:DeleteObject'] as const;
/** Listing keys under a prefix (issue 33: the account's deletion lists the account's objects to delete them). A bucket action: on the bucket's ARN, not its objects'. */
export const uploadsListActions = ['s3:ListBucket'] as const;
/** A person's export ZIP (tmp/privacy-exports/ only, issue 33): the short-lived download link the privacy API signs. */
export const privacyExportsReadActions = ['s3:GetObject'] as const;

/**
 * Issue 33: the uploads bucket's objects are encrypted with the data key (SSE-KMS, bucket default).
 * S3 calls KMS as the principal that signed the request (presigned links and forms included):
 * reading an object needs kms:Decrypt, writing one kms:GenerateDataKey, and a multipart upload
 * both (S3 decrypts the upload's data key for each part: the privacy export's ZIP is one).
 */
export const dataKeyObjectReadActions = ['kms:Decrypt'] as const;
export const dataKeyObjectWriteActions = ['kms:GenerateDataKey'] as const;
/** Object actions that make S3 decrypt with the key (a read; a multipart upload, which may be aborted). */
export const OBJECT_DECRYPTING_ACTIONS: readonly string[] = ['s3:GetObject', 's3:AbortMultipartUpload'];
/** Object actions that make S3 ask the key for a new data key (a write). */
export const OBJECT_ENCRYPTING_ACTIONS: readonly string[] = ['s3:PutObject'];

const tableIndexReason =
  "Grants on the table include its global secondary indexes (<table>/index/*): the access patterns query gsi1, and every index of this one table holds the same tenant-keyed items.";
const uploadsReason =
  'Object keys are chosen at runtime under the owning user\'s prefix (the handler derives it from the caller, never from input); the grant is limited to the listed object actions on this one bucket.';
const knowledgeIndexReason =
  "Snapshot keys are knowledge-index/{userId}/{agentId}/{language}.bin, chosen at runtime from the agent being searched (tenant first); the grant is limited to that prefix of this one bucket and the listed object actions.";
const whatsappMediaReason =
  "Media keys are whatsapp-media/{userId}/{conversationId}/{messageId}, chosen at runtime from the account and message being handled (tenant first, never from input); the grant is limited to that prefix of this one bucket and the listed object actions.";
const agentFilesReason =
  "Document keys are agents/{userId}/{agentId}/{fileId}/{name}, taken from the account's own stored message being retried (tenant first, never from input); the grant is read-only, limited to that prefix of this one bucket.";
const attachmentStagingReason =
  "Staged attachment keys are incoming/attachments/{userId}/{uploadId}: the user id comes from the caller's token and the upload id is generated by the server; the grant is limited to that prefix of this one bucket and the listed object actions.";
export const tableKeyReason =
  "The table is encrypted with the data key (issue 33): table.grantWriteData adds the key actions DynamoDB uses on the caller's behalf (kms:GenerateDataKey* and kms:ReEncrypt*, as AWS's key policy for DynamoDB lists them), on this one key only.";
const privacyExportsReason =
  "Export ZIP keys are tmp/privacy-exports/{accountId}/{jobId}.zip, taken from the caller's own account and a job id of that account (never from input); the grant is read-only, limited to that prefix of this one bucket.";
const sesReason =
  'SES authorises SendEmail against the sender identity, the configuration set and, in the sandbox, each recipient identity, so identities cannot be listed in advance; the statement is limited to this account/region and to the configured From address (ses:FromAddress condition).';

const connectionsReason =
  "Connection ids are API Gateway's, known only at run time ($connect): the grant is ManageConnections on this one WebSocket API's stage, @connections paths only.";

function sesResources(stack: Stack): string[] {
  return [
    stack.formatArn({ service: 'ses', resource: 'identity', resourceName: '*' }),
    stack.formatArn({ service: 'ses', resource: 'configuration-set', resourceName: '*' }),
  ];
}

/** The env var config.ts reads for each queue's URL. */
export function queueUrlEnv(name: QueueName): string {
  return `QUEUE_URL_${name.toUpperCase().replace(/-/g, '_')}`;
}

/**
 * The env vars config.ts reads for a socket API (voice-relay → VOICE_RELAY_URL, ...): the public
 * wss:// URL callers connect to (and sign), the connection-posting endpoint, the function to warm.
 */
export function socketEnv(name: SocketApiName): { url: string; connectionsUrl: string; function: string } {
  const prefix = name.toUpperCase().replace(/-/g, '_');
  return { url: `${prefix}_URL`, connectionsUrl: `${prefix}_CONNECTIONS_URL`, function: `${prefix}_FUNCTION` };
}

/** What other functions may use of a WebSocket API (built by sockets.ts). */
export interface SocketResources {
  /** wss://{api}.execute-api.{region}.amazonaws.com/{stage}: what callers connect to. */
  url: string;
  /** https://{api}.execute-api.{region}.amazonaws.com/{stage}: the connection-posting (@connections) endpoint. */
  connectionsUrl: string;
  /** execute-api ARN of this stage's @connections paths (any method, any connection id), nothing else. */
  connectionsArn: string;
  /** What the API invokes: the function, or its alias when provisioned concurrency is on. */
  target: lambda.IFunction;
}

export interface SharedResources {
  table: dynamodb.ITable;
  uploads: s3.IBucket;
  /** Issue 33: the customer-managed key of the table and the uploads bucket. */
  dataKey: kms.IKey;
  secretsKey: kms.IKey;
  userPool: cognito.IUserPool;
  userPoolClient: cognito.IUserPoolClient;
  queues: Record<QueueName, sqs.IQueue>;
  /** Sender address ("Name <addr@domain>"); sending is restricted to it. */
  mailFrom: string;
  googleClientId: string;
  whatsappUserIds: string;
  /**
   * Secrets Manager secret with the Stripe configuration, as JSON: secretKey, webhookSecret,
   * priceStarter, priceProfessional, priceEnterprise (read and checked by the functions).
   */
  stripeSecretName: string;
  /** Secrets Manager secret with the Web Push VAPID key pair, as JSON: publicKey, privateKey, subject. */
  pushSecretName: string;
  /** Secrets Manager secret with the Google Calendar connection's OAuth client, as JSON: clientId, clientSecret (issue 30). */
  googleCalendarSecretName: string;
  /** The WebSocket APIs of the manifest's socketApis, by name. */
  sockets: Record<SocketApiName, SocketResources>;
  /** OpenAI model that transcribes voice notes (issue 31); '' = the functions' own default (config.ts OPENAI_TRANSCRIPTION_MODEL). */
  openaiTranscriptionModel: string;
}

/**
 * The secret's ARN pattern: Secrets Manager appends "-" and 6 random characters to the name,
 * so "-??????" matches this one secret and not another whose name merely starts the same.
 */
export function stripeSecretArn(stack: Stack, secretName: string): string {
  return stack.formatArn({
    service: 'secretsmanager',
    resource: 'secret',
    resourceName: `${secretName}-??????`,
    arnFormat: ArnFormat.COLON_RESOURCE_NAME,
  });
}

/** "AgentDesk <no-reply@example.com>" → "no-reply@example.com". */
export function mailAddress(mailFrom: string): string {
  const match = /<([^>]+)>/.exec(mailFrom);
  return (match?.[1] ?? mailFrom).trim();
}

/**
 * Grant `fn` exactly what `needs` imply and return the environment variables they bring.
 * Variables not tied to a need (APP_URL, LOG_LEVEL, ...) are added by the caller.
 */
export function applyNeeds(fn: lambda.IFunction, needs: readonly Need[], r: SharedResources): Record<string, string> {
  const env: Record<string, string> = {};
  const stack = Stack.of(fn);
  /** The object actions granted on the uploads bucket: they decide the data key's actions (after the loop). */
  const objectActions = new Set<string>();
  const objectStatement = (actions: readonly string[], resource: string) => {
    actions.forEach((a) => objectActions.add(a));
    fn.addToRolePolicy(new iam.PolicyStatement({ actions: [...actions], resources: [resource] }));
  };
  for (const need of needs) {
    switch (need) {
      case 'table:read':
        r.table.grantReadData(fn);
        env.TABLE_NAME = r.table.tableName;
        acknowledgeWildcardResource(fn, `${r.table.tableArn}/index/*`, tableIndexReason);
        break;
      case 'table:write':
        r.table.grantWriteData(fn);
        env.TABLE_NAME = r.table.tableName;
        acknowledgeWildcardResource(fn, `${r.table.tableArn}/index/*`, tableIndexReason);
        if (r.table.encryptionKey) for (const action of tableKeyWildcardActions) acknowledgeWildcardAction(fn, action, tableKeyReason);
        break;
      case 'userPool':
        fn.addToRolePolicy(
          new iam.PolicyStatement({ actions: [...userPoolActions], resources: [r.userPool.userPoolArn] }),
        );
        env.USER_POOL_ID = r.userPool.userPoolId;
        env.USER_POOL_CLIENT_ID = r.userPoolClient.userPoolClientId;
        // Google sign-in is a user-pool flow (CUSTOM_AUTH); the client id checks the ID token's audience.
        env.GOOGLE_CLIENT_ID = r.googleClientId;
        break;
      case 'mail':
        fn.addToRolePolicy(
          new iam.PolicyStatement({
            actions: [...mailActions],
            // SES authorises against the sender identity, the configuration set and (in the
            // sandbox) the recipient identities, so the identity part cannot be narrower than
            // this account/region; the From address condition keeps the grant to one sender.
            resources: sesResources(stack),
            conditions: { StringEquals: { 'ses:FromAddress': mailAddress(r.mailFrom) } },
          }),
        );
        env.MAIL_FROM = r.mailFrom;
        for (const resource of sesResources(stack)) acknowledgeWildcardResource(fn, resource, sesReason);
        break;
      case 'uploads:read':
        objectStatement(uploadsReadActions, r.uploads.arnForObjects('*'));
        env.UPLOADS_BUCKET = r.uploads.bucketName;
        acknowledgeWildcardResource(fn, r.uploads.arnForObjects('*'), uploadsReason);
        break;
      case 'uploads:write':
        objectStatement(uploadsWriteActions, r.uploads.arnForObjects('*'));
        env.UPLOADS_BUCKET = r.uploads.bucketName;
        acknowledgeWildcardResource(fn, r.uploads.arnForObjects('*'), uploadsReason);
        break;
      case 'uploads:list':
        fn.addToRolePolicy(new iam.PolicyStatement({ actions: [...uploadsListActions], resources: [r.uploads.bucketArn] }));
        env.UPLOADS_BUCKET = r.uploads.bucketName;
        break;
      case 'knowledge-index:search':
      case 'knowledge-index:write': {
        const objects = r.uploads.arnForObjects(`${KNOWLEDGE_INDEX_PREFIX}*`);
        const actions = need === 'knowledge-index:search' ? knowledgeIndexSearchActions : knowledgeIndexWriteActions;
        objectStatement(actions, objects);
        env.UPLOADS_BUCKET = r.uploads.bucketName;
        acknowledgeWildcardResource(fn, objects, knowledgeIndexReason);
        break;
      }
      case 'whatsapp-media:read':
      case 'whatsapp-media:write': {
        const objects = r.uploads.arnForObjects(`${WHATSAPP_MEDIA_PREFIX}*`);
        const actions = need === 'whatsapp-media:read' ? whatsappMediaReadActions : whatsappMediaWriteActions;
        objectStatement(actions, objects);
        env.UPLOADS_BUCKET = r.uploads.bucketName;
        acknowledgeWildcardResource(fn, objects, whatsappMediaReason);
        break;
      }
      case 'agent-files:read': {
        const objects = r.uploads.arnForObjects(`${AGENT_FILES_PREFIX}*`);
        objectStatement(agentFilesReadActions, objects);
        env.UPLOADS_BUCKET = r.uploads.bucketName;
        acknowledgeWildcardResource(fn, objects, agentFilesReason);
        break;
      }
      case 'privacy-exports:read': {
        const objects = r.uploads.arnForObjects(`${PRIVACY_EXPORTS_PREFIX}*`);
        objectStatement(privacyExportsReadActions, objects);
        env.UPLOADS_BUCKET = r.uploads.bucketName;
        acknowledgeWildcardResource(fn, objects, privacyExportsReason);
        break;
      }
      case 'attachments:stage': {
        const objects = r.uploads.arnForObjects(`${ATTACHMENT_STAGING_PREFIX}*`);
        objectStatement(attachmentStagingActions, objects);
        env.UPLOADS_BUCKET = r.uploads.bucketName;
        acknowledgeWildcardResource(fn, objects, attachmentStagingReason);
        break;
      }
      case 'transcription':
        // No AWS permission: the account's own OpenAI key transcribes. Unset = config.ts's default
        // (an empty variable would not be "unset" to it).
        if (r.openaiTranscriptionModel) env.OPENAI_TRANSCRIPTION_MODEL = r.openaiTranscriptionModel;
        break;
      case 'secrets:encrypt':
        // Sealing is envelope encryption: one GenerateDataKey per seal (adapters/secrets/kms-box.ts).
        // Not grantEncrypt(): its GenerateDataKey* / ReEncrypt* wildcards are more than sealing needs.
        fn.addToRolePolicy(new iam.PolicyStatement({ actions: [...secretsEncryptActions], resources: [r.secretsKey.keyArn] }));
        env.SECRETS_KEY_ID = r.secretsKey.keyArn;
        break;
      case 'secrets:decrypt':
        r.secretsKey.grantDecrypt(fn);
        env.SECRETS_KEY_ID = r.secretsKey.keyArn;
        break;
      case 'stripe':
        // Only the secret's name: the functions read the keys at runtime (once per container), so
        // they never appear in the Lambda configuration, its API or a template. The local billing
        // mode (STRIPE_API_URL, STRIPE_SECRET_KEY, ...) is never set here.
        fn.addToRolePolicy(
          new iam.PolicyStatement({ actions: [...stripeSecretActions], resources: [stripeSecretArn(stack, r.stripeSecretName)] }),
        );
        env.STRIPE_SECRET_ID = r.stripeSecretName;
        break;
      case 'push-keys':
        // Like Stripe's: only the secret's name; the VAPID private key is read at runtime.
        fn.addToRolePolicy(
          new iam.PolicyStatement({ actions: [...stripeSecretActions], resources: [stripeSecretArn(stack, r.pushSecretName)] }),
        );
        env.PUSH_SECRET_ID = r.pushSecretName;
        break;
      case 'google-calendar':
        // Like Stripe's: only the secret's name; the OAuth client secret is read at runtime. The
        // Google endpoints and the redirect URI keep config.ts's defaults ({APP_URL}/api/…/callback).
        fn.addToRolePolicy(
          new iam.PolicyStatement({ actions: [...stripeSecretActions], resources: [stripeSecretArn(stack, r.googleCalendarSecretName)] }),
        );
        env.GOOGLE_CALENDAR_SECRET_ID = r.googleCalendarSecretName;
        break;
      default: {
        if (need.startsWith('sockets:')) {
          // The socket API's own function: it verifies callers' signatures over the public URL
          // and posts its answers to their connections.
          const name = need.slice('sockets:'.length) as SocketApiName;
          const socket = socketOf(r, name, need);
          fn.addToRolePolicy(new iam.PolicyStatement({ actions: [...socketConnectionActions], resources: [socket.connectionsArn] }));
          acknowledgeWildcardResource(fn, socket.connectionsArn, connectionsReason);
          env[socketEnv(name).url] = socket.url;
          env[socketEnv(name).connectionsUrl] = socket.connectionsUrl;
          break;
        }
        if (need.startsWith('invoke:')) {
          // A function that sends callers to the socket API (the URL) and warms its function up.
          // Not fn.grantInvoke(): it adds "<arn>:*" (every version and alias).
          const name = need.slice('invoke:'.length) as SocketApiName;
          const socket = socketOf(r, name, need);
          fn.addToRolePolicy(new iam.PolicyStatement({ actions: [...socketInvokeActions], resources: [socket.target.functionArn] }));
          env[socketEnv(name).url] = socket.url;
          env[socketEnv(name).function] = socket.target.functionName;
          break;
        }
        if (need.startsWith('queue:')) {
          const name = need.slice('queue:'.length) as QueueName;
          const queue = r.queues[name];
          if (!queue) throw new Error(`Need "${need}": no queue named "${name}" in the manifest's workers`);
          queue.grantSendMessages(fn);
          env[queueUrlEnv(name)] = queue.queueUrl;
          break;
        }
        const unknown: never = need as never;
        throw new Error(`Unknown need "${String(unknown)}" in functions/src/routes.ts; map it in infra/lib/needs.ts`);
      }
    }
  }
  // One statement for the data key, with only what the object actions above need (issue 33).
  const keyActions = [
    ...([...objectActions].some((a) => OBJECT_DECRYPTING_ACTIONS.includes(a)) ? dataKeyObjectReadActions : []),
    ...([...objectActions].some((a) => OBJECT_ENCRYPTING_ACTIONS.includes(a)) ? dataKeyObjectWriteActions : []),
  ];
  if (keyActions.length > 0) fn.addToRolePolicy(new iam.PolicyStatement({ actions: keyActions, resources: [r.dataKey.keyArn] }));
  return env;
}

function socketOf(r: SharedResources, name: SocketApiName, need: string): SocketResources {
  const socket = r.sockets[name];
  if (!socket) throw new Error(`Need "${need}": no WebSocket API named "${name}" in the manifest's socketApis`);
  return socket;
}
