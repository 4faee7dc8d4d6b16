/**
 * The whole stack, synthesised once: cdk-nag is clean, functions follow the route manifest
 * with exactly the grants their needs imply, queues are dead-lettered, data is protected,
 * routes are authorised as declared, and CloudFront fronts both the site and /api/*.
 */
import { Annotations, Match } from 'aws-cdk-lib/assertions';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routes, schedules, socketApis, SOCKET_ROUTE_KEYS, workers, type Need, type QueueName, type RouteGroupName, type SocketApiName } from '../../functions/src/routes.js';
import { tableDefinition } from '../../functions/src/adapters/dynamo/table.js';
import {
  DLQ_RETENTION_DAYS,
  JOB_TRIES,
  MAX_RETRY_AFTER_SECONDS,
  minimumSecondsUntilReceive,
  QUEUE_MAX_RECEIVES,
  QUEUE_RETENTION_DAYS,
} from '../../functions/src/domain/retry.js';
import { apiAuthorizer } from '../../functions/src/routes.js';
import { apiKeyMessages } from '../../functions/src/contract/api-keys.js';
import { groupDef, groupNames } from '../lib/api.js';
import { expireAfterOneDay, mediaRetentionRules, NONCURRENT_VERSION_DAYS, PITR_RECOVERY_DAYS, versionRules } from '../lib/data.js';
import { apiKeyGuardCode } from '../lib/api-key-guard.js';
import type { AppFunction } from '../lib/app-function.js';
import {
  applyNeeds,
  type SharedResources,
  mailActions,
  queueUrlEnv,
  secretsEncryptActions,
  stripeSecretActions,
  uploadsReadActions,
  socketConnectionActions,
  socketEnv,
  socketInvokeActions,
  uploadsWriteActions,
  uploadsListActions,
  userPoolActions,
  knowledgeIndexSearchActions,
  knowledgeIndexWriteActions,
  whatsappMediaReadActions,
  whatsappMediaWriteActions,
  attachmentStagingActions,
  agentFilesReadActions,
  privacyExportsReadActions,
  dataKeyObjectReadActions,
  dataKeyObjectWriteActions,
  tableKeyReadActions,
  tableKeyWriteActions,
} from '../lib/needs.js';
import { PRIVACY_EXPORTS_PREFIX } from '../../functions/src/domain/privacy/jobs.js';
import * as events from 'aws-cdk-lib/aws-events';
import { Duration } from 'aws-cdk-lib';
import { KNOWLEDGE_INDEX_PREFIX } from '../../functions/src/adapters/aws/index-snapshots.js';
import { ATTACHMENT_STAGING_PREFIX, WHATSAPP_MEDIA_PREFIX } from '../../functions/src/contract/whatsapp-media.js';
import { AGENT_FILES_PREFIX } from '../../functions/src/domain/agents/files.js';
import { EXPIRING_UPLOAD_PREFIXES, MEDIA_RETENTION_DAYS, MEDIA_RETENTION_MAX_DAYS, MEDIA_RETENTION_TAG_KEY } from '../../functions/src/adapters/uploads-lifecycle.js';
import { MEDIA_RETENTION_TAG } from '../../functions/src/adapters/s3-media.js';
import { scheduleDef, scheduleNames } from '../lib/schedules.js';
import { SOCKET_STAGE_NAME, socketDef, socketNames, socketRouteReasons } from '../lib/sockets.js';
import { workerDef, workerNames } from '../lib/workers.js';
import { defaultParameters } from '../lib/stack.js';
import { acknowledgements, logicalId, synthesise, type Synthesised } from './support.js';
import { App, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import * as logs from 'aws-cdk-lib/aws-logs';
import { throttleClassOf } from '../lib/api.js';
import { routeKeyOf, routePlan } from '../../functions/src/route-plan.js';
import { COUNTED_COMMON_RULES, edgeWebAcl, WEBHOOK_PATH_PREFIX } from '../lib/edge.js';
import { API_CONTENT_SECURITY_POLICY, HSTS_MAX_AGE_SECONDS, siteContentSecurityPolicy } from '../../functions/src/http/security-headers.js';

let s: Synthesised;
beforeAll(() => {
  s = synthesise();
});
afterAll(() => s?.cleanup());

type Resource = { Type: string; Properties: Record<string, unknown>; DependsOn?: unknown };
const resources = (type: string) => s.template.findResources(type) as Record<string, Resource>;
/**
 * Every IAM policy document of the stack with the roles it applies to (JSON of their refs): the
 * separate AWS::IAM::Policy resources and the roles' own inline policies (InlineGrantsRole).
 */
const policyDocuments = (): { roles: string; document: { Statement: { Effect: string; Action: string | string[]; Resource: unknown }[] } }[] => [
  ...Object.values(resources('AWS::IAM::Policy')).map((p) => ({ roles: JSON.stringify(p.Properties.Roles), document: p.Properties.PolicyDocument as never })),
  ...Object.entries(resources('AWS::IAM::Role')).flatMap(([id, role]) =>
    ((role.Properties.Policies ?? []) as { PolicyDocument: never }[]).map((p) => ({ roles: JSON.stringify([{ Ref: id }]), document: p.PolicyDocument })),
  ),
];

// ---------------------------------------------------------------------------------------
// Grants: each function's policy, reduced to "capabilities" (resource kind + action).

const TABLE_READ = ['BatchGetItem', 'ConditionCheckItem', 'DescribeTable', 'GetItem', 'GetRecords', 'GetShardIterator', 'Query', 'Scan'].map((a) => `dynamodb:${a}`);
const TABLE_WRITE = ['BatchWriteItem', 'DeleteItem', 'DescribeTable', 'PutItem', 'UpdateItem'].map((a) => `dynamodb:${a}`);
const KMS_ENCRYPT = [...secretsEncryptActions];
const KMS_DECRYPT = ['kms:Decrypt'];
const SQS_SEND = ['sqs:SendMessage', 'sqs:GetQueueAttributes', 'sqs:GetQueueUrl'];
const SQS_CONSUME = ['sqs:ChangeMessageVisibility', 'sqs:DeleteMessage', 'sqs:GetQueueAttributes', 'sqs:GetQueueUrl', 'sqs:ReceiveMessage'];

/** Issue 33: the data key's actions a function's object actions imply (read or multipart: Decrypt; write: GenerateDataKey). */
const OBJECT_READ_ACTIONS: readonly string[] = ['s3:GetObject', 's3:AbortMultipartUpload'];
const OBJECT_WRITE_ACTIONS: readonly string[] = ['s3:PutObject'];

function expectedCapabilities(needs: readonly Need[], consumes?: QueueName): Set<string> {
  const caps = new Set<string>([
    `own-logs logs:CreateLogStream`,
    `own-logs logs:PutLogEvents`,
    `* xray:PutTelemetryRecords`,
    `* xray:PutTraceSegments`,
  ]);
  const add = (kind: string, actions: readonly string[]) => actions.forEach((a) => caps.add(`${kind} ${a}`));
  for (const need of needs) {
    if (need === 'table:read') {
      add('table', TABLE_READ);
      add('table-indexes', TABLE_READ);
      add('data-key', tableKeyReadActions);
    } else if (need === 'table:write') {
      add('table', TABLE_WRITE);
      add('table-indexes', TABLE_WRITE);
      add('data-key', [...tableKeyReadActions, ...tableKeyWriteActions]);
    } else if (need === 'userPool') add('user-pool', userPoolActions);
    else if (need === 'mail') {
      add('ses-identities', mailActions);
      add('ses-configuration-sets', mailActions);
    } else if (need === 'uploads:read') add('uploads-objects', uploadsReadActions);
    else if (need === 'uploads:write') add('uploads-objects', uploadsWriteActions);
    else if (need === 'uploads:list') add('uploads', uploadsListActions);
    else if (need === 'knowledge-index:search') add('uploads-knowledge-index', knowledgeIndexSearchActions);
    else if (need === 'knowledge-index:write') add('uploads-knowledge-index', knowledgeIndexWriteActions);
    else if (need === 'whatsapp-media:read') add('uploads-whatsapp-media', whatsappMediaReadActions);
    else if (need === 'whatsapp-media:write') add('uploads-whatsapp-media', whatsappMediaWriteActions);
    else if (need === 'attachments:stage') add('uploads-attachments', attachmentStagingActions);
    else if (need === 'agent-files:read') add('uploads-agent-files', agentFilesReadActions);
    else if (need === 'privacy-exports:read') add('uploads-privacy-exports', privacyExportsReadActions);
    else if (need === 'secrets:encrypt') add('secrets-key', KMS_ENCRYPT);
    else if (need === 'secrets:decrypt') add('secrets-key', KMS_DECRYPT);
    else if (need === 'stripe') add('stripe-secret', stripeSecretActions);
    else if (need === 'push-keys') add('push-secret', stripeSecretActions);
    else if (need === 'google-calendar') add('google-calendar-secret', stripeSecretActions);
    else if (need.startsWith('queue:')) add(need, SQS_SEND);
    else if (need.startsWith('sockets:')) add(`socket-api:${need.slice('sockets:'.length)}-connections`, socketConnectionActions);
    else if (need.startsWith('invoke:')) add(`socket-function:${need.slice('invoke:'.length)}`, socketInvokeActions);
  }
  if (consumes) add(`queue:${consumes}`, SQS_CONSUME);
  const objectActions = [...caps].filter((c) => c.startsWith('uploads')).map((c) => c.split(' ')[1]!);
  if (objectActions.some((a) => OBJECT_READ_ACTIONS.includes(a))) add('data-key', dataKeyObjectReadActions);
  if (objectActions.some((a) => OBJECT_WRITE_ACTIONS.includes(a))) add('data-key', dataKeyObjectWriteActions);
  return caps;
}

function actualCapabilities(fn: AppFunction): Set<string> {
  const { stack } = s;
  const kinds = new Map<string, string>([
    [logicalId(fn.logGroup), 'own-logs'],
    [logicalId(stack.data.table), 'table'],
    [logicalId(stack.data.uploads), 'uploads'],
    [logicalId(stack.data.secretsKey), 'secrets-key'],
    [logicalId(stack.data.dataKey), 'data-key'],
    [logicalId(stack.auth.userPool), 'user-pool'],
    ...workerNames.map((q) => [logicalId(stack.queues.queues[q]), `queue:${q}`] as [string, string]),
    ...socketNames.map((n) => [logicalId(stack.sockets.apis[n]), `socket-api:${n}`] as [string, string]),
    ...socketNames.map((n) => [logicalId(stack.sockets.functions[n].fn), `socket-function:${n}`] as [string, string]),
  ]);
  const kindOf = (resource: unknown): string => {
    if (resource === '*') return '*';
    const text = JSON.stringify(resource);
    if (/:ses:.*:identity\/\*/.test(text)) return 'ses-identities';
    if (/:ses:.*:configuration-set\/\*/.test(text)) return 'ses-configuration-sets';
    if (text.includes(`:secretsmanager:`) && text.includes(`:secret:${defaultParameters.stripeSecretName}-??????"`)) return 'stripe-secret';
    if (text.includes(`:secretsmanager:`) && text.includes(`:secret:${defaultParameters.pushSecretName}-??????"`)) return 'push-secret';
    if (text.includes(`:secretsmanager:`) && text.includes(`:secret:${defaultParameters.googleCalendarSecretName}-??????"`)) return 'google-calendar-secret';
    const ref = /"Fn::GetAtt":\["([^"]+)"|"Ref":"([^"]+)"/.exec(text);
    const base = kinds.get(ref?.[1] ?? ref?.[2] ?? '') ?? `UNKNOWN(${text})`;
    if (text.endsWith('"/index/*"]]}')) return `${base}-indexes`;
    if (text.endsWith('"/*"]]}')) return `${base}-objects`;
    if (text.endsWith('"/knowledge-index/*"]]}')) return `${base}-knowledge-index`;
    if (text.endsWith(`"/${WHATSAPP_MEDIA_PREFIX}*"]]}`)) return `${base}-whatsapp-media`;
    if (text.endsWith(`"/${ATTACHMENT_STAGING_PREFIX}*"]]}`)) return `${base}-attachments`;
    if (text.endsWith(`"/${AGENT_FILES_PREFIX}*"]]}`)) return `${base}-agent-files`;
    if (text.endsWith(`"/${PRIVACY_EXPORTS_PREFIX}*"]]}`)) return `${base}-privacy-exports`;
    if (text.endsWith(`"/${SOCKET_STAGE_NAME}/*/@connections/*"]]}`)) return `${base}-connections`;
    return base;
  };
  const role = resources('AWS::IAM::Role')[logicalId(fn.role)];
  const caps = new Set<string>();
  for (const { document } of policyDocuments().filter((p) => p.roles.includes(`"${logicalId(fn.role)}"`))) {
    for (const st of document.Statement) {
      expect(st.Effect).toBe('Allow');
      for (const action of [st.Action].flat()) for (const r of [st.Resource].flat()) caps.add(`${kindOf(r)} ${action}`);
    }
  }
  expect(role?.Properties.ManagedPolicyArns ?? []).toEqual([]);
  return caps;
}

describe('cdk-nag AwsSolutions', () => {
  it('reports no unacknowledged finding', () => {
    expect(s.nagViolations).toEqual([]);
  });

  it('leaves no CDK error or warning annotations', () => {
    expect(Annotations.fromStack(s.stack).findError('*', Match.anyValue())).toEqual([]);
    expect(Annotations.fromStack(s.stack).findWarning('*', Match.anyValue())).toEqual([]);
  });

  it('gives every acknowledgement a real reason', () => {
    const acks = acknowledgements(s.app);
    expect(acks.length).toBeGreaterThan(10);
    for (const ack of acks) {
      expect(ack.id, ack.path).toMatch(/^AwsSolutions-[A-Z]+\d+(\[.+\])?$/);
      expect(typeof ack.reason === 'string' ? ack.reason.trim().length : 0, `${ack.path} ${ack.id}`).toBeGreaterThan(30);
    }
  });

  it('has no stale acknowledgement: each one silences a real finding', () => {
    const unused = acknowledgements(s.app)
      .map((a) => `${a.path}|${a.id}`)
      .filter((key) => !s.usedAcknowledgements.has(key));
    expect(unused).toEqual([]);
  });

  it('does not acknowledge rules the product must meet', () => {
    const ids = new Set(acknowledgements(s.app).map((a) => a.id.replace(/\[.*$/, '')));
    for (const rule of ['AwsSolutions-DDB3', 'AwsSolutions-S10', 'AwsSolutions-SQS4', 'AwsSolutions-KMS5', 'AwsSolutions-APIG1', 'AwsSolutions-CFR7']) {
      expect(ids.has(rule), rule).toBe(false);
    }
  });
});

describe('Lambda functions from the manifest', () => {
  it('creates one function per route group, per worker, per schedule, per WebSocket API and per Cognito trigger, plus the API authorizer, Node.js 22 on arm64', () => {
    const ours = Object.values(resources('AWS::Lambda::Function')).filter((f) => f.Properties.Runtime !== undefined && String(f.Properties.Runtime).startsWith('nodejs'));
    // + the three custom-auth triggers, the pre-token-generation trigger and the API authorizer.
    expect(ours).toHaveLength(groupNames.length + workerNames.length + scheduleNames.length + socketNames.length + 3 + 1 + 1);
    for (const fn of ours) {
      expect(fn.Properties.Runtime).toBe('nodejs22.x');
      expect(fn.Properties.Architectures).toEqual(['arm64']);
      expect(fn.Properties.TracingConfig).toEqual({ Mode: 'Active' });
      expect((fn.Properties.Environment as { Variables: Record<string, string> }).Variables.NODE_OPTIONS).toBe('--enable-source-maps');
      expect(fn.Properties.LoggingConfig).toBeDefined();
    }
  });

  it('caps API functions below the API Gateway 30 s limit and uses the manifest timeouts for workers', () => {
    for (const name of groupNames) {
      s.template.hasResourceProperties('AWS::Lambda::Function', {
        Description: Match.stringLikeRegexp(`^API ${name}:`),
        Timeout: Math.min(groupDef(name).timeout ?? 29, 29),
        MemorySize: groupDef(name).memoryMb ?? 512,
      });
    }
    for (const name of workerNames) {
      s.template.hasResourceProperties('AWS::Lambda::Function', {
        Description: Match.stringLikeRegexp(`^Worker ${name}:`),
        Timeout: workerDef(name).timeout,
        MemorySize: workerDef(name).memoryMb ?? 512,
      });
    }
    // A socket function may outlive API Gateway's 29 s wait: it answers by posting to the connection.
    for (const name of socketNames) {
      s.template.hasResourceProperties('AWS::Lambda::Function', {
        Description: Match.stringLikeRegexp(`^WebSocket ${name}:`),
        Timeout: socketDef(name).timeout,
        MemorySize: socketDef(name).memoryMb ?? 512,
      });
    }
  });

  it.each(groupNames)('route group %s has exactly the grants its needs imply', (name: RouteGroupName) => {
    const fn = s.stack.api.functions[name];
    expect([...actualCapabilities(fn)].sort()).toEqual([...expectedCapabilities(groupDef(name).needs)].sort());
  });

  it.each(workerNames)('worker %s has exactly the grants its needs imply, plus consuming its own queue', (name: QueueName) => {
    const fn = s.stack.workers.functions[name];
    expect([...actualCapabilities(fn)].sort()).toEqual([...expectedCapabilities(workerDef(name).needs, name)].sort());
  });

  it.each(socketNames)('WebSocket function %s has exactly the grants its needs imply', (name: SocketApiName) => {
    const fn = s.stack.sockets.functions[name];
    expect([...actualCapabilities(fn)].sort()).toEqual([...expectedCapabilities(socketDef(name).needs)].sort());
  });

  it('gives the API authorizer exactly the grants of its needs (table:read) and only the pool ids, no user-pool permission', () => {
    const fn = s.stack.api.apiAuthorizerFunction;
    expect([...actualCapabilities(fn)].sort()).toEqual([...expectedCapabilities(apiAuthorizer.needs)].sort());
    const props = resources('AWS::Lambda::Function')[logicalId(fn.fn)]?.Properties;
    expect(Object.keys((props?.Environment as { Variables: Record<string, unknown> }).Variables).sort()).toEqual(
      ['APP_URL', 'LOG_LEVEL', 'NODE_OPTIONS', 'TABLE_NAME', 'USER_POOL_CLIENT_ID', 'USER_POOL_ID'].sort(),
    );
  });

  it('lets the Cognito triggers do nothing but log and trace', () => {
    for (const trigger of Object.values(s.stack.auth.triggers)) {
      expect([...actualCapabilities(trigger)].sort()).toEqual([...expectedCapabilities([])].sort());
    }
  });

  it('gives the pre-token-generation trigger (issue 32) one GetItem of membership pointers and one PutItem of activity entries, each limited to its partition prefix, and only the table name', () => {
    const fn = s.stack.auth.preToken;
    // Issue 33: and the table key's actions a read and a write need (the table is encrypted with the data key).
    const key = [...tableKeyReadActions, ...tableKeyWriteActions].map((a) => `data-key ${a}`);
    expect([...actualCapabilities(fn)].sort()).toEqual([...expectedCapabilities([]), 'table dynamodb:GetItem', 'table dynamodb:PutItem', ...key].sort());
    const role = resources('AWS::IAM::Role')[logicalId(fn.role)];
    const statements = ((role?.Properties.Policies ?? []) as { PolicyDocument: { Statement: { Action: unknown; Condition?: unknown }[] } }[]).flatMap((p) => p.PolicyDocument.Statement);
    const condition = (action: string) => statements.find((st) => JSON.stringify(st.Action) === JSON.stringify(action))?.Condition;
    expect(condition('dynamodb:GetItem')).toEqual({ 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['PERSON#*'] } });
    expect(condition('dynamodb:PutItem')).toEqual({ 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['USER#*'] } });
    const props = resources('AWS::Lambda::Function')[logicalId(fn.fn)]?.Properties;
    expect(Object.keys((props?.Environment as { Variables: Record<string, unknown> }).Variables).sort()).toEqual(['LOG_LEVEL', 'NODE_OPTIONS', 'TABLE_NAME']);
  });

  it('examples: codes sends mail but cannot touch uploads; auth reads uploads but sends no mail; url-scrape cannot send to any queue', () => {
    const codes = actualCapabilities(s.stack.api.functions.codes);
    expect(codes.has('table dynamodb:PutItem')).toBe(true);
    expect([...codes].some((c) => c.includes('ses:SendEmail'))).toBe(true);
    expect([...codes].some((c) => c.startsWith('uploads'))).toBe(false);
    const auth = actualCapabilities(s.stack.api.functions.auth);
    expect([...auth].some((c) => c.startsWith('uploads') && c.includes('s3:GetObject'))).toBe(true);
    expect([...auth].some((c) => c.startsWith('uploads') && c.includes('s3:PutObject'))).toBe(false);
    expect([...auth].some((c) => c.includes('ses:'))).toBe(false);
    const scrape = actualCapabilities(s.stack.workers.functions['url-scrape']);
    expect([...scrape].some((c) => c.includes('sqs:SendMessage'))).toBe(false);
  });

  it('e-mail waits for SES (issue 34): only the outbound-email worker and the direct senders may call SES; the alert, summary and handoff producers only queue', () => {
    const sends = (fn: AppFunction) => [...actualCapabilities(fn)].some((c) => c.includes('ses:SendEmail'));
    const queues = (fn: AppFunction) => [...actualCapabilities(fn)].some((c) => c.startsWith('queue:outbound-email sqs:SendMessage'));
    const outbound = s.stack.workers.functions['outbound-email'];
    expect(sends(outbound)).toBe(true);
    expect([...actualCapabilities(outbound)].filter((c) => /^(uploads|secrets-key|user-pool|stripe-secret)/.test(c) || (c.startsWith('queue:') && !c.startsWith('queue:outbound-email ')))).toEqual([]);
    // The conversations API and the inbound worker raise alerts; the call-summary worker e-mails summaries, handoff
    // notices and a call's alert; the call logs resend summaries: all queue, none sends.
    for (const fn of [s.stack.api.functions.conversations, s.stack.api.functions['voice-conversations'], s.stack.workers.functions['whatsapp-inbound'], s.stack.workers.functions['call-summary']]) {
      expect(sends(fn)).toBe(false);
      expect(queues(fn)).toBe(true);
    }
    // Its queue keeps the retry schedule's redrive like every queue.
    s.template.hasResourceProperties('AWS::SQS::Queue', {
      RedrivePolicy: { deadLetterTargetArn: Match.anyValue(), maxReceiveCount: workerDef('outbound-email').maxReceiveCount },
      VisibilityTimeout: workerDef('outbound-email').timeout * 6,
    });
  });

  it('gives each function only the environment its needs imply', () => {
    const env = (fn: AppFunction) => {
      const props = resources('AWS::Lambda::Function')[logicalId(fn.fn)]?.Properties;
      return Object.keys((props?.Environment as { Variables: Record<string, unknown> }).Variables).sort();
    };
    expect(env(s.stack.api.functions.codes)).toEqual(
      ['APP_URL', 'LOG_LEVEL', 'MAIL_FROM', 'NODE_OPTIONS', 'TABLE_NAME', 'WHATSAPP_USER_IDS'].sort(),
    );
    expect(env(s.stack.api.functions.auth)).toEqual(
      ['APP_URL', 'GOOGLE_CLIENT_ID', 'LOG_LEVEL', 'NODE_OPTIONS', 'TABLE_NAME', 'UPLOADS_BUCKET', 'USER_POOL_CLIENT_ID', 'USER_POOL_ID', 'WHATSAPP_USER_IDS'].sort(),
    );
    for (const name of workerNames) {
      const vars = env(s.stack.workers.functions[name]);
      expect(vars).toContain('APP_URL');
      expect(vars).toContain('LOG_LEVEL');
      expect(vars.includes('USER_POOL_ID')).toBe(workers[name].needs.includes('userPool' as never));
      expect(vars.includes('SECRETS_KEY_ID')).toBe(workers[name].needs.some((n) => n.startsWith('secrets:')));
      for (const q of workerNames) expect(vars.includes(queueUrlEnv(q))).toBe(workers[name].needs.includes(`queue:${q}` as never));
    }
  });

  it("sets the voice-note transcription model only where voice notes are transcribed, and only when the deploy chose one (issue 31)", () => {
    const transcribing = [
      ...groupNames.filter((g) => groupDef(g).needs.includes('transcription' as never)),
      ...workerNames.filter((w) => workerDef(w).needs.includes('transcription' as never)),
      ...socketNames.filter((n) => socketDef(n).needs.includes('transcription' as never)),
      ...scheduleNames.filter((n) => scheduleDef(n).needs.includes('transcription' as never)),
    ];
    expect(transcribing).toEqual(['whatsapp-inbound']);
    // The default deploy leaves it unset: config.ts's default applies (an empty variable would fail its check).
    expect(defaultParameters.openaiTranscriptionModel).toBe('');
    const vars = (resources('AWS::Lambda::Function')[logicalId(s.stack.workers.functions['whatsapp-inbound'].fn)]?.Properties.Environment as { Variables: Record<string, unknown> }).Variables;
    expect(vars.OPENAI_TRANSCRIPTION_MODEL).toBeUndefined();
    // A chosen model reaches the function, with no permission added.
    const stack = new Stack(new App(), 'Transcribing');
    const fn = new lambda.Function(stack, 'Worker', { runtime: lambda.Runtime.NODEJS_22_X, handler: 'index.handler', code: lambda.Code.fromInline('export const handler = async () => {};') });
    expect(applyNeeds(fn, ['transcription'], { openaiTranscriptionModel: 'whisper-1' } as SharedResources)).toEqual({ OPENAI_TRANSCRIPTION_MODEL: 'whisper-1' });
    expect(Template.fromStack(stack).findResources('AWS::IAM::Policy')).toEqual({});
  });
});

describe('queues', () => {
  it.each(workerNames)('%s has a dead-letter queue, a visibility timeout of 6x the function timeout and SSL-only access', (name: QueueName) => {
    const queue = resources('AWS::SQS::Queue')[logicalId(s.stack.queues.queues[name])];
    const dlqId = logicalId(s.stack.queues.deadLetterQueues[name]);
    expect(queue?.Properties.RedrivePolicy).toEqual({
      deadLetterTargetArn: { 'Fn::GetAtt': [dlqId, 'Arn'] },
      maxReceiveCount: workers[name].maxReceiveCount,
    });
    expect(queue?.Properties.VisibilityTimeout).toBe(workers[name].timeout * 6);
    expect(queue?.Properties.SqsManagedSseEnabled).toBe(true);
    expect(resources('AWS::SQS::Queue')[dlqId]?.Properties.MessageRetentionPeriod).toBe(14 * 24 * 3600);
    s.template.hasResourceProperties('AWS::CloudWatch::Alarm', {
      Dimensions: [{ Name: 'QueueName', Value: { 'Fn::GetAtt': [dlqId, 'QueueName'] } }],
      MetricName: 'ApproximateNumberOfMessagesVisible',
      Threshold: 0,
      ComparisonOperator: 'GreaterThanThreshold',
    });
  });

  it.each(workerNames)('%s is consumed by its worker with ReportBatchItemFailures', (name: QueueName) => {
    s.template.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      EventSourceArn: { 'Fn::GetAtt': [logicalId(s.stack.queues.queues[name]), 'Arn'] },
      FunctionName: { Ref: logicalId(s.stack.workers.functions[name].fn) },
      BatchSize: workers[name].batchSize,
      FunctionResponseTypes: ['ReportBatchItemFailures'],
    });
  });

  it('every queue in the stack is either a worker queue with a DLQ or one of their DLQs', () => {
    expect(Object.keys(resources('AWS::SQS::Queue'))).toHaveLength(workerNames.length * 2);
  });

  it.each(workerNames)('%s keeps messages for the whole retry schedule: every try, then the give-up delivery, then 14 days to redrive (issue 34)', (name: QueueName) => {
    const queue = resources('AWS::SQS::Queue')[logicalId(s.stack.queues.queues[name])];
    const maxReceiveCount = (queue?.Properties.RedrivePolicy as { maxReceiveCount: number }).maxReceiveCount;
    expect(maxReceiveCount).toBe(QUEUE_MAX_RECEIVES);
    // The tries span at least 30 minutes, so an outage that long is ridden out.
    expect(minimumSecondsUntilReceive(JOB_TRIES)).toBeGreaterThanOrEqual(30 * 60);
    // The longest stay: each wait at its longest (Retry-After's cap, or a try that died: the visibility timeout plus the try).
    const visibility = queue?.Properties.VisibilityTimeout as number;
    const longestStay = maxReceiveCount * Math.max(MAX_RETRY_AFTER_SECONDS, visibility + workers[name].timeout);
    expect(queue?.Properties.MessageRetentionPeriod).toBe(QUEUE_RETENTION_DAYS * 24 * 3600);
    expect(queue?.Properties.MessageRetentionPeriod as number).toBeGreaterThan(longestStay);
    expect(resources('AWS::SQS::Queue')[logicalId(s.stack.queues.deadLetterQueues[name])]?.Properties.MessageRetentionPeriod).toBe(DLQ_RETENTION_DAYS * 24 * 3600);
  });

  it.each(workerNames)('worker %s may change the visibility of its own queue’s messages only (the retry schedule)', (name: QueueName) => {
    const own = `queue:${name} sqs:ChangeMessageVisibility`;
    for (const other of workerNames) {
      const caps = actualCapabilities(s.stack.workers.functions[other]);
      expect(caps.has(own)).toBe(other === name);
    }
    for (const group of groupNames) expect(actualCapabilities(s.stack.api.functions[group]).has(own)).toBe(false);
  });

  it('outputs each dead-letter queue’s ARN for the redrive', () => {
    const outputs = s.template.findOutputs('*');
    for (const name of workerNames) {
      const id = `${name.replace(/(^|-)(\w)/g, (_m, _d: string, c: string) => c.toUpperCase())}DeadLetterQueueArn`;
      expect(outputs[id]?.Value).toEqual({ 'Fn::GetAtt': [logicalId(s.stack.queues.deadLetterQueues[name]), 'Arn'] });
    }
  });
});

