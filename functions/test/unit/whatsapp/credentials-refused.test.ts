/**
 * A person's reply when Meta refuses the token (issue 34 item 6): the reply channel throws a 400
 * naming the reason, with Meta's code and the reason key beside it, and reports the refusal once
 * per call; a send that works clears the flag the connection was read with.
 */
import { describe, expect, it } from 'vitest';
import { integrationHealthReasons, type IntegrationHealth } from '../../../src/contract/integration-health.js';
import type { WhatsAppConnection } from '../../../src/domain/whatsapp/integration.js';
import { GraphError, type GraphClient } from '../../../src/domain/whatsapp/ports.js';
import { CredentialsRefusedError, createWhatsAppReplyChannels } from '../../../src/domain/whatsapp/reply-channel.js';

const FLAG: IntegrationHealth = { status: 'needs_attention', reason: 'whatsapp_token_invalid', code: '190', since: '2026-11-20T09:00:00.000Z' };

function channels(send: GraphClient['sendText'], health?: IntegrationHealth) {
  const reports: string[] = [];
  const connection: WhatsAppConnection = {
    credentials: { bearerToken: 'token-1', businessId: 'biz-1', phoneId: '1055' },
    phoneNumber: '+15550100',
    integrationId: 'int-1',
    ...(health ? { health } : {}),
  };
  const replyChannels = createWhatsAppReplyChannels({
    connection: async () => connection,
    graph: { sendText: send, getPhoneNumber: async () => ({ id: '1055', displayPhoneNumber: '+1 555-0100', verifiedName: 'Test' }) },
    health: {
      failed: async (_u, error, current) => (reports.push(`failed ${(error as GraphError).code} (flagged: ${current?.reason ?? 'no'})`), undefined),
      recovered: async (_u, type, current) => void reports.push(`recovered ${type} ${current?.since ?? '-'}`),
    },
  });
  return { replyChannels, reports };
}

describe('a reply sent with a token Meta refuses', () => {
  it('is a 400 in words with Meta’s code and the reason key, and the refusal is reported', async () => {
    const { replyChannels, reports } = channels(async () => {
      throw new GraphError('auth', 'Error validating access token: Session has expired on Tuesday', 190);
    });
    const channel = await replyChannels.forUser('u1');

    const error = await channel!.sendText('34612345678', 'Hola').catch((e: unknown) => e);

    expect(error).toBeInstanceOf(CredentialsRefusedError);
    expect(error).toMatchObject({
      status: 400,
      message: integrationHealthReasons.whatsapp_token_invalid,
      details: { errorCode: '190', errorReason: 'whatsapp_token_invalid' },
    });
    expect(reports).toEqual(['failed 190 (flagged: no)']);
  });

  it('a send that works clears the flag read with the connection, once; a healthy one reports nothing', async () => {
    const flagged = channels(async () => ({ messageId: 'wamid.1' }), FLAG);
    const healthy = channels(async () => ({ messageId: 'wamid.2' }));
    const channel = await flagged.replyChannels.forUser('u1');

    await channel!.sendText('34612345678', 'Hola');
    await channel!.sendText('34612345678', 'Otra vez');
    await (await healthy.replyChannels.forUser('u1'))!.sendText('34612345678', 'Hola');

    expect(flagged.reports).toEqual([`recovered whatsapp-business ${FLAG.since}`]);
    expect(healthy.reports).toEqual([]);
  });

  it('other refusals stay as they were, unreported as credentials', async () => {
    const { replyChannels, reports } = channels(async () => {
      throw new GraphError('bad_request', 'Re-engagement message', 131047);
    });

    const error = await (await replyChannels.forUser('u1'))!.sendText('34612345678', 'Hola').catch((e: unknown) => e);

    expect(error).not.toBeInstanceOf(CredentialsRefusedError);
    expect(error).toMatchObject({ status: 400 });
    expect(reports).toEqual([]);
  });
});
