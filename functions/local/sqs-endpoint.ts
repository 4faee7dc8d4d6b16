/**
 * A tiny SQS-compatible HTTP endpoint (AWS JSON 1.0 protocol, as @aws-sdk/client-sqs v3
 * speaks it), so the app's SQS publisher runs unchanged: SQS_ENDPOINT points here and the
 * QUEUE_URL_* values are `${endpoint}/000000000000/<queue>`. With an explicit endpoint the v3
 * client sends every call to it and only carries QueueUrl in the body
 * (middleware-sdk-sqs: useQueueUrlAsEndpoint applies only when no endpoint is configured).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { SQSMessageAttributes } from 'aws-lambda';
import { QueueOperationError, type SqsDispatcher } from './sqs-dispatcher.js';
import { IDLE_KEEP_ALIVE_MS } from './fake-http.js';

export const LOCAL_ACCOUNT_ID = '000000000000';
/** SQS's limit for one message body and for the bodies of one SendMessageBatch (256 KiB). */
export const MAX_MESSAGE_BYTES = 256 * 1024;

export function queueUrlFor(endpoint: string, queue: string): string {
  return `${endpoint}/${LOCAL_ACCOUNT_ID}/${queue}`;
}

interface WireAttribute {
  DataType?: string;
  StringValue?: string;
  BinaryValue?: string;
}

interface WireMessage {
  MessageBody?: string;
  DelaySeconds?: number;
  MessageAttributes?: Record<string, WireAttribute>;
  MessageGroupId?: string;
  MessageDeduplicationId?: string;
}

class SqsError extends Error {
  constructor(
    readonly type: string,
    message: string,
    readonly status = 400,
  ) {
    super(message);
  }
}

function toLambdaAttributes(attrs: Record<string, WireAttribute> | undefined): SQSMessageAttributes {
  const out: SQSMessageAttributes = {};
  for (const [name, a] of Object.entries(attrs ?? {})) {
    out[name] = {
      dataType: a.DataType ?? 'String',
      stringValue: a.StringValue,
      binaryValue: a.BinaryValue,
      stringListValues: [],
      binaryListValues: [],
    };
  }
  return out;
}