describe('schedules', () => {
  it.each(scheduleNames)('%s runs from an EventBridge rule at its manifest rate, targeting its function only (2 retries)', (name) => {
    const fn = s.stack.schedules.functions[name];
    const rule = resources('AWS::Events::Rule')[logicalId(s.stack.schedules.rules[name])];
    // EventBridge's own spelling of the manifest rate (60 minutes is "rate(1 hour)").
    expect(rule?.Properties.ScheduleExpression).toBe(events.Schedule.rate(Duration.minutes(scheduleDef(name).rateMinutes)).expressionString);
    expect(rule?.Properties.State).toBe('ENABLED');
    expect(rule?.Properties.Targets).toEqual([
      expect.objectContaining({ Arn: { 'Fn::GetAtt': [logicalId(fn.fn), 'Arn'] }, RetryPolicy: expect.objectContaining({ MaximumRetryAttempts: 2 }) }),
    ]);
    s.template.hasResourceProperties('AWS::Lambda::Permission', {
      Action: 'lambda:InvokeFunction',
      FunctionName: { 'Fn::GetAtt': [logicalId(fn.fn), 'Arn'] },
      Principal: 'events.amazonaws.com',
      SourceArn: { 'Fn::GetAtt': [logicalId(s.stack.schedules.rules[name]), 'Arn'] },
    });
  });

  it.each(scheduleNames)('%s has exactly the grants its needs imply and the manifest timeout', (name) => {
    const fn = s.stack.schedules.functions[name];
    expect([...actualCapabilities(fn)].sort()).toEqual([...expectedCapabilities(scheduleDef(name).needs)].sort());
    s.template.hasResourceProperties('AWS::Lambda::Function', {
      Timeout: scheduleDef(name).timeout,
      Description: Match.stringLikeRegexp(`^Schedule ${name} `),
    });
  });

  it('stale-calls may read and write the table and send to call-summary only (no uploads, secrets, mail or other queue)', () => {
    const caps = [...actualCapabilities(s.stack.schedules.functions['stale-calls'])];
    expect(caps.some((c) => c.startsWith('queue:call-summary sqs:SendMessage'))).toBe(true);
    expect(caps.filter((c) => /^(uploads|secrets-key|ses-|user-pool|stripe-secret)/.test(c) || (c.startsWith('queue:') && !c.startsWith('queue:call-summary ')))).toEqual([]);
  });
});

