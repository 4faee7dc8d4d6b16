/**
 * One function + one EventBridge rule (rate(n minutes)) per entry of the manifest's `schedules`
 * (functions/src/routes.ts). The function gets exactly the grants of its needs; the rule is its
 * only trigger (EventBridge retries a failed invocation twice, then drops it: the next run
 * comes minutes later and redoes the same work).
 */
import { Duration } from 'aws-cdk-lib';
import * as events from 'aws-cdk-lib/aws-events';
import * as targets from 'aws-cdk-lib/aws-events-targets';
import type * as logs from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { schedules, type ScheduleDef, type ScheduleName } from '../../functions/src/routes.js';
import { AppFunction } from './app-function.js';
import { applyNeeds, type SharedResources } from './needs.js';

export const scheduleNames = Object.keys(schedules) as ScheduleName[];

export function scheduleDef(name: ScheduleName): ScheduleDef {
  return schedules[name];
}

export interface SchedulesProps {
  resources: SharedResources;
  /** Variables every function gets (APP_URL, LOG_LEVEL). */
  baseEnvironment: Record<string, string>;
  logRetention: logs.RetentionDays;
}

export class Schedules extends Construct {
  readonly functions = {} as Record<ScheduleName, AppFunction>;
  readonly rules = {} as Record<ScheduleName, events.Rule>;

  constructor(scope: Construct, id: string, props: SchedulesProps) {
    super(scope, id);
    for (const name of scheduleNames) {
      const def = scheduleDef(name);
      const fn = new AppFunction(this, name, {
        entry: def.entry,
        description: `Schedule ${name} (every ${def.rateMinutes} min): ${def.description}`,
        timeoutSeconds: def.timeout,
        memoryMb: def.memoryMb ?? 512,
        environment: {},
        logRetention: props.logRetention,
      });
      const env = { ...props.baseEnvironment, ...applyNeeds(fn.fn, def.needs, props.resources) };
      for (const [key, value] of Object.entries(env)) fn.fn.addEnvironment(key, value);
      this.rules[name] = new events.Rule(this, `${name}-rule`, {
        description: `Runs ${name} every ${def.rateMinutes} minutes`,
        schedule: events.Schedule.rate(Duration.minutes(def.rateMinutes)),
        targets: [new targets.LambdaFunction(fn.fn, { retryAttempts: 2, maxEventAge: Duration.minutes(def.rateMinutes) })],
      });
      this.functions[name] = fn;
    }
  }
}
