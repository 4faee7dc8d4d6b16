/**
 * Voice call seeding for the integration tests of the call logs and the call-summary worker:
 * finished calls written through the real DynamoCallRepository (the shapes the call loop
 * stores), and the call-summary queue message the call loop sends when a call ends.
 */
import { SendMessageCommand } from '@aws-sdk/client-sqs';
import { inject } from 'vitest';
import { DynamoCallRepository } from '../../src/adapters/dynamo/voice-calls.js';
import { VOICE_DEFAULTS, type CallTurn, type VoiceConversation } from '../../src/contract/voice.js';
import type { StoredCall } from '../../src/domain/voice/ports.js';
import { newId } from '../../src/lib/ids.js';
import { api } from './api.js';
import { tableName } from './api.js';
import { testDocumentClient, testSqsClient } from './stack-clients.js';
import { randomDigits } from './whatsapp.js';

let repo: DynamoCallRepository | undefined;
export const callRepo = () => (repo ??= new DynamoCallRepository(testDocumentClient(), tableName()));

export const userTurn = (content: string, confidence = 0.91, at = new Date().toISOString()): CallTurn => ({ role: 'user', content, at, confidence });
export const agentTurn = (content: string, at = new Date().toISOString()): CallTurn => ({ role: 'agent', content, at, confidence: null });

/** A fresh caller number (E.164, Spain mobile shape). */
export const callerNumber = () => `+346${randomDigits(8)}`;

/** Stores a finished call (status completed unless overridden) and returns it. */
export async function seedCall(userId: string, overrides: Partial<StoredCall> = {}): Promise<StoredCall> {
  const createdAt = overrides.createdAt ?? new Date().toISOString();
  const call: StoredCall = {
    id: newId(),
    userId,
    callSid: `CA${randomDigits(16)}${randomDigits(16)}`,
    status: 'completed',
    phoneNumber: callerNumber(),
    internalNumber: '+14155550100',
    contact: null,
    duration: 83_000,
    createdAt,
    endedAt: new Date(Date.parse(createdAt) + 83_000).toISOString(),
    voiceSettings: { name: 'Reception', description: 'Standard A — Spanish (Spain), clear standard voice', language: 'es-ES' },
    messages: [
      agentTurn('Hola, gracias por llamar. ¿En qué puedo ayudarle?'),
      userTurn('Hola, soy Ana García, quiero reservar una mesa para cuatro el viernes', 0.93),
      agentTurn('Claro, ¿a qué hora?'),
      userTurn('A las nueve, mi correo es ana@example.com', 0.88),
    ],
    summary: null,
    summaryStatus: 'pending',
    deliveries: [],
    agent: { _id: newId(), name: 'Reception' },
    escalated: false,
    settings: { ...VOICE_DEFAULTS },
    silences: 0,
    endedByUs: true,
    recording: null,
    billedMinutes: 2,
    conversationMode: 'gather',
    latency: null,
    endReason: 'goodbye',
    ...overrides,
  };
  const { call: stored } = await callRepo().create(call);
  return stored;
}

/** What the call loop sends on the first final status callback. */
export async function enqueueSummary(userId: string, callId: string): Promise<void> {
  const queueUrl = inject('queueUrls')['call-summary'];
  if (!queueUrl) throw new Error('no call-summary queue');
  await testSqsClient().send(new SendMessageCommand({ QueueUrl: queueUrl, MessageBody: JSON.stringify({ userId, callId }) }));
}

export async function getCall(token: string, id: string): Promise<VoiceConversation | undefined> {
  const res = await api<{ conversation: VoiceConversation }>('GET', `/api/voice-conversations/${id}`, { token });
  return res.body.data?.conversation;
}