describe('data', () => {
  it('builds the table from tableDefinition: on-demand, PITR, TTL, GSIs, retained', () => {
    const [table] = Object.values(s.template.findResources('AWS::DynamoDB::Table')) as Resource[];
    s.template.hasResource('AWS::DynamoDB::Table', { DeletionPolicy: 'Retain', UpdateReplacePolicy: 'Retain' });
    expect(table?.Properties).toMatchObject({
      BillingMode: 'PAY_PER_REQUEST',
      PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
      TimeToLiveSpecification: { AttributeName: tableDefinition.ttlAttribute, Enabled: true },
      DeletionProtectionEnabled: true,
      KeySchema: [
        { AttributeName: tableDefinition.partitionKey, KeyType: 'HASH' },
        { AttributeName: tableDefinition.sortKey, KeyType: 'RANGE' },
      ],
    });
    const gsis = table?.Properties.GlobalSecondaryIndexes as { IndexName: string; KeySchema: { AttributeName: string }[] }[];
    expect(gsis.map((g) => [g.IndexName, ...g.KeySchema.map((k) => k.AttributeName)])).toEqual(
      tableDefinition.globalSecondaryIndexes.map((g) => [g.indexName, g.partitionKey, g.sortKey]),
    );
  });

  it('blocks public access on every bucket and requires TLS', () => {
    const buckets = resources('AWS::S3::Bucket');
    expect(Object.keys(buckets)).toHaveLength(3);
    for (const bucket of Object.values(buckets)) {
      expect(bucket.Properties.PublicAccessBlockConfiguration).toEqual({
        BlockPublicAcls: true,
        BlockPublicPolicy: true,
        IgnorePublicAcls: true,
        RestrictPublicBuckets: true,
      });
    }
    for (const policy of Object.values(resources('AWS::S3::BucketPolicy'))) {
      expect(JSON.stringify(policy.Properties.PolicyDocument)).toContain('"aws:SecureTransport":"false"');
    }
  });

  it('lets the site origin POST uploads with presigned forms and cleans aborted multipart uploads', () => {
    const uploads = resources('AWS::S3::Bucket')[logicalId(s.stack.data.uploads)];
    const cors = uploads?.Properties.CorsConfiguration as {
      CorsRules: { AllowedMethods: string[]; AllowedOrigins: unknown[]; AllowedHeaders?: string[] }[];
    };
    expect(cors.CorsRules).toHaveLength(1);
    // Browser form POST of agent documents (no unbounded PUT), GET and HEAD with presigned links.
    expect([...(cors.CorsRules[0]?.AllowedMethods ?? [])].sort()).toEqual(['GET', 'HEAD', 'POST']);
    expect(cors.CorsRules[0]?.AllowedHeaders).toEqual(['content-type']);
    // Only the CloudFront app origin, never '*'.
    expect(cors.CorsRules[0]?.AllowedOrigins).toHaveLength(1);
    expect(JSON.stringify(cors.CorsRules[0]?.AllowedOrigins)).not.toContain('"*"');
    expect(JSON.stringify(cors.CorsRules[0]?.AllowedOrigins)).toContain(logicalId(s.stack.site.distribution));
    expect(JSON.stringify(uploads?.Properties.LifecycleConfiguration)).toContain('AbortIncompleteMultipartUpload');
    expect(uploads?.Properties.LoggingConfiguration).toBeDefined();
  });

  it('deletes abandoned uploads (the staging prefix), parked WhatsApp bodies and contacts CSV job files a day after they were written, and nothing else', () => {
    const uploads = resources('AWS::S3::Bucket')[logicalId(s.stack.data.uploads)];
    const rules = (uploads?.Properties.LifecycleConfiguration as { Rules: Record<string, unknown>[] }).Rules;
    const expiring = rules.filter((r) => r.ExpirationInDays !== undefined && r.Prefix !== WHATSAPP_MEDIA_PREFIX);
    // The bucket is versioned (issue 33): each also drops the expired object's version a day later.
    const oneDay = { ExpirationInDays: 1, NoncurrentVersionExpiration: { NoncurrentDays: 1 }, Status: 'Enabled' };
    expect(expiring).toEqual([
      { Id: 'expire-incoming-after-1-day', Prefix: 'incoming/', ...oneDay },
      { Id: 'expire-tmp-whatsapp-inbound-after-1-day', Prefix: 'tmp/whatsapp-inbound/', ...oneDay },
      // Issue 19: uploaded CSV files, error reports and exports of the contacts jobs.
      { Id: 'expire-contact-jobs-after-1-day', Prefix: 'contact-jobs/', ...oneDay },
      // Issue 33: a person's export ZIP, downloaded within the day.
      { Id: 'expire-tmp-privacy-exports-after-1-day', Prefix: PRIVACY_EXPORTS_PREFIX, ...oneDay },
    ]);
    // Confirmed documents live under agents/, current knowledge index snapshots under knowledge-index/, customers' media
    // under whatsapp-media/ (kept for their retention, below): no one-day rule covers them.
    for (const kept of [AGENT_FILES_PREFIX, KNOWLEDGE_INDEX_PREFIX, WHATSAPP_MEDIA_PREFIX]) {
      expect(expiring.every((r) => typeof r.Prefix === 'string' && !kept.startsWith(r.Prefix) && r.Prefix !== '')).toBe(true);
    }
    // Issue 31: an owner's attachment staged by the browser and never sent goes with the day's abandoned uploads.
    expect(EXPIRING_UPLOAD_PREFIXES.some((prefix) => ATTACHMENT_STAGING_PREFIX.startsWith(prefix))).toBe(true);
  });

  it("keeps customers' WhatsApp media encrypted for the retention their tag names: a year by default, 30 to 730 days by choice, never longer than the longest (issue 31)", () => {
    const uploads = resources('AWS::S3::Bucket')[logicalId(s.stack.data.uploads)];
    // Issue 33: with the customer-managed data key (no PUT names another encryption: adapters/s3-media.ts signs none).
    expect(uploads?.Properties.BucketEncryption).toEqual({
      ServerSideEncryptionConfiguration: [
        { ServerSideEncryptionByDefault: { SSEAlgorithm: 'aws:kms', KMSMasterKeyID: { 'Fn::GetAtt': [logicalId(s.stack.data.dataKey), 'Arn'] } }, BucketKeyEnabled: true },
      ],
    });
    const rules = (uploads?.Properties.LifecycleConfiguration as { Rules: Record<string, unknown>[] }).Rules;
    const media = rules.filter((r) => r.Prefix === WHATSAPP_MEDIA_PREFIX);
    const byTag = new Map(
      media.filter((r) => r.TagFilters).map((r) => [(r.TagFilters as { Key: string; Value: string }[]).map((t) => `${t.Key}=${t.Value}`).join('&'), r]),
    );
    expect(MEDIA_RETENTION_DAYS.default).toBe(365);
    for (const days of [30, 90, 180, 365, 730]) expect(Object.values(MEDIA_RETENTION_DAYS)).toContain(days);
    for (const [value, days] of Object.entries(MEDIA_RETENTION_DAYS)) {
      expect(byTag.get(`${MEDIA_RETENTION_TAG_KEY}=${value}`), value).toMatchObject({ ExpirationInDays: days, Status: 'Enabled' });
    }
    // An object without a known tag: gone after the longest retention (S3 applies the shortest expiry that matches).
    const untagged = media.filter((r) => !r.TagFilters);
    expect(untagged).toEqual([expect.objectContaining({ ExpirationInDays: MEDIA_RETENTION_MAX_DAYS, Status: 'Enabled' })]);
    expect(MEDIA_RETENTION_MAX_DAYS).toBe(Math.max(...Object.values(MEDIA_RETENTION_DAYS)));
    expect(media).toHaveLength(Object.keys(MEDIA_RETENTION_DAYS).length + 1);
    // The tag every media object is written with (adapters/s3-media.ts) is one the rules know: a year.
    expect(MEDIA_RETENTION_TAG.key).toBe(MEDIA_RETENTION_TAG_KEY);
    expect(MEDIA_RETENTION_DAYS[MEDIA_RETENTION_TAG.value]).toBe(365);
    expect(() => mediaRetentionRules('whatsapp-media')).toThrow(/must be a folder/);
  });

  it("lets only the inbound worker, the conversations and the messages functions reach customers' media, and only the conversations function stage attachments (issue 31)", () => {
    // Issue 33: the privacy-jobs worker reads a person's media into their export and deletes them (erasure, account deletion).
    const readers = new Set(['group:conversations', 'group:messages', 'worker:whatsapp-inbound', 'worker:privacy-jobs']);
    const writers = new Set(['group:conversations', 'worker:whatsapp-inbound', 'worker:privacy-jobs']);
    const stagers = new Set(['group:conversations']);
    // A document the agent sent, sent again from the Message Hub (the inbound worker reads the whole bucket already).
    const agentFileReaders = new Set(['group:messages']);
    const all: [string, readonly Need[]][] = [
      ...groupNames.map((g) => [`group:${g}`, groupDef(g).needs] as [string, readonly Need[]]),
      ...workerNames.map((w) => [`worker:${w}`, workerDef(w).needs] as [string, readonly Need[]]),
      ...socketNames.map((n) => [`socket:${n}`, socketDef(n).needs] as [string, readonly Need[]]),
      ...scheduleNames.map((n) => [`schedule:${n}`, scheduleDef(n).needs] as [string, readonly Need[]]),
    ];
    for (const [name, needs] of all) {
      expect({ name, read: needs.includes('whatsapp-media:read') }).toEqual({ name, read: readers.has(name) });
      expect({ name, write: needs.includes('whatsapp-media:write') }).toEqual({ name, write: writers.has(name) });
      expect({ name, stage: needs.includes('attachments:stage') }).toEqual({ name, stage: stagers.has(name) });
      expect({ name, agentFiles: needs.includes('agent-files:read') }).toEqual({ name, agentFiles: agentFileReaders.has(name) });
    }
    // The tag on each PUT needs PutObjectTagging; the grants stay on their prefix.
    const worker = actualCapabilities(s.stack.workers.functions['whatsapp-inbound']);
    expect(worker.has('uploads-whatsapp-media s3:PutObjectTagging')).toBe(true);
    const conversations = [...actualCapabilities(s.stack.api.functions.conversations)];
    expect(conversations.filter((c) => c.startsWith('uploads')).sort()).toEqual(
      [
        ...attachmentStagingActions.map((a) => `uploads-attachments ${a}`),
        ...[...whatsappMediaReadActions, ...whatsappMediaWriteActions].map((a) => `uploads-whatsapp-media ${a}`),
      ].sort(),
    );
  });

  it('lets every function that searches knowledge read and write the index snapshots, the ingestion workers write them, and nothing else touch them', () => {
    const searchers = new Set(['group:agent-chat', 'group:voice-webhook', 'worker:whatsapp-inbound', 'socket:voice-relay']);
    const writers = new Set(['worker:url-scrape', 'worker:file-ingest']);
    const all: [string, readonly Need[]][] = [
      ...groupNames.map((g) => [`group:${g}`, groupDef(g).needs] as [string, readonly Need[]]),
      ...workerNames.map((w) => [`worker:${w}`, workerDef(w).needs] as [string, readonly Need[]]),
      ...socketNames.map((n) => [`socket:${n}`, socketDef(n).needs] as [string, readonly Need[]]),
    ];
    for (const [name, needs] of all) {
      expect({ name, search: needs.includes('knowledge-index:search') }).toEqual({ name, search: searchers.has(name) });
      expect({ name, write: needs.includes('knowledge-index:write') }).toEqual({ name, write: writers.has(name) });
    }
  });

  it('builds one one-day expiry rule per listed prefix, and refuses a prefix that could cover kept data', () => {
    expect(expireAfterOneDay(['incoming/', 'tmp/bodies/']).map((r) => [r.id, r.prefix, r.expiration?.toDays()])).toEqual([
      ['expire-incoming-after-1-day', 'incoming/', 1],
      ['expire-tmp-bodies-after-1-day', 'tmp/bodies/', 1],
    ]);
    expect(() => expireAfterOneDay([''])).toThrow(/must be a folder/);
    expect(() => expireAfterOneDay(['agents'])).toThrow(/must be a folder/);
  });

  it('rotates the integration-secrets key', () => {
    s.template.hasResourceProperties('AWS::KMS::Key', { EnableKeyRotation: true });
  });
});

