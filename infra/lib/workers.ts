/**
 * One SQS queue + dead-letter queue + consumer function per entry of the manifest's
 * `workers`. New workers in functions/src/routes.ts appear here with no infra change.
 */
import { Duration } from 'aws-cdk-lib';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import type * as logs from 'aws-cdk-lib/aws-logs';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import { Construct } from 'constructs';
import { DLQ_RETENTION_DAYS, QUEUE_RETENTION_DAYS, queueVisibilityTimeoutSeconds } from '../../functions/src/domain/retry.js';
import { workers, type QueueName, type WorkerDef } from '../../functions/src/routes.js';
import { AppFunction } from './app-function.js';
import { applyNeeds, type SharedResources } from './needs.js';

export const workerNames = Object.keys(workers) as QueueName[];

export function workerDef(name: QueueName): WorkerDef {
  return workers[name];
}

/**
 * Queues exist before any function, so any function (API or worker) can be granted `queue:<name>`.
 * Their visibility timeout, maxReceiveCount and retention go with the retry schedule (issue 34):
 * the table and the arithmetic are in functions/src/domain/retry.ts. A worker sets a failed
 * message's next receive itself (ChangeMessageVisibility, part of the event source's consume grant);
 * the visibility timeout paces only a try that died.
 */
export class Queues extends Construct {
  readonly queues = {} as Record<QueueName, sqs.Queue>;
  readonly deadLetterQueues = {} as Record<QueueName, sqs.Queue>;

  constructor(scope: Construct, id: string) {
    super(scope, id);
    for (const name of workerNames) {
      const def = workerDef(name);
      const dlq = new sqs.Queue(this, `${name}-dlq`, {
        encryption: sqs.QueueEncryption.SQS_MANAGED,
        enforceSSL: true,
        // A dead letter keeps its first enqueue time: about 13 days remain to redrive it.
        retentionPeriod: Duration.days(DLQ_RETENTION_DAYS),
      });
      // (No SQS3 finding: cdk-nag recognises a queue used as another queue's DLQ.)
      const queue = new sqs.Queue(this, name, {
        encryption: sqs.QueueEncryption.SQS_MANAGED,
        enforceSSL: true,
        // AWS guidance for Lambda consumers: six times the function timeout.
        visibilityTimeout: Duration.seconds(queueVisibilityTimeoutSeconds(def.timeout)),
        // Far beyond a message's longest stay (every try and the waits between them: under 9 hours).
        retentionPeriod: Duration.days(QUEUE_RETENTION_DAYS),
        deadLetterQueue: { queue: dlq, maxReceiveCount: def.maxReceiveCount },
      });
      new cloudwatch.Alarm(this, `${name}-dlq-alarm`, {
        alarmDescription: `Messages in the ${name} dead-letter queue: a ${name} message failed on every try (${def.maxReceiveCount} deliveries); redrive with aws sqs start-message-move-task (README)`,
        metric: dlq.metricApproximateNumberOfMessagesVisible({ period: Duration.minutes(5), statistic: 'Maximum' }),
        threshold: 0,
        comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
        evaluationPeriods: 1,
        treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
      });
      this.queues[name] = queue;
      this.deadLetterQueues[name] = dlq;
    }
  }
}

export interface WorkersProps {
  queues: Queues;
  resources: SharedResources;
  /** Variables every function gets (APP_URL, LOG_LEVEL). */
  baseEnvironment: Record<string, string>;
  logRetention: logs.RetentionDays;
}

export class Workers extends Construct {
  readonly functions = {} as Record<QueueName, AppFunction>;

  constructor(scope: Construct, id: string, props: WorkersProps) {
    super(scope, id);
    for (const name of workerNames) {
      const def = workerDef(name);
      const worker = new AppFunction(this, name, {
        entry: def.entry,
        description: `Worker ${name}: ${def.description}`,
        timeoutSeconds: def.timeout,
        memoryMb: def.memoryMb ?? 512,
        environment: {},
        logRetention: props.logRetention,
      });
      const env = { ...props.baseEnvironment, ...applyNeeds(worker.fn, def.needs, props.resources) };
      for (const [key, value] of Object.entries(env)) worker.fn.addEnvironment(key, value);
      worker.fn.addEventSource(
        new SqsEventSource(props.queues.queues[name], {
          batchSize: def.batchSize,
          reportBatchItemFailures: true,
        }),
      );
      this.functions[name] = worker;
    }
  }
}
