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

/**
 * A function's role that keeps its grants inline (the role's own `Policies`) instead of in a
 * separate AWS::IAM::Policy: one CloudFormation resource less per function (44 of them), so the
 * stack keeps room under CloudFormation's 500 resources per stack as routes and workers come.
 * Every grant still goes through addToPrincipalPolicy (table.grantReadData, queue grants,
 * fn.addToRolePolicy, X-Ray), and the role's inline policies share IAM's 10,240-character limit
 * exactly as the separate policy (an inline policy too) did.
 */
export class InlineGrantsRole extends iam.Role {
  private readonly inlineGrants: iam.PolicyDocument;

  constructor(scope: Construct, id: string, props: iam.RoleProps) {
    const grants = new iam.PolicyDocument();
    super(scope, id, { ...props, inlinePolicies: { ...props.inlinePolicies, grants } });
    this.inlineGrants = grants;
  }

  override addToPrincipalPolicy(statement: iam.PolicyStatement): iam.AddToPrincipalPolicyResult {
    this.inlineGrants.addStatements(statement);
    // Whatever must wait for the grant (an event source mapping) waits for the role itself.
    return { statementAdded: true, policyDependable: this };
  }
}

export function entryPath(entry: string): string {
  return path.join(functionsDir, entry);
}

export class AppFunction extends Construct {
  readonly fn: nodejs.NodejsFunction;
  readonly role: InlineGrantsRole;
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
    this.role = new InlineGrantsRole(this, 'Role', {
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