describe("data protection (issue 33): the customers' data under a customer-managed key, restorable for a bounded time", () => {
  const dataKeyArn = () => ({ 'Fn::GetAtt': [logicalId(s.stack.data.dataKey), 'Arn'] });
  const uploads = () => resources('AWS::S3::Bucket')[logicalId(s.stack.data.uploads)];
  const uploadRules = () => (uploads()?.Properties.LifecycleConfiguration as { Rules: Record<string, unknown>[] }).Rules;

  it('creates one customer-managed data key, rotated, retained, with an alias, apart from the secrets key, trusting only the account (IAM grants decide)', () => {
    const keyId = logicalId(s.stack.data.dataKey);
    expect(keyId).not.toBe(logicalId(s.stack.data.secretsKey));
    const key = s.template.findResources('AWS::KMS::Key')[keyId] as Resource & { DeletionPolicy?: string };
    expect(key.Properties.EnableKeyRotation).toBe(true);
    expect(key.DeletionPolicy).toBe('Retain');
    expect(key.Properties.PendingWindowInDays).toBe(30);
    // The default key policy: the account root only, so each role's grants alone say who uses the key.
    const statements = (key.Properties.KeyPolicy as { Statement: { Principal: unknown; Action: unknown }[] }).Statement;
    expect(statements).toHaveLength(1);
    expect(JSON.stringify(statements[0]!.Principal)).toContain(':iam::123456789012:root');
    s.template.hasResourceProperties('AWS::KMS::Alias', { AliasName: 'alias/AgentDesk/data', TargetKeyId: dataKeyArn() });
    expect(s.template.findOutputs('DataKeyArn').DataKeyArn?.Value).toEqual(dataKeyArn());
  });

  it('encrypts the table with the data key and keeps 35 days of point-in-time recovery', () => {
    const table = resources('AWS::DynamoDB::Table')[logicalId(s.stack.data.table)];
    expect(table?.Properties.SSESpecification).toEqual({ SSEEnabled: true, SSEType: 'KMS', KMSMasterKeyId: dataKeyArn() });
    expect(table?.Properties.PointInTimeRecoverySpecification).toEqual({ PointInTimeRecoveryEnabled: true, RecoveryPeriodInDays: 35 });
    expect(PITR_RECOVERY_DAYS).toBe(35);
  });

  it('encrypts the uploads bucket with the data key; the access-log bucket stays SSE-S3 (log delivery) and holds no customer content', () => {
    const sse = (bucket: Resource | undefined) =>
      (bucket?.Properties.BucketEncryption as { ServerSideEncryptionConfiguration: { ServerSideEncryptionByDefault: unknown }[] }).ServerSideEncryptionConfiguration[0]!.ServerSideEncryptionByDefault;
    expect(sse(uploads())).toEqual({ SSEAlgorithm: 'aws:kms', KMSMasterKeyID: dataKeyArn() });
    expect(sse(resources('AWS::S3::Bucket')[logicalId(s.stack.data.logs)])).toEqual({ SSEAlgorithm: 'AES256' });
    // Nothing else is encrypted with the data key: only the table and this bucket.
    const users = Object.entries(s.template.toJSON().Resources as Record<string, Resource>).filter(
      ([, r]) => r.Type !== 'AWS::IAM::Role' && r.Type !== 'AWS::IAM::Policy' && r.Type !== 'AWS::KMS::Alias' && JSON.stringify(r.Properties ?? {}).includes(`"${logicalId(s.stack.data.dataKey)}"`),
    );
    expect(users.map(([id]) => id).sort()).toEqual([logicalId(s.stack.data.table), logicalId(s.stack.data.uploads)].sort());
  });

  it('versions the uploads bucket: noncurrent versions go after 30 days (a day for temporary and derived objects), expired delete markers are removed', () => {
    expect(uploads()?.Properties.VersioningConfiguration).toEqual({ Status: 'Enabled' });
    const rules = uploadRules();
    const everywhere = rules.filter((r) => r.NoncurrentVersionExpiration && r.Prefix === undefined && r.TagFilters === undefined);
    expect(everywhere).toEqual([
      { Id: 'expire-noncurrent-versions-after-30-days', NoncurrentVersionExpiration: { NoncurrentDays: NONCURRENT_VERSION_DAYS }, ExpiredObjectDeleteMarker: true, Status: 'Enabled' },
    ]);
    expect(NONCURRENT_VERSION_DAYS).toBe(30);
    // Knowledge index snapshots are rebuilt from the table: their replaced versions go after a day.
    expect(rules).toContainEqual({ Id: 'expire-noncurrent-knowledge-index-after-1-day', Prefix: KNOWLEDGE_INDEX_PREFIX, NoncurrentVersionExpiration: { NoncurrentDays: 1 }, Status: 'Enabled' });
    // Every temporary prefix drops its versions after a day too (the export ZIPs of a person included).
    for (const prefix of EXPIRING_UPLOAD_PREFIXES) {
      expect(rules.find((r) => r.Prefix === prefix && r.ExpirationInDays === 1)?.NoncurrentVersionExpiration, prefix).toEqual({ NoncurrentDays: 1 });
    }
    expect(EXPIRING_UPLOAD_PREFIXES).toContain(PRIVACY_EXPORTS_PREFIX);
    // The existing rules are kept: aborted multipart uploads, and the media retention tags (30 to 730 days, untagged 730, default 365).
    expect(rules).toContainEqual({ AbortIncompleteMultipartUpload: { DaysAfterInitiation: 1 }, Status: 'Enabled' });
    const media = rules.filter((r) => r.Prefix === WHATSAPP_MEDIA_PREFIX);
    expect(media.map((r) => r.ExpirationInDays).sort((a, b) => Number(a) - Number(b))).toEqual([30, 90, 180, 365, 365, 730, 730]);
    expect(() => versionRules(['knowledge-index'])).toThrow(/must be a folder/);
  });

  it("gives the data key only to the functions that touch the table or the uploads: Decrypt to read objects, GenerateDataKey to write them, never '*' or kms:*", () => {
    const all: [string, AppFunction, readonly Need[]][] = [
      ...groupNames.map((g) => [`group:${g}`, s.stack.api.functions[g], groupDef(g).needs] as [string, AppFunction, readonly Need[]]),
      ...workerNames.map((w) => [`worker:${w}`, s.stack.workers.functions[w], workerDef(w).needs] as [string, AppFunction, readonly Need[]]),
      ...scheduleNames.map((n) => [`schedule:${n}`, s.stack.schedules.functions[n], scheduleDef(n).needs] as [string, AppFunction, readonly Need[]]),
    ];
    for (const [name, fn, needs] of all) {
      const key = [...actualCapabilities(fn)].filter((c) => c.startsWith('data-key '));
      const objects = [...actualCapabilities(fn)].filter((c) => c.startsWith('uploads'));
      expect(key.length > 0, name).toBe(needs.some((n) => n.startsWith('table:')) || objects.length > 0);
      expect(key.includes('data-key kms:Decrypt'), name).toBe(key.length > 0);
      if (objects.some((c) => c.endsWith(' s3:PutObject'))) expect(key, name).toContain('data-key kms:GenerateDataKey');
      // A read, or a multipart upload (each part is encrypted under the upload's data key, decrypted by S3 as the caller).
      if (objects.some((c) => c.endsWith(' s3:GetObject') || c.endsWith(' s3:AbortMultipartUpload'))) expect(key, name).toContain('data-key kms:Decrypt');
      if (!needs.includes('table:write')) expect(key.filter((c) => c.includes('GenerateDataKey') && !c.endsWith(' kms:GenerateDataKey')), name).toEqual([]);
    }
    for (const { document } of policyDocuments()) {
      for (const st of document.Statement) {
        const actions = [st.Action].flat();
        expect(actions.some((a) => a === 'kms:*' || a === '*'), JSON.stringify(st)).toBe(false);
        if (actions.some((a) => a.startsWith('kms:'))) expect([st.Resource].flat()).not.toContain('*');
      }
    }
    // The Cognito triggers that never touch the table have no key.
    for (const trigger of Object.values(s.stack.auth.triggers)) expect([...actualCapabilities(trigger)].some((c) => c.startsWith('data-key')), trigger.node.path).toBe(false);
  });

  it('the privacy API (one function, its routes behind the JWT authorizer) reaches the table, the privacy-jobs queue and the export ZIPs only', () => {
    const caps = [...actualCapabilities(s.stack.api.functions.privacy)].sort();
    expect(caps).toEqual([...expectedCapabilities(['table:read', 'table:write', 'privacy-exports:read', 'queue:privacy-jobs'])].sort());
    expect(caps.filter((c) => c.startsWith('uploads'))).toEqual(['uploads-privacy-exports s3:GetObject']);
    expect(caps.filter((c) => /^(secrets-key|user-pool|ses-|stripe-secret|google-calendar-secret|push-secret|socket)/.test(c))).toEqual([]);
    expect(caps.filter((c) => c.startsWith('queue:'))).toEqual(SQS_SEND.map((a) => `queue:privacy-jobs ${a}`).sort());
    const privacyRoutes = routes.filter((r) => (r.group as string) === 'privacy');
    expect(privacyRoutes.length).toBeGreaterThanOrEqual(9);
    expect(privacyRoutes.every((r) => r.auth === 'user')).toBe(true);
  });

  it('the privacy-jobs worker: its queue with a DLQ, one job per invocation, 300 s and 1 GB, and grants no broader than its needs', () => {
    const def = workerDef('privacy-jobs');
    const queue = resources('AWS::SQS::Queue')[logicalId(s.stack.queues.queues['privacy-jobs'])];
    expect(queue?.Properties.RedrivePolicy).toEqual({
      deadLetterTargetArn: { 'Fn::GetAtt': [logicalId(s.stack.queues.deadLetterQueues['privacy-jobs']), 'Arn'] },
      maxReceiveCount: QUEUE_MAX_RECEIVES,
    });
    expect(queue?.Properties.VisibilityTimeout).toBe(300 * 6);
    const fn = resources('AWS::Lambda::Function')[logicalId(s.stack.workers.functions['privacy-jobs'].fn)];
    expect(fn?.Properties).toMatchObject({ Timeout: 300, MemorySize: 1024 });
    expect(def).toMatchObject({ timeout: 300, memoryMb: 1024, batchSize: 1 });
    const caps = [...actualCapabilities(s.stack.workers.functions['privacy-jobs'])];
    expect(caps.sort()).toEqual([...expectedCapabilities(def.needs, 'privacy-jobs')].sort());
    // It may write the export ZIP under tmp/privacy-exports/ (uploads:write covers every key of the bucket) and delete media.
    expect(caps).toContain('uploads-objects s3:PutObject');
    expect(caps).toContain('uploads-whatsapp-media s3:DeleteObject');
    expect(caps).toContain('data-key kms:GenerateDataKey');
    // Only its own queue (a long job queues its next slice), no socket, no knowledge index, no secrets sealing.
    expect(caps.filter((c) => c.startsWith('queue:') && !c.startsWith('queue:privacy-jobs '))).toEqual([]);
    expect(caps.filter((c) => /^(socket|uploads-knowledge-index|uploads-attachments)/.test(c) || c === 'secrets-key kms:GenerateDataKey')).toEqual([]);
  });

  it('recording-retention runs hourly (300 s) with the table and the Twilio credentials only', () => {
    const rule = resources('AWS::Events::Rule')[logicalId(s.stack.schedules.rules['recording-retention'])];
    expect(rule?.Properties.ScheduleExpression).toBe('rate(1 hour)');
    const fn = resources('AWS::Lambda::Function')[logicalId(s.stack.schedules.functions['recording-retention'].fn)];
    expect(fn?.Properties.Timeout).toBe(300);
    const caps = [...actualCapabilities(s.stack.schedules.functions['recording-retention'])];
    expect(caps.filter((c) => !/^(table|data-key|secrets-key kms:Decrypt|own-logs|\* xray)/.test(c))).toEqual([]);
    expect(caps).toContain('secrets-key kms:Decrypt');
  });
});

