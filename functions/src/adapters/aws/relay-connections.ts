/**
 * Posting to ConversationRelay connections through API Gateway's connection-posting API
 * (@connections): PostToConnection for each frame, DeleteConnection to close. The endpoint is
 * VOICE_RELAY_CONNECTIONS_URL (https://{api}.execute-api.{region}.amazonaws.com/{stage} in AWS,
 * the local gateway's /_ws/voice-relay locally). 410 Gone = the caller hung up: not an error.
 */
import { ApiGatewayManagementApiClient, DeleteConnectionCommand, PostToConnectionCommand } from '@aws-sdk/client-apigatewaymanagementapi';
import type { RelayOutboundFrame } from '../../contract/voice-relay.js';
import type { RelayConnections } from '../../domain/voice/relay/ports.js';

const isGone = (error: unknown): boolean => {
  const e = error as { name?: string; $metadata?: { httpStatusCode?: number } } | null;
  return e?.name === 'GoneException' || e?.$metadata?.httpStatusCode === 410;
};

export class ApiGatewayRelayConnections implements RelayConnections {
  private readonly encoder = new TextEncoder();

  constructor(private readonly client: ApiGatewayManagementApiClient) {}

  async post(connectionId: string, frame: RelayOutboundFrame): Promise<boolean> {
    try {
      await this.client.send(new PostToConnectionCommand({ ConnectionId: connectionId, Data: this.encoder.encode(JSON.stringify(frame)) }));
      return true;
    } catch (error) {
      if (isGone(error)) return false;
      throw error;
    }
  }

  async close(connectionId: string): Promise<void> {
    try {
      await this.client.send(new DeleteConnectionCommand({ ConnectionId: connectionId }));
    } catch (error) {
      if (!isGone(error)) throw error;
    }
  }
}

export function relayConnectionsClient(endpoint: string, region: string): ApiGatewayManagementApiClient {
  // '' = not deployed: the client is still built (frames then fail to post and are logged).
  return new ApiGatewayManagementApiClient({ endpoint: endpoint || undefined, region });
}