export function startSqsEndpoint(dispatcher: SqsDispatcher, port: number, host = '127.0.0.1'): Promise<{
  endpoint: string;
  server: Server;
  stop(): Promise<void>;
}> {
  const endpoint = `http://${host}:${port}`;

  const queueOf = (input: { QueueUrl?: string }): string => {
    const name = (input.QueueUrl ?? '').split('/').filter(Boolean).pop() ?? '';
    if (!dispatcher.hasQueue(name)) {
      throw new SqsError('com.amazonaws.sqs#QueueDoesNotExist', 'The specified queue does not exist.');
    }
    return name;
  };

  const sendOne = (queue: string, m: WireMessage) => {
    if (typeof m.MessageBody !== 'string' || m.MessageBody === '') {
      throw new SqsError('com.amazonaws.sqs#MissingParameter', 'The request must contain the parameter MessageBody.');
    }
    if (Buffer.byteLength(m.MessageBody) > MAX_MESSAGE_BYTES) {
      throw new SqsError('com.amazonaws.sqs#InvalidParameterValue', 'Message must be shorter than 262144 bytes.');
    }
    const { messageId, md5OfBody } = dispatcher.send(queue, {
      body: m.MessageBody,
      delaySeconds: m.DelaySeconds,
      messageAttributes: toLambdaAttributes(m.MessageAttributes),
      messageGroupId: m.MessageGroupId,
      messageDeduplicationId: m.MessageDeduplicationId,
    });
    return { MessageId: messageId, MD5OfMessageBody: md5OfBody };
  };

  const operations: Record<string, (input: Record<string, unknown>) => unknown> = {
    SendMessage: (input) => sendOne(queueOf(input), input as WireMessage),
    SendMessageBatch: (input) => {
      const queue = queueOf(input);
      const entries = (input.Entries ?? []) as (WireMessage & { Id: string })[];
      // SQS's request-level limits: 1–10 entries, distinct ids, 256 KB of bodies in all.
      if (entries.length === 0) throw new SqsError('com.amazonaws.sqs#EmptyBatchRequest', 'There should be at least one SendMessageBatchRequestEntry in the request.');
      if (entries.length > 10) throw new SqsError('com.amazonaws.sqs#TooManyEntriesInBatchRequest', `Maximum number of entries per request are 10. You have sent ${entries.length}.`);
      if (new Set(entries.map((e) => e.Id)).size !== entries.length) throw new SqsError('com.amazonaws.sqs#BatchEntryIdsNotDistinct', 'Two or more batch entries in the request have the same Id.');
      const total = entries.reduce((n, e) => n + Buffer.byteLength(e.MessageBody ?? ''), 0);
      if (total > MAX_MESSAGE_BYTES) throw new SqsError('com.amazonaws.sqs#BatchRequestTooLong', `Batch requests cannot be longer than ${MAX_MESSAGE_BYTES} bytes. You have sent ${total} bytes.`);
      const Successful: unknown[] = [];
      const Failed: unknown[] = [];
      for (const entry of entries) {
        try {
          Successful.push({ Id: entry.Id, ...sendOne(queue, entry) });
        } catch (error) {
          const e = error as SqsError;
          Failed.push({ Id: entry.Id, SenderFault: true, Code: e.type.split('#').pop(), Message: e.message });
        }
      }
      return { Successful, Failed };
    },
    GetQueueUrl: (input) => {
      const name = String(input.QueueName ?? '');
      if (!dispatcher.hasQueue(name)) {
        throw new SqsError('com.amazonaws.sqs#QueueDoesNotExist', 'The specified queue does not exist.');
      }
      return { QueueUrl: queueUrlFor(endpoint, name) };
    },
    // A worker's retry schedule (issue 34): the dispatcher honours it for the message in flight.
    ChangeMessageVisibility: (input) => {
      const queue = queueOf(input);
      if (typeof input.ReceiptHandle !== 'string' || input.ReceiptHandle === '') {
        throw new SqsError('com.amazonaws.sqs#MissingParameter', 'The request must contain the parameter ReceiptHandle.');
      }
      if (typeof input.VisibilityTimeout !== 'number') {
        throw new SqsError('com.amazonaws.sqs#MissingParameter', 'The request must contain the parameter VisibilityTimeout.');
      }
      dispatcher.changeVisibility(queue, input.ReceiptHandle, input.VisibilityTimeout);
      return {};
    },
    ListQueues: () => ({ QueueUrls: dispatcher.queueNames().map((q) => queueUrlFor(endpoint, q)) }),
    GetQueueAttributes: (input) => {
      const stats = dispatcher.stats()[queueOf(input)];
      return {
        Attributes: {
          ApproximateNumberOfMessages: String(stats?.pending ?? 0),
          ApproximateNumberOfMessagesNotVisible: String(stats?.inFlight ?? 0),
        },
      };
    },
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const reply = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/x-amz-json-1.0' });
      res.end(JSON.stringify(body));
    };
    try {
      const target = String(req.headers['x-amz-target'] ?? '');
      const operation = operations[target.replace(/^AmazonSQS\./, '')];
      if (req.method !== 'POST' || !operation) {
        throw new SqsError(
          'com.amazonaws.sqs#UnsupportedOperation',
          `The local SQS endpoint does not support ${target || 'this request'}.`,
        );
      }
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      const text = Buffer.concat(chunks).toString('utf8');
      reply(200, operation(text ? (JSON.parse(text) as Record<string, unknown>) : {}));
    } catch (error) {
      if (error instanceof SqsError) reply(error.status, { __type: error.type, message: error.message });
      else if (error instanceof QueueOperationError) reply(400, { __type: `com.amazonaws.sqs#${error.code}`, message: error.message });
      else reply(500, { __type: 'com.amazonaws.sqs#InternalError', message: 'Internal error' });
    }
  };

  const server = createServer((req, res) => void handle(req, res));
  server.keepAliveTimeout = IDLE_KEEP_ALIVE_MS; // longer than any client keeps an idle socket (fake-http.ts)
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () =>
      resolve({
        endpoint,
        server,
        stop: () =>
          new Promise<void>((done) => {
            server.closeAllConnections();
            server.close(() => done());
          }),
      }),
    );
  });
}