/** Every function built with AppFunction: route groups, the API authorizer, workers, schedules, socket functions, Cognito triggers. */
const manifestRoles = (): AppFunction[] => [
  ...Object.values(s.stack.api.functions),
  s.stack.api.apiAuthorizerFunction,
  ...Object.values(s.stack.workers.functions),
  ...Object.values(s.stack.schedules.functions),
  ...Object.values(s.stack.sockets.functions),
  ...Object.values(s.stack.auth.triggers),
  s.stack.auth.preToken,
];

describe('HTTP API and Cognito', () => {
  it("creates the route plan's routes, each manifest route served by exactly one of its function: the JWT authorizer exactly on user routes, the API authorizer exactly on userOrApiKey routes", () => {
    const authorizerId = logicalId(s.stack.api.httpApi.node.findChild('CognitoJwt'));
    const apiAuthorizerId = logicalId(s.stack.api.httpApi.node.findChild('ApiAuthorizer'));
    const httpApiId = logicalId(s.stack.api.httpApi);
    const created = Object.values(resources('AWS::ApiGatewayV2::Route')).filter((r) => JSON.stringify(r.Properties.ApiId) === JSON.stringify({ Ref: httpApiId }));
    const plan = routePlan();
    expect(created.map((r) => r.Properties.RouteKey).sort()).toEqual(plan.map((r) => r.key).sort());
    expect(routes.filter((r) => r.auth === 'userOrApiKey').length).toBeGreaterThan(0);
    const integrations = resources('AWS::ApiGatewayV2::Integration');
    for (const route of routes) {
      const served = plan.filter((r) => r.serves.includes(routeKeyOf(route)));
      expect(served, routeKeyOf(route)).toHaveLength(1);
      const match = created.find((r) => r.Properties.RouteKey === served[0]!.key);
      expect(match, `${route.method} ${route.path}`).toBeDefined();
      // The integration of the route's own function.
      const integrationId = String(JSON.stringify(match?.Properties.Target)).match(/"Ref":"([^"]+)"/)?.[1] ?? '';
      expect(JSON.stringify(integrations[integrationId]?.Properties.IntegrationUri), routeKeyOf(route)).toContain(logicalId(s.stack.api.functions[route.group].fn));
      if (route.auth === 'user') {
        expect(match?.Properties.AuthorizationType).toBe('JWT');
        expect(match?.Properties.AuthorizerId).toEqual({ Ref: authorizerId });
      } else if (route.auth === 'userOrApiKey') {
        expect(match?.Properties.AuthorizationType).toBe('CUSTOM');
        expect(match?.Properties.AuthorizerId).toEqual({ Ref: apiAuthorizerId });
      } else {
        expect(match?.Properties.AuthorizationType ?? 'NONE').toBe('NONE');
        expect(match?.Properties.AuthorizerId).toBeUndefined();
      }
    }
  });

  it('lets API Gateway invoke each route-group function through one permission scoped to this API, not one per route', () => {
    const apiId = logicalId(s.stack.api.httpApi);
    for (const name of groupNames) {
      const fnId = logicalId(s.stack.api.functions[name].fn);
      const permissions = Object.values(resources('AWS::Lambda::Permission')).filter(
        (p) => JSON.stringify(p.Properties.FunctionName) === JSON.stringify({ 'Fn::GetAtt': [fnId, 'Arn'] }),
      );
      expect(permissions, name).toHaveLength(1);
      expect(permissions[0]!.Properties.Principal).toBe('apigateway.amazonaws.com');
      expect(JSON.stringify(permissions[0]!.Properties.SourceArn)).toContain(apiId);
    }
  });

  it('stays well under CloudFormation\'s 500 resources per stack, so new routes and workers still fit', () => {
    expect(Object.keys(s.template.toJSON().Resources).length).toBeLessThan(420);
  });

  it("keeps each function's grants in its role's own inline policy, not in a separate policy resource (one resource fewer per function: the stack went from 413 to 370)", () => {
    const roles = new Set([...manifestRoles()].map((fn) => logicalId(fn.role)));
    const separate = Object.values(resources('AWS::IAM::Policy')).filter((p) => [...roles].some((id) => JSON.stringify(p.Properties.Roles).includes(`"${id}"`)));
    expect(separate).toEqual([]);
    for (const id of roles) expect((resources('AWS::IAM::Role')[id]?.Properties.Policies as unknown[] | undefined)?.length, id).toBe(1);
  });

  it("keeps the HTTP API's routes (greedy ones where a prefix's routes are alike) far from API Gateway's 300 routes per API", () => {
    const httpApiId = logicalId(s.stack.api.httpApi);
    const created = Object.values(resources('AWS::ApiGatewayV2::Route')).filter((r) => JSON.stringify(r.Properties.ApiId) === JSON.stringify({ Ref: httpApiId }));
    expect(created.length).toBeLessThanOrEqual(Math.ceil(routes.length / 2));
    expect(created.some((r) => String(r.Properties.RouteKey).endsWith('/{proxy+}'))).toBe(true);
  });

  it('checks Cognito-issued tokens for the web client', () => {
    const poolId = logicalId(s.stack.auth.userPool);
    s.template.hasResourceProperties('AWS::ApiGatewayV2::Authorizer', {
      AuthorizerType: 'JWT',
      IdentitySource: ['$request.header.Authorization'],
      JwtConfiguration: {
        Audience: [{ Ref: logicalId(s.stack.auth.client) }],
        Issuer: { 'Fn::Join': ['', Match.arrayWith([Match.stringLikeRegexp('https://cognito-idp.eu-west-1.amazonaws.com/'), { Ref: poolId }])] },
      },
    });
  });

  it('runs the API authorizer as a REQUEST authorizer: payload 2.0, simple responses, no identity source, no result cache', () => {
    const fnId = logicalId(s.stack.api.apiAuthorizerFunction.fn);
    const [authorizer] = Object.values(resources('AWS::ApiGatewayV2::Authorizer')).filter((a) => a.Properties.AuthorizerType === 'REQUEST');
    expect(authorizer?.Properties).toMatchObject({
      AuthorizerPayloadFormatVersion: '2.0',
      EnableSimpleResponses: true,
      AuthorizerResultTtlInSeconds: 0,
    });
    expect(authorizer?.Properties.IdentitySource ?? []).toEqual([]);
    expect(JSON.stringify(authorizer?.Properties.AuthorizerUri)).toContain(fnId);
    // API Gateway may invoke it (and only for this API's authorizer).
    s.template.hasResourceProperties('AWS::Lambda::Permission', {
      FunctionName: { 'Fn::GetAtt': [fnId, 'Arn'] },
      Principal: 'apigateway.amazonaws.com',
    });
  });

  it('throttles and access-logs the default stage', () => {
    s.template.hasResourceProperties('AWS::ApiGatewayV2::Stage', {
      StageName: '$default',
      AutoDeploy: true,
      DefaultRouteSettings: { ThrottlingRateLimit: Match.anyValue(), ThrottlingBurstLimit: Match.anyValue() },
      AccessLogSettings: { DestinationArn: Match.anyValue(), Format: Match.anyValue() },
    });
  });

  it('configures the user pool: admin-created users, e-mail sign-in, password rules, custom-auth triggers', () => {
    s.template.hasResourceProperties('AWS::Cognito::UserPool', {
      AdminCreateUserConfig: { AllowAdminCreateUserOnly: true },
      UsernameAttributes: ['email'],
      Policies: { PasswordPolicy: Match.objectLike({ MinimumLength: 8, RequireNumbers: true, RequireSymbols: true }) },
      AccountRecoverySetting: { RecoveryMechanisms: [{ Name: 'admin_only', Priority: 1 }] },
      LambdaConfig: {
        DefineAuthChallenge: Match.anyValue(),
        CreateAuthChallenge: Match.anyValue(),
        VerifyAuthChallengeResponse: Match.anyValue(),
      },
    });
    s.template.hasResourceProperties('AWS::Cognito::UserPoolClient', {
      GenerateSecret: false,
      ExplicitAuthFlows: Match.arrayWith(['ALLOW_USER_PASSWORD_AUTH', 'ALLOW_CUSTOM_AUTH', 'ALLOW_REFRESH_TOKEN_AUTH']),
      RefreshTokenValidity: 43200,
      TokenValidityUnits: Match.objectLike({ AccessToken: 'minutes', RefreshToken: 'minutes' }),
    });
  });

  it('runs the pre-token-generation trigger with the V2_0 event (account and role claims in the access token, issue 32), on the Essentials plan it needs', () => {
    const fnArn = { 'Fn::GetAtt': [logicalId(s.stack.auth.preToken.fn), 'Arn'] };
    s.template.hasResourceProperties('AWS::Cognito::UserPool', {
      UserPoolTier: 'ESSENTIALS',
      LambdaConfig: Match.objectLike({ PreTokenGenerationConfig: { LambdaArn: fnArn, LambdaVersion: 'V2_0' } }),
    });
    // The V1 setting is not used alongside it.
    const pool = Object.values(resources('AWS::Cognito::UserPool'))[0]!;
    expect((pool.Properties.LambdaConfig as Record<string, unknown>).PreTokenGeneration).toBeUndefined();
    s.template.hasResourceProperties('AWS::Lambda::Permission', { FunctionName: fnArn, Principal: 'cognito-idp.amazonaws.com', Action: 'lambda:InvokeFunction' });
  });

  it('ends sessions within 5 minutes: access and ID tokens live 5 minutes (Cognito\'s minimum), the sign-out revokes refresh tokens', () => {
    s.template.hasResourceProperties('AWS::Cognito::UserPoolClient', {
      AccessTokenValidity: 5,
      IdTokenValidity: 5,
      TokenValidityUnits: Match.objectLike({ AccessToken: 'minutes', IdToken: 'minutes' }),
      EnableTokenRevocation: true,
    });
  });

  it("creates the Cognito group 'admin' in the user pool (the admin routes check its claim)", () => {
    const pools = s.template.findResources('AWS::Cognito::UserPool');
    s.template.resourceCountIs('AWS::Cognito::UserPoolGroup', 1);
    s.template.hasResourceProperties('AWS::Cognito::UserPoolGroup', {
      GroupName: 'admin',
      UserPoolId: { Ref: Object.keys(pools)[0] },
    });
  });
});

