/** WhatsApp as the conversations' reply channel: who sends, what is sent, and Graph failures as the user reads them. */
import { describe, expect, it } from 'vitest';
import { whatsappMessages } from '../../../src/contract/whatsapp.js';
import { DomainError, ServiceUnavailableError } from '../../../src/domain/errors.js';
import type { WhatsAppConnection } from '../../../src/domain/whatsapp/integration.js';
import { GraphError, type GraphClient, type WhatsAppCredentials } from '../../../src/domain/whatsapp/ports.js';
import { createWhatsAppReplyChannels, graphFailure } from '../../../src/domain/whatsapp/reply-channel.js';

describe('graphFailure', () => {
  it.each([
    [new GraphError('auth', 'Invalid OAuth access token', 190), 400, whatsappMessages.graphAuthFailed],
    [new GraphError('not_found', 'Object does not exist', 100), 400, whatsappMessages.graphPhoneNotFound],
    [new GraphError('bad_request', 'Re-engagement message', 131047), 400, whatsappMessages.windowClosed],
    [new GraphError('bad_request', 'Recipient phone number not in allowed list', 131030), 400, 'Recipient phone number not in allowed list'],
    [new GraphError('rate_limit', 'Too many messages', 130429), 429, 'Too many messages'],
    [new GraphError('unavailable', 'Something went wrong', 131000), 503, whatsappMessages.graphTemporarilyUnavailable],
    [new GraphError('unavailable', 'WhatsApp could not be reached'), 503, whatsappMessages.graphTemporarilyUnavailable],
    [new GraphError('unavailable', 'WhatsApp did not answer in time', undefined, { deliveryUnknown: true }), 504, whatsappMessages.deliveryUnknown],
  ])('%s → %i', (error, status, message) => {
    const failure = graphFailure(error);
    expect(failure.status).toBe(status);
    expect(failure.message).toBe(message);
  });
});

describe('graphFailure: WhatsApp unavailable for now (issue 34)', () => {
  it("is a 503 with Meta's code beside it and its Retry-After", () => {
    const failure = graphFailure(new GraphError('unavailable', 'Service temporarily unavailable', 2, { retryAfterSeconds: 30 }));

    expect(failure).toBeInstanceOf(ServiceUnavailableError);
    expect(failure).toMatchObject({ status: 503, retryAfterSeconds: 30, details: { errorCode: '2' }, message: whatsappMessages.graphTemporarilyUnavailable });
  });
});

describe('createWhatsAppReplyChannels', () => {
  const CONNECTION: WhatsAppConnection = {
    credentials: { bearerToken: 'token-1', businessId: 'biz-1', phoneId: '1055' },
    phoneNumber: '+15550100',
    integrationId: 'int-1',
  };
  function graphThat(send: (credentials: WhatsAppCredentials, to: string, text: string) => Promise<{ messageId: string }>): GraphClient {
    return { sendText: send, getPhoneNumber: async () => ({ id: '1055', displayPhoneNumber: '+1 555-0100', verifiedName: 'Test' }) };
  }

  it('is null when the user has no active WhatsApp connection', async () => {
    const channels = createWhatsAppReplyChannels({ connection: async () => null, graph: graphThat(async () => ({ messageId: 'x' })) });

    expect(await channels.forUser('u1')).toBeNull();
  });

  it('sends from the business number with the opened credentials and answers Meta’s message id', async () => {
    const sent: unknown[] = [];
    const graph = graphThat(async (credentials, to, text) => {
      sent.push({ credentials, to, text });
      return { messageId: 'wamid.1' };
    });
    const channel = await createWhatsAppReplyChannels({ connection: async () => CONNECTION, graph }).forUser('u1');

    const result = await channel!.sendText('34612345678', 'Hola');

    expect(channel).toMatchObject({ phoneNumber: '+15550100', phoneNumberId: '1055' });
    expect(result).toEqual({ messageId: 'wamid.1' });
    expect(sent).toEqual([{ credentials: CONNECTION.credentials, to: '34612345678', text: 'Hola' }]);
  });

  it('throws a Graph failure as the DomainError the user reads, and anything else unchanged', async () => {
    const refusing = await createWhatsAppReplyChannels({
      connection: async () => CONNECTION,
      graph: graphThat(async () => {
        throw new GraphError('bad_request', 'Re-engagement message', 131047);
      }),
    }).forUser('u1');
    const crash = new TypeError('fetch failed');
    const crashing = await createWhatsAppReplyChannels({
      connection: async () => CONNECTION,
      graph: graphThat(async () => {
        throw crash;
      }),
    }).forUser('u1');

    const refused = await refusing!.sendText('34612345678', 'Hola').catch((e: unknown) => e);
    const crashed = await crashing!.sendText('34612345678', 'Hola').catch((e: unknown) => e);

    expect(refused).toBeInstanceOf(DomainError);
    expect(refused).toMatchObject({ status: 400, message: whatsappMessages.windowClosed });
    expect(crashed).toBe(crash);
  });
});
