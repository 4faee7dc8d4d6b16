/**
 * Helpers for cdk-nag (AwsSolutions) acknowledgements. Every acknowledgement names the exact
 * finding and carries a reason; the infra tests fail on any finding without one.
 */
import { Stack, Validations } from 'aws-cdk-lib';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import type { IConstruct } from 'constructs';
// cdk-nag's own formatting of a resource in IAM5 finding ids ("<Logical.Arn>/index/*").
import { flattenCfnReference } from 'cdk-nag/lib/utils/flatten-cfn-reference.js';

/** The IAM5 finding id cdk-nag reports for a wildcard resource (token-aware). */
export function wildcardResourceFinding(scope: IConstruct, resource: string): string {
  return `AwsSolutions-IAM5[Resource::${flattenCfnReference(Stack.of(scope).resolve(resource))}]`;
}

/** Acknowledge one wildcard resource on a function's role policy, with the reason it is needed. */
export function acknowledgeWildcardResource(fn: lambda.IFunction, resource: string, reason: string): void {
  if (!fn.role) throw new Error(`${fn.node.path} has no role`);
  Validations.of(fn.role).acknowledge({ id: wildcardResourceFinding(fn, resource), reason });
}

/** The IAM5 finding id cdk-nag reports for a wildcard action ("kms:GenerateDataKey*"). */
export function wildcardActionFinding(action: string): string {
  return `AwsSolutions-IAM5[Action::${action}]`;
}

/** Acknowledge one wildcard action on a function's role policy, with the reason it is needed. */
export function acknowledgeWildcardAction(fn: lambda.IFunction, action: string, reason: string): void {
  if (!fn.role) throw new Error(`${fn.node.path} has no role`);
  Validations.of(fn.role).acknowledge({ id: wildcardActionFinding(action), reason });
}