// ---------------------------------------------------------------------------------------
// Streaming voice (issue 16): the WebSocket APIs of the manifest's socketApis.

describe('WebSocket APIs', () => {
  type Statement = { Effect: string; Action: string | string[]; Resource: unknown };
  const variables = (fn: AppFunction) =>
    (resources('AWS::Lambda::Function')[logicalId(fn.fn)]?.Properties.Environment as { Variables: Record<string, unknown> }).Variables;
  const apiRef = (name: SocketApiName) => ({ Ref: logicalId(s.stack.sockets.apis[name]) });
  const fnArn = (name: SocketApiName) => ({ 'Fn::GetAtt': [logicalId(s.stack.sockets.functions[name].fn), 'Arn'] });
  /** Every function the stack builds from a manifest, with its needs. */
  const manifestFunctions = (): { name: string; fn: AppFunction; needs: readonly Need[] }[] => [
    ...groupNames.map((n) => ({ name: `api ${n}`, fn: s.stack.api.functions[n], needs: groupDef(n).needs })),
    ...workerNames.map((n) => ({ name: `worker ${n}`, fn: s.stack.workers.functions[n], needs: workers[n].needs })),
    ...scheduleNames.map((n) => ({ name: `schedule ${n}`, fn: s.stack.schedules.functions[n], needs: schedules[n].needs })),
    ...socketNames.map((n) => ({ name: `socket ${n}`, fn: s.stack.sockets.functions[n], needs: socketApis[n].needs })),
    { name: 'api-authorizer', fn: s.stack.api.apiAuthorizerFunction, needs: apiAuthorizer.needs },
  ];
  /** The statements (in any policy of any role) that carry `action`, by role logical id. */
  const statementsWith = (action: string) =>
    policyDocuments().flatMap((p) =>
      (p.document.Statement as Statement[]).filter((st) => [st.Action].flat().includes(action)).map((st) => ({
        roles: p.roles,
        statement: st,
      })),
    );

  it('follows the manifest: voice-relay is the one socket API, with the three API Gateway route keys', () => {
    expect(socketNames).toEqual(['voice-relay']);
    expect(SOCKET_ROUTE_KEYS).toEqual(['$connect', '$disconnect', '$default']);
    s.template.resourceCountIs('AWS::ApiGatewayV2::Api', 1 + socketNames.length);
  });

  it.each(socketNames)('%s: a WEBSOCKET API whose $connect, $disconnect and $default go to its function (Lambda proxy), nothing else', (name) => {
    const api = resources('AWS::ApiGatewayV2::Api')[logicalId(s.stack.sockets.apis[name])];
    const routesOfApi = Object.values(resources('AWS::ApiGatewayV2::Route')).filter((r) => JSON.stringify(r.Properties.ApiId) === JSON.stringify(apiRef(name)));
    const integrations = resources('AWS::ApiGatewayV2::Integration');

    expect(api?.Properties.ProtocolType).toBe('WEBSOCKET');
    expect(routesOfApi.map((r) => r.Properties.RouteKey).sort()).toEqual([...SOCKET_ROUTE_KEYS].sort());
    for (const route of routesOfApi) {
      const target = JSON.stringify(route.Properties.Target);
      const [, integration] = Object.entries(integrations).find(([id]) => target.includes(`"${id}"`)) ?? [];
      expect(integration?.Properties, String(route.Properties.RouteKey)).toMatchObject({ ApiId: apiRef(name), IntegrationType: 'AWS_PROXY', TimeoutInMillis: 29_000 });
      expect(JSON.stringify(integration?.Properties.IntegrationUri)).toContain(JSON.stringify(fnArn(name)));
      // API Gateway may invoke the function for this API's route only.
      s.template.hasResourceProperties('AWS::Lambda::Permission', {
        Action: 'lambda:InvokeFunction',
        FunctionName: fnArn(name),
        Principal: 'apigateway.amazonaws.com',
        SourceArn: { 'Fn::Join': ['', [Match.stringLikeRegexp(':execute-api:eu-west-1:123456789012:$'), apiRef(name), `/*${String(route.Properties.RouteKey)}`]] },
      });
    }
  });

  it.each(socketNames)('%s: no API Gateway authorizer (Twilio cannot send one), each route acknowledged for APIG4 with its reason', (name) => {
    const routesOfApi = Object.values(resources('AWS::ApiGatewayV2::Route')).filter((r) => JSON.stringify(r.Properties.ApiId) === JSON.stringify(apiRef(name)));
    const acks = acknowledgements(s.stack.sockets.apis[name]).filter((a) => a.id === 'AwsSolutions-APIG4');

    for (const route of routesOfApi) expect(route.Properties.AuthorizationType ?? 'NONE').toBe('NONE');
    expect(acks.map((a) => a.path.split('/').pop()).sort()).toEqual(SOCKET_ROUTE_KEYS.map((k) => `${k}-Route`).sort());
    expect(acks.find((a) => a.path.endsWith('/$connect-Route'))?.reason).toBe(`${name} $connect: ${socketRouteReasons.$connect}`);
    expect(socketRouteReasons.$connect).toContain('X-Twilio-Signature');
    // Nothing else on the socket APIs is acknowledged: access logging (APIG1) is met, not waived.
    expect(new Set(acknowledgements(s.stack.sockets.apis[name]).map((a) => a.id))).toEqual(new Set(['AwsSolutions-APIG4']));
  });

  it.each(socketNames)("%s: stage 'live', auto-deployed, JSON access logs to a retained log group, throttled like the webhook routes", (name) => {
    const stage = resources('AWS::ApiGatewayV2::Stage')[logicalId(s.stack.sockets.stages[name])];
    const { webhook } = defaultParameters.apiThrottle;
    const logs = stage?.Properties.AccessLogSettings as { DestinationArn: { 'Fn::GetAtt': [string, string] }; Format: string };

    expect(stage?.Properties).toMatchObject({
      ApiId: apiRef(name),
      StageName: 'live',
      AutoDeploy: true,
      DefaultRouteSettings: { ThrottlingRateLimit: webhook.rateLimit, ThrottlingBurstLimit: webhook.burstLimit },
    });
    expect(JSON.parse(logs.Format)).toMatchObject({ requestId: '$context.requestId', routeKey: '$context.routeKey', connectionId: '$context.connectionId', status: '$context.status' });
    expect(resources('AWS::Logs::LogGroup')[logs.DestinationArn['Fn::GetAtt'][0]]?.Properties.RetentionInDays).toBe(30);
  });

  it.each(socketNames)("%s: ManageConnections only for the functions whose needs say sockets:<name>, on this API's live stage @connections only", (name) => {
    const granted = statementsWith('execute-api:ManageConnections');
    const needing = manifestFunctions().filter((f) => f.needs.includes(`sockets:${name}` as Need));

    expect(needing.map((f) => f.name)).toEqual([`socket ${name}`]);
    expect(granted).toHaveLength(needing.length);
    for (const { fn } of needing) {
      const [grant] = granted.filter((g) => g.roles.includes(`"${logicalId(fn.role)}"`));
      expect(grant?.statement.Action).toBe('execute-api:ManageConnections');
      expect(grant?.statement.Resource).toEqual({ 'Fn::Join': ['', ['arn:aws:execute-api:eu-west-1:123456789012:', apiRef(name), '/live/*/@connections/*']] });
    }
  });

  it.each(socketNames)('%s: lambda:InvokeFunction on that function (unqualified, no ":*") only for the functions whose needs say invoke:<name>', (name) => {
    const granted = statementsWith('lambda:InvokeFunction');
    const needing = manifestFunctions().filter((f) => f.needs.includes(`invoke:${name}` as Need));

    expect(needing.map((f) => f.name)).toEqual(['api voice-webhook']);
    expect(granted).toHaveLength(needing.length);
    for (const { fn } of needing) {
      const [grant] = granted.filter((g) => g.roles.includes(`"${logicalId(fn.role)}"`));
      expect(grant?.statement.Action).toBe('lambda:InvokeFunction');
      expect(grant?.statement.Resource).toEqual(fnArn(name));
    }
  });

  it.each(socketNames)('%s: its URLs and function name reach exactly the functions whose needs use them', (name) => {
    const env = socketEnv(name);
    const wss = { 'Fn::Join': ['', ['wss://', apiRef(name), '.execute-api.eu-west-1.', { Ref: 'AWS::URLSuffix' }, '/live']] };
    const https = { 'Fn::Join': ['', ['https://', apiRef(name), '.execute-api.eu-west-1.', { Ref: 'AWS::URLSuffix' }, '/live']] };
    expect(env).toEqual({ url: 'VOICE_RELAY_URL', connectionsUrl: 'VOICE_RELAY_CONNECTIONS_URL', function: 'VOICE_RELAY_FUNCTION' });

    for (const { name: fnName, fn, needs } of manifestFunctions()) {
      const vars = variables(fn);
      const posts = needs.includes(`sockets:${name}` as Need);
      const invokes = needs.includes(`invoke:${name}` as Need);
      // The socket function verifies X-Twilio-Signature over the wss URL and posts to @connections;
      // the webhook writes the URL into TwiML and warms the function up.
      expect(vars[env.url], fnName).toEqual(posts || invokes ? wss : undefined);
      expect(vars[env.connectionsUrl], fnName).toEqual(posts ? https : undefined);
      // Never on the socket function itself: its own name in its environment would be a circular reference.
      expect(vars[env.function], fnName).toEqual(invokes ? { Ref: logicalId(s.stack.sockets.functions[name].fn) } : undefined);
    }
    expect(variables(s.stack.sockets.functions[name])).toMatchObject({ APP_URL: expect.anything(), LOG_LEVEL: 'INFO', TABLE_NAME: expect.anything() });
  });

  it('keeps no provisioned concurrency by default (the opt-in context value is 0): no alias, API Gateway invokes the function', () => {
    expect(defaultParameters.voiceRelayProvisionedConcurrency).toBe(0);
    s.template.resourceCountIs('AWS::Lambda::Alias', 0);
    expect(s.stack.sockets.aliases).toEqual({});
  });

  it('outputs the wss URL of each socket API', () => {
    expect(s.template.toJSON().Outputs.VoiceRelayUrl).toMatchObject({
      Value: { 'Fn::Join': ['', ['wss://', apiRef('voice-relay'), '.execute-api.eu-west-1.', { Ref: 'AWS::URLSuffix' }, '/live']] },
    });
  });
});

