/**
 * A WebSocket API function for the local gateway's tests (functions/test/unit/local/sockets.test.ts):
 * it answers through the connection-posting API with the official SDK, the way the voice-relay
 * function does, at http://{domainName}/{stage} (https:// in AWS).
 *
 *   $connect      ?refuse=<status> refuses with that status; otherwise 200
 *   $default      {action:'echo', text, delayMs?} → posts {echo: text} after delayMs
 *                 {action:'get'} → posts the GetConnection answer
 *                 {action:'close'} → DeleteConnection
 *                 {action:'throw'} → the invocation fails
 *   $disconnect   posts to the gone connection and records the SDK's error
 *
 * Every event, and every post error, is recorded in `received` / `postErrors`.
 */
import {
  ApiGatewayManagementApiClient,
  DeleteConnectionCommand,
  GetConnectionCommand,
  PostToConnectionCommand,
} from '@aws-sdk/client-apigatewaymanagementapi';

export interface SocketEvent {
  headers?: Record<string, string>;
  multiValueHeaders?: Record<string, string[]>;
  queryStringParameters?: Record<string, string>;
  multiValueQueryStringParameters?: Record<string, string[]>;
  requestContext: Record<string, unknown> & { routeKey: string; connectionId: string; domainName: string; stage: string };
  body?: string;
  isBase64Encoded: boolean;
}

export const received: SocketEvent[] = [];
export const postErrors: { connectionId: string; name: string; status?: number }[] = [];

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function clientFor(event: SocketEvent): ApiGatewayManagementApiClient {
  return new ApiGatewayManagementApiClient({
    endpoint: `http://${event.requestContext.domainName}/${event.requestContext.stage}`,
    region: 'us-east-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
}

async function post(event: SocketEvent, data: unknown): Promise<void> {
  try {
    await clientFor(event).send(new PostToConnectionCommand({ ConnectionId: event.requestContext.connectionId, Data: JSON.stringify(data) }));
  } catch (error) {
    const e = error as { name: string; $metadata?: { httpStatusCode?: number } };
    postErrors.push({ connectionId: event.requestContext.connectionId, name: e.name, status: e.$metadata?.httpStatusCode });
  }
}

export async function handler(event: SocketEvent): Promise<{ statusCode: number; body?: string }> {
  received.push(event);
  const { routeKey, connectionId } = event.requestContext;
  if (routeKey === '$connect') {
    const refuse = Number(event.queryStringParameters?.refuse);
    return refuse ? { statusCode: refuse, body: 'refused' } : { statusCode: 200 };
  }
  if (routeKey === '$disconnect') {
    await post(event, { after: 'disconnect' });
    return { statusCode: 200 };
  }
  const message = JSON.parse(event.body ?? '{}') as { action?: string; text?: string; delayMs?: number };
  if (message.action === 'echo') {
    await sleep(message.delayMs ?? 0);
    await post(event, { echo: message.text });
  } else if (message.action === 'get') {
    const info = await clientFor(event).send(new GetConnectionCommand({ ConnectionId: connectionId }));
    await post(event, {
      connectedAt: info.ConnectedAt instanceof Date ? info.ConnectedAt.toISOString() : null,
      lastActiveAt: info.LastActiveAt instanceof Date ? info.LastActiveAt.toISOString() : null,
      sourceIp: info.Identity?.SourceIp,
    });
  } else if (message.action === 'close') {
    await clientFor(event).send(new DeleteConnectionCommand({ ConnectionId: connectionId }));
  } else if (message.action === 'throw') {
    throw new Error('boom (test)');
  }
  return { statusCode: 200 };
}
