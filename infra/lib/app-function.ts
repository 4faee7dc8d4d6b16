/**
 * One Lambda function built from a manifest entry: Node.js 22 on arm64, bundled locally
 * with esbuild (no Docker) using the shared settings in bundling.ts, its own role (no
 * managed policies: it may write only to its own log group) and a log group with retention.
 */
import fs from 'node:fs';
import path from 'node:path';
import { Duration, Validations } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import * as nodejs from 'aws-cdk-lib/aws-lambda-nodejs';
import * as logs from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { bundleSettings, defineFor, functionsDir, lockFile, repoRoot } from './bundling.js';

export interface AppFunctionProps {
  /** Handler module relative to functions/ (as in the manifest). */
  entry: string;
  /** Exported handler name. */
  handler?: string;
  description: string;
  timeoutSeconds: number;
  memoryMb: number;
  environment: Record<string, string>;
  logRetention: logs.RetentionDays;
}

export const cdkBundling: nodejs.BundlingOptions = {
  minify: bundleSettings.minify,
  sourceMap: bundleSettings.sourceMap,
  sourcesContent: bundleSettings.sourcesContent,
  target: bundleSettings.target,
  format: nodejs.OutputFormat.ESM,
  mainFields: bundleSettings.mainFields,
  banner: bundleSettings.banner,
  externalModules: bundleSettings.externalModules,
  define: bundleSettings.define,
  esbuildArgs: Object.fromEntries(
    Object.entries(bundleSettings.alias).map(([from, to]) => [`--alias:${from}`, to]),
  ),
  forceDockerBundling: false,
};

export function entryPath(entry: string): string {
  return path.join(functionsDir, entry);
}

export class AppFunction extends Construct {
  readonly fn: nodejs.NodejsFunction;
  readonly role: iam.Role;
  readonly logGroup: logs.LogGroup;

  constructor(scope: Construct, id: string, props: AppFunctionProps) {
    super(scope, id);
    const entry = entryPath(props.entry);
    if (!fs.existsSync(entry)) {
      throw new Error(
        `Lambda entry ${path.relative(repoRoot, entry)} (from functions/src/routes.ts) does not exist; ` +
          'create the handler module or remove the manifest entry',
      );
    }

    this.logGroup = new logs.LogGroup(this, 'Logs', {
      retention: props.logRetention,
    });
    this.role = new iam.Role(this, 'Role', {
      assumedBy: new iam.ServicePrincipal('lambda.amazonaws.com'),
      description: `${id}: ${props.description}`.slice(0, 1000),
    });
    this.logGroup.grantWrite(this.role);

    this.fn = new nodejs.NodejsFunction(this, 'Fn', {
      entry,
      handler: props.handler ?? 'handler',
      description: props.description.slice(0, 256),
      runtime: lambda.Runtime.NODEJS_22_X,
      architecture: lambda.Architecture.ARM_64,
      memorySize: props.memoryMb,
      timeout: Duration.seconds(props.timeoutSeconds),
      role: this.role,
      logGroup: this.logGroup,
      tracing: lambda.Tracing.ACTIVE,
      projectRoot: repoRoot,
      depsLockFilePath: lockFile,
      bundling: { ...cdkBundling, define: defineFor(props.entry) },
      environment: {
        NODE_OPTIONS: '--enable-source-maps',
        ...props.environment,
      },
    });

    Validations.of(this.fn).acknowledge({
      id: 'AwsSolutions-L1',
      reason:
        'Node.js 22 (LTS, supported by Lambda into 2027) is the runtime the project targets (esbuild target node22); moving to Node.js 24 is a deliberate upgrade once the dependencies are verified on it.',
    });
    Validations.of(this.role).acknowledge({
      id: 'AwsSolutions-IAM5[Resource::*]',
      reason:
        'Only the X-Ray statement added by active tracing (xray:PutTraceSegments, xray:PutTelemetryRecords) uses "*": these actions support no resource-level permissions. The infra tests check each role holds no other "*" resource.',
    });
  }
}