describe('CloudFront', () => {
  const distribution = () => Object.values(resources('AWS::CloudFront::Distribution'))[0]?.Properties.DistributionConfig as Record<string, unknown>;

  it('serves the SPA from S3 through origin access control, with the rewrite function', () => {
    s.template.resourceCountIs('AWS::CloudFront::OriginAccessControl', 1);
    const config = distribution();
    const s3Origin = (config.Origins as Record<string, unknown>[]).find((o) => 'S3OriginConfig' in o);
    expect(s3Origin?.OriginAccessControlId).toBeDefined();
    const def = config.DefaultCacheBehavior as Record<string, unknown>;
    expect(def.TargetOriginId).toBe(s3Origin?.Id);
    expect(JSON.stringify(def.FunctionAssociations)).toContain('viewer-request');
    expect(config.DefaultRootObject).toBe('index.html');
    // API 4xx must not be turned into index.html.
    expect(config.CustomErrorResponses).toBeUndefined();
  });

  it('forwards /api/* to the HTTP API uncached, all methods, all viewer headers but Host', () => {
    const config = distribution();
    const api = (config.CacheBehaviors as Record<string, unknown>[]).find((b) => b.PathPattern === '/api/*');
    expect(api).toMatchObject({
      AllowedMethods: ['GET', 'HEAD', 'OPTIONS', 'PUT', 'PATCH', 'POST', 'DELETE'],
      CachePolicyId: '4135ea2d-6df8-44a3-9df3-4b5a84be39ad',
      OriginRequestPolicyId: 'b689b0a8-53d0-40ab-baf2-68738e2966ac',
      ViewerProtocolPolicy: 'https-only',
    });
    const apiOrigin = (config.Origins as Record<string, unknown>[]).find((o) => o.Id === api?.TargetOriginId);
    expect(JSON.stringify(apiOrigin?.DomainName)).toContain(logicalId(s.stack.api.httpApi));
  });

  it('guards /api/* with the API-key function generated from the manifest (viewer request)', () => {
    const config = distribution();
    const api = (config.CacheBehaviors as Record<string, unknown>[]).find((b) => b.PathPattern === '/api/*');
    const associations = api?.FunctionAssociations as { EventType: string; FunctionARN: unknown }[];
    expect(associations).toHaveLength(1);
    expect(associations[0]?.EventType).toBe('viewer-request');
    const [fnId] = Object.entries(resources('AWS::CloudFront::Function')).find(([, f]) => String(f.Properties.FunctionCode).includes('ALLOWED')) ?? [];
    expect(JSON.stringify(associations[0]?.FunctionARN)).toContain(fnId);
    expect(resources('AWS::CloudFront::Function')[fnId ?? '']?.Properties.FunctionCode).toBe(apiKeyGuardCode(routes));
  });

  it('the API-key guard lets keys through to userOrApiKey routes only and answers 403 routeNotAllowed elsewhere', () => {
    type Viewer = { method: string; uri: string; headers: Record<string, { value: string }> };
    const handler = new Function(`${apiKeyGuardCode(routes)}; return handler;`)() as (e: { request: Viewer }) => Viewer | { statusCode: number; body: { data: string } };
    const call = (method: string, uri: string, headers: Record<string, string>) =>
      handler({ request: { method, uri, headers: Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, { value: v }])) } });
    const key = { 'x-api-key': `ak_${'a'.repeat(43)}` };
    const bearerKey = { authorization: `Bearer ak_${'b'.repeat(43)}` };
    const jwt = { authorization: 'Bearer eyJhbGciOiJSUzI1NiJ9.e30.sig' };

    for (const route of routes) {
      const uri = route.path.replace(/\{[^}]+\}/g, '01J0000000000000000000000X');
      for (const headers of [key, bearerKey]) {
        const result = call(route.method, uri, headers);
        if (route.auth === 'userOrApiKey') expect(result, `${route.method} ${uri}`).toHaveProperty('uri', uri);
        else {
          expect(result, `${route.method} ${uri}`).toMatchObject({ statusCode: 403 });
          expect(JSON.parse((result as { body: { data: string } }).body.data)).toEqual({ success: false, message: apiKeyMessages.routeNotAllowed });
        }
      }
      // Without a key nothing changes (the token or the handler decides).
      expect(call(route.method, uri, jwt)).toHaveProperty('uri', uri);
      expect(call(route.method, uri, {})).toHaveProperty('uri', uri);
    }
    expect(call('GET', '/api/contacts/stats', key)).toMatchObject({ statusCode: 403 });
    expect(call('GET', '/api/voice-conversations/x/recording', key)).toMatchObject({ statusCode: 403 });
    expect(call('DELETE', '/api/contacts', key)).toMatchObject({ statusCode: 403 });
  });

  it('deploys the site with config.json carrying the Google client id', () => {
    s.template.resourceCountIs('Custom::CDKBucketDeployment', 2);
    expect(JSON.stringify(resources('Custom::CDKBucketDeployment'))).toContain('config.json');
  });

  it('passes the public URL to the functions as APP_URL', () => {
    const props = resources('AWS::Lambda::Function')[logicalId(s.stack.api.functions.account.fn)]?.Properties;
    const appUrl = (props?.Environment as { Variables: Record<string, unknown> }).Variables.APP_URL;
    expect(JSON.stringify(appUrl)).toContain(logicalId(s.stack.site.distribution));
  });
});

describe('Stripe configuration', () => {
  const variables = (fn: AppFunction) =>
    (resources('AWS::Lambda::Function')[logicalId(fn.fn)]?.Properties.Environment as { Variables: Record<string, unknown> })
      .Variables;

  const stripeGroups = () => groupNames.filter((name) => groupDef(name).needs.includes('stripe' as Need));

  it('puts no Stripe key in any function environment, not even as a dynamic reference', () => {
    for (const [id, fn] of Object.entries(resources('AWS::Lambda::Function'))) {
      const vars = (fn.Properties.Environment as { Variables?: Record<string, unknown> } | undefined)?.Variables ?? {};
      for (const name of ['STRIPE_SECRET_KEY', 'STRIPE_WEBHOOK_SECRET', 'STRIPE_PRICE_STARTER', 'STRIPE_PRICE_PROFESSIONAL', 'STRIPE_PRICE_ENTERPRISE']) {
        expect(vars[name], `${id} ${name}`).toBeUndefined();
      }
      expect(JSON.stringify(vars), id).not.toContain('resolve:secretsmanager');
    }
  });

  it('gives the functions that need Stripe the secret name and GetSecretValue on that one secret only', () => {
    expect(stripeGroups().length).toBeGreaterThan(0);
    for (const name of stripeGroups()) {
      const fn = s.stack.api.functions[name];
      expect(variables(fn).STRIPE_SECRET_ID, name).toBe('agentdesk/stripe');
      const statements = policyDocuments()
        .filter((p) => p.roles.includes(`"${logicalId(fn.role)}"`))
        .flatMap((p) => p.document.Statement)
        .filter((st) => JSON.stringify(st.Action).includes('secretsmanager:'));
      expect(statements, name).toHaveLength(1);
      expect(statements[0]!.Action).toBe('secretsmanager:GetSecretValue');
      // "-??????": Secrets Manager's random suffix of this one name, not "agentdesk/stripe*".
      expect(statements[0]!.Resource).toBe('arn:aws:secretsmanager:eu-west-1:123456789012:secret:agentdesk/stripe-??????');
    }
    // Functions without the need have neither (the Web Push functions read their own secret only: below).
    for (const [name, fn] of Object.entries(s.stack.api.functions)) {
      if (stripeGroups().includes(name as RouteGroupName)) continue;
      expect(variables(fn).STRIPE_SECRET_ID, name).toBeUndefined();
      expect([...actualCapabilities(fn)].some((c) => c.includes('secretsmanager:') && !c.startsWith('push-secret ') && !c.startsWith('google-calendar-secret ')), name).toBe(false);
    }
  });

  it('gives the Google Calendar functions (issue 30) the OAuth client secret name and GetSecretValue on that one secret only, and no client secret in the environment', () => {
    const googleFunctions: [string, AppFunction][] = [
      ...groupNames.filter((name) => groupDef(name).needs.includes('google-calendar' as Need)).map((name) => [name, s.stack.api.functions[name]] as [string, AppFunction]),
      ...workerNames.filter((q) => (workers[q].needs as readonly Need[]).includes('google-calendar')).map((q) => [q, s.stack.workers.functions[q]] as [string, AppFunction]),
    ];
    expect(googleFunctions.map(([name]) => name)).toContain('google-calendar');
    for (const [name, fn] of googleFunctions) {
      expect(variables(fn).GOOGLE_CALENDAR_SECRET_ID, name).toBe('agentdesk/google-calendar');
      // (The privacy-jobs worker also reads Stripe's: the account's deletion cancels its subscription.)
      const stripe = (groupNames.includes(name as RouteGroupName) ? groupDef(name as RouteGroupName).needs : workers[name as QueueName].needs).includes('stripe' as never);
      expect([...actualCapabilities(fn)].filter((c) => c.includes('secretsmanager:') && !c.startsWith('push-secret ')).sort(), name).toEqual(
        ['google-calendar-secret secretsmanager:GetSecretValue', ...(stripe ? ['stripe-secret secretsmanager:GetSecretValue'] : [])].sort(),
      );
    }
    for (const [id, fn] of Object.entries(resources('AWS::Lambda::Function'))) {
      const vars = (fn.Properties.Environment as { Variables?: Record<string, unknown> } | undefined)?.Variables ?? {};
      expect(vars.GOOGLE_CALENDAR_CLIENT_SECRET, id).toBeUndefined();
    }
  });

  it('gives the Web Push functions (issue 29) the VAPID secret name and GetSecretValue on that one secret only, and no key in the environment', () => {
    const pushFunctions: [string, AppFunction][] = [
      ...groupNames.filter((name) => groupDef(name).needs.includes('push-keys' as Need)).map((name) => [name, s.stack.api.functions[name]] as [string, AppFunction]),
      ...workerNames.filter((q) => (workers[q].needs as readonly Need[]).includes('push-keys')).map((q) => [q, s.stack.workers.functions[q]] as [string, AppFunction]),
    ];
    expect(pushFunctions.map(([name]) => name).sort()).toEqual(['notifications', 'web-push']);
    for (const [name, fn] of pushFunctions) {
      expect(variables(fn).PUSH_SECRET_ID, name).toBe('agentdesk/web-push');
      expect(variables(fn).VAPID_PRIVATE_KEY, name).toBeUndefined();
      expect([...actualCapabilities(fn)].filter((c) => c.includes('secretsmanager:')), name).toEqual(['push-secret secretsmanager:GetSecretValue']);
    }
    for (const [id, fn] of Object.entries(resources('AWS::Lambda::Function'))) {
      const vars = (fn.Properties.Environment as { Variables?: Record<string, unknown> } | undefined)?.Variables ?? {};
      for (const name of ['VAPID_PUBLIC_KEY', 'VAPID_PRIVATE_KEY', 'OUTBOUND_EXTRA_CA']) expect(vars[name], `${id} ${name}`).toBeUndefined();
    }
  });

  it('never enables the local billing mode in AWS: no fake Stripe endpoint, no local runtime', () => {
    for (const [id, fn] of Object.entries(resources('AWS::Lambda::Function'))) {
      const vars = (fn.Properties.Environment as { Variables?: Record<string, unknown> } | undefined)?.Variables ?? {};
      expect(vars.STRIPE_API_URL, id).toBeUndefined();
      expect(vars.RUNTIME ?? 'aws', id).toBe('aws');
    }
  });
});

// ---------------------------------------------------------------------------------------
// Edge hardening (issue 14, finding 10): per-route throttles, WAF, security headers.

describe('edge: per-route throttles', () => {
  type Settings = { ThrottlingRateLimit: number; ThrottlingBurstLimit: number };
  const stage = () => resources('AWS::ApiGatewayV2::Stage')[logicalId(s.stack.api.stage)]!;

  it('derives the class of every route from its auth kind: public sign-in routes, webhooks, the rest', () => {
    const byClass = (c: string) => routes.filter((r) => throttleClassOf(r) === c).map((r) => r.path);
    expect(byClass('public')).toEqual(expect.arrayContaining(['/api/login', '/api/register', '/api/refresh-token', '/api/send-verification', '/api/send-password-reset', '/api/reset-password']));
    expect(byClass('webhook').length).toBeGreaterThan(0);
    expect(byClass('webhook').every((p) => p.startsWith(WEBHOOK_PATH_PREFIX))).toBe(true);
    expect(byClass('app')).toEqual(expect.arrayContaining(['/api/me', '/api/agents', '/api/contacts']));
  });

  it('gives each public and webhook API Gateway route (greedy or not) its own bucket on the stage, the app routes the stage default', () => {
    const { app, public: tight, webhook } = defaultParameters.apiThrottle;
    const props = stage().Properties as { DefaultRouteSettings: Settings; RouteSettings: Record<string, Settings> };

    expect(props.DefaultRouteSettings).toMatchObject({ ThrottlingRateLimit: app.rateLimit, ThrottlingBurstLimit: app.burstLimit });
    const expected: Record<string, Settings> = {};
    const plan = routePlan();
    for (const r of routes) {
      const c = throttleClassOf(r);
      if (c === 'app') continue;
      const t = c === 'public' ? tight : webhook;
      // The API Gateway route that serves it is of its class.
      const served = plan.find((a) => a.serves.includes(routeKeyOf(r)))!;
      expect(served.throttle, routeKeyOf(r)).toBe(c);
      expected[served.key] = { ThrottlingRateLimit: t.rateLimit, ThrottlingBurstLimit: t.burstLimit };
    }
    expect(props.RouteSettings).toEqual(expected);
    expect(props.RouteSettings['POST /api/webhooks/twilio/{proxy+}']).toEqual({ ThrottlingRateLimit: webhook.rateLimit, ThrottlingBurstLimit: webhook.burstLimit });
    expect(props.RouteSettings['POST /api/login']).toEqual({ ThrottlingRateLimit: tight.rateLimit, ThrottlingBurstLimit: tight.burstLimit });
    // Tighter than the app default for sign-in, more generous for providers.
    expect(tight.rateLimit).toBeLessThan(app.rateLimit);
    expect(tight.burstLimit).toBeLessThan(app.burstLimit);
    expect(webhook.rateLimit).toBeGreaterThan(app.rateLimit);
  });

  it('creates the stage after the routes it names (CloudFormation rejects settings for an unknown route key)', () => {
    const routeIds = Object.entries(resources('AWS::ApiGatewayV2::Route'))
      .filter(([, r]) => (r.Properties.RouteKey as string) === 'POST /api/login' || String(r.Properties.RouteKey).startsWith(`POST ${WEBHOOK_PATH_PREFIX}stripe`))
      .map(([id]) => id);
    expect(routeIds).toHaveLength(2);
    expect(stage().DependsOn).toEqual(expect.arrayContaining(routeIds));
  });
});

describe('edge: WAF web ACL', () => {
  const edge = () => Template.fromStack(s.stack.edgeStack!);
  type Rule = {
    Name: string;
    Priority: number;
    Statement: { ManagedRuleGroupStatement?: { RuleActionOverrides?: unknown } & Record<string, unknown>; RateBasedStatement?: Record<string, unknown> };
    Action?: unknown;
    OverrideAction?: unknown;
  };
  const rules = () => (Object.values(edge().findResources('AWS::WAFv2::WebACL'))[0]!.Properties as { Rules: Rule[] }).Rules;

  it('lives in a us-east-1 companion stack (CLOUDFRONT scope) when the app stack is elsewhere', () => {
    expect(s.stack.region).toBe('eu-west-1');
    expect(s.stack.edgeStack?.region).toBe('us-east-1');
    expect(s.stack.edgeStack?.account).toBe('123456789012');
    edge().resourceCountIs('AWS::WAFv2::WebACL', 1);
    edge().hasResourceProperties('AWS::WAFv2::WebACL', { Scope: 'CLOUDFRONT', DefaultAction: { Allow: {} } });
    s.template.resourceCountIs('AWS::WAFv2::WebACL', 0);
  });

  it('runs the AWS common and known-bad-inputs rule groups, counting only the 8 KB body-size rule', () => {
    const common = rules().find((r) => r.Name === 'AWSManagedRulesCommonRuleSet');
    const badInputs = rules().find((r) => r.Name === 'AWSManagedRulesKnownBadInputsRuleSet');

    expect(common?.OverrideAction).toEqual({ None: {} });
    expect(common?.Statement.ManagedRuleGroupStatement).toMatchObject({ VendorName: 'AWS', Name: 'AWSManagedRulesCommonRuleSet' });
    expect(common?.Statement.ManagedRuleGroupStatement?.RuleActionOverrides).toEqual([{ Name: 'SizeRestrictions_BODY', ActionToUse: { Count: {} } }]);
    expect(COUNTED_COMMON_RULES).toEqual(['SizeRestrictions_BODY']);
    expect(badInputs?.OverrideAction).toEqual({ None: {} });
    expect(badInputs?.Statement.ManagedRuleGroupStatement).toEqual({ VendorName: 'AWS', Name: 'AWSManagedRulesKnownBadInputsRuleSet' });
  });

  it('blocks an IP over the rate limit per 5 minutes, webhooks left out', () => {
    const rate = rules().find((r) => r.Statement.RateBasedStatement);

    expect(rate?.Action).toEqual({ Block: {} });
    expect(rate?.Statement.RateBasedStatement).toMatchObject({
      AggregateKeyType: 'IP',
      Limit: defaultParameters.wafRatePerIpPer5Min,
      EvaluationWindowSec: 300,
      ScopeDownStatement: {
        NotStatement: { Statement: { ByteMatchStatement: { FieldToMatch: { UriPath: {} }, PositionalConstraint: 'STARTS_WITH', SearchString: '/api/webhooks/' } } },
      },
    });
    expect(new Set(rules().map((r) => r.Priority)).size).toBe(rules().length);
  });

  it('logs to an aws-waf-logs-* group with the credentials headers redacted', () => {
    edge().hasResourceProperties('AWS::Logs::LogGroup', { LogGroupName: Match.stringLikeRegexp('^aws-waf-logs-') });
    edge().hasResourceProperties('AWS::WAFv2::LoggingConfiguration', {
      RedactedFields: [{ SingleHeader: { Name: 'authorization' } }, { SingleHeader: { Name: 'x-api-key' } }],
    });
  });

  it('is attached to the distribution through a cross-region stack output', () => {
    const [dist] = Object.values(resources('AWS::CloudFront::Distribution'));
    const webAclId = JSON.stringify((dist!.Properties.DistributionConfig as { WebACLId?: unknown }).WebACLId);

    expect(webAclId).toContain('Fn::GetStackOutput');
    expect(webAclId).toContain('us-east-1');
  });

  it('is created in the app stack itself when that stack is in us-east-1', () => {
    const app = new App();
    const stack = new Stack(app, 'UsEast1', { env: { account: '123456789012', region: 'us-east-1' } });

    const placed = edgeWebAcl(stack, { ratePerIpPer5Min: 2000, logRetention: logs.RetentionDays.ONE_MONTH });

    expect(placed.edgeStack).toBeUndefined();
    expect(Stack.of(placed.waf)).toBe(stack);
    Template.fromStack(stack).hasResourceProperties('AWS::WAFv2::WebACL', { Scope: 'CLOUDFRONT' });
  });
});

describe('edge: security headers', () => {
  type Behaviour = { PathPattern?: string; ResponseHeadersPolicyId?: unknown };
  const distribution = () => Object.values(resources('AWS::CloudFront::Distribution'))[0]!.Properties.DistributionConfig as {
    DefaultCacheBehavior: Behaviour;
    CacheBehaviors: Behaviour[];
  };
  const policy = (construct: Parameters<typeof logicalId>[0]) =>
    (resources('AWS::CloudFront::ResponseHeadersPolicy')[logicalId(construct)]!.Properties.ResponseHeadersPolicyConfig as {
      SecurityHeadersConfig: Record<string, Record<string, unknown>>;
    }).SecurityHeadersConfig;

  it('puts the site policy on the SPA behaviour and the API policy on /api/*', () => {
    const api = distribution().CacheBehaviors.find((b) => b.PathPattern === '/api/*');

    expect(distribution().DefaultCacheBehavior.ResponseHeadersPolicyId).toEqual({ Ref: logicalId(s.stack.site.siteHeaders) });
    expect(api?.ResponseHeadersPolicyId).toEqual({ Ref: logicalId(s.stack.site.apiHeaders) });
  });

  it("sends the app's CSP (uploads bucket allowed, no framing), HSTS, nosniff, DENY and a referrer policy on the site", () => {
    const headers = policy(s.stack.site.siteHeaders);
    const csp = JSON.stringify(s.stack.resolve(headers.ContentSecurityPolicy!.ContentSecurityPolicy));

    expect(headers.ContentSecurityPolicy!.Override).toBe(true);
    for (const directive of ["default-src 'self'", "script-src 'self' https://accounts.google.com/gsi/client", "frame-ancestors 'none'", "object-src 'none'", "media-src 'self' blob:"]) {
      expect(csp).toContain(directive);
    }
    expect(csp).toContain('https://*.s3.eu-west-1.');
    expect(csp).not.toContain('unsafe-eval');
    expect(headers.StrictTransportSecurity).toEqual({ AccessControlMaxAgeSec: HSTS_MAX_AGE_SECONDS, IncludeSubdomains: true, Override: true });
    expect(headers.ContentTypeOptions).toEqual({ Override: true });
    expect(headers.FrameOptions).toEqual({ FrameOption: 'DENY', Override: true });
    expect(headers.ReferrerPolicy).toEqual({ ReferrerPolicy: 'strict-origin-when-cross-origin', Override: true });
  });

  it("gives API answers default-src 'none', HSTS, nosniff and no referrer", () => {
    const headers = policy(s.stack.site.apiHeaders);

    expect(headers.ContentSecurityPolicy).toEqual({ ContentSecurityPolicy: API_CONTENT_SECURITY_POLICY, Override: true });
    expect(API_CONTENT_SECURITY_POLICY).toBe("default-src 'none'; frame-ancestors 'none'");
    expect(headers.StrictTransportSecurity).toEqual({ AccessControlMaxAgeSec: HSTS_MAX_AGE_SECONDS, IncludeSubdomains: true, Override: true });
    expect(headers.ContentTypeOptions).toEqual({ Override: true });
    expect(headers.FrameOptions).toEqual({ FrameOption: 'DENY', Override: true });
    expect(headers.ReferrerPolicy).toEqual({ ReferrerPolicy: 'no-referrer', Override: true });
  });

  it('builds the site CSP from the one shared definition the local gateway also sends', () => {
    const csp = siteContentSecurityPolicy({ uploads: ['https://*.s3.eu-west-1.amazonaws.com'] });
    const headers = policy(s.stack.site.siteHeaders);
    const resolved = s.stack.resolve(headers.ContentSecurityPolicy!.ContentSecurityPolicy) as unknown;
    const flat = typeof resolved === 'string' ? resolved : ((resolved as { 'Fn::Join': [string, unknown[]] })['Fn::Join'][1] as unknown[]).map((p) => (typeof p === 'string' ? p : 'amazonaws.com')).join('');

    expect(flat).toBe(csp);
  });
});
