/**
 * The AWS WAF web ACL in front of CloudFront (site and /api/*). A CLOUDFRONT-scope web ACL can
 * only be created in us-east-1, so `edgeWebAcl()` puts it in the app stack when that stack is in
 * us-east-1 (or region-agnostic, as in an offline synth) and otherwise in a small companion
 * stack pinned to us-east-1, whose ARN the app stack reads with a weak cross-region reference
 * (Fn::GetStackOutput, cdk.json "@aws-cdk/core:defaultCrossStackReferences": "weak").
 */
import { ArnFormat, Stack, Token, type StackProps } from 'aws-cdk-lib';
import * as logs from 'aws-cdk-lib/aws-logs';
import * as wafv2 from 'aws-cdk-lib/aws-wafv2';
import { Construct } from 'constructs';

export interface WebAclOptions {
  /** Requests per IP per 5 minutes before the rate rule blocks that IP (webhooks excluded). */
  ratePerIpPer5Min: number;
  logRetention: logs.RetentionDays;
}

/** Prefix of the paths the per-IP rate rule does not count (providers post from few IPs). */
export const WEBHOOK_PATH_PREFIX = '/api/webhooks/';

/**
 * Rules of AWSManagedRulesCommonRuleSet switched to count. SizeRestrictions_BODY blocks any
 * body over 8 KB, which legitimate requests exceed every day: multipart file uploads to
 * /api/agents/{id}/files, CSV contact imports, WhatsApp deliveries with several messages,
 * long agent prompts and tool definitions. API Gateway (10 MB) and the handlers' zod limits
 * bound bodies instead; the count keeps the rule's matches visible in metrics and logs.
 */
export const COUNTED_COMMON_RULES = ['SizeRestrictions_BODY'] as const;

const visibility = (metricName: string): wafv2.CfnWebACL.VisibilityConfigProperty => ({
  cloudWatchMetricsEnabled: true,
  metricName,
  sampledRequestsEnabled: true,
});

export class EdgeWebAcl extends Construct {
  readonly webAcl: wafv2.CfnWebACL;

  constructor(scope: Construct, id: string, options: WebAclOptions) {
    super(scope, id);

    this.webAcl = new wafv2.CfnWebACL(this, 'WebAcl', {
      scope: 'CLOUDFRONT',
      description: 'AgentDesk: AWS managed common + known-bad-inputs rules, per-IP rate limit',
      defaultAction: { allow: {} },
      visibilityConfig: visibility('agentdesk-web-acl'),
      rules: [
        {
          name: 'AWSManagedRulesCommonRuleSet',
          priority: 10,
          overrideAction: { none: {} },
          statement: {
            managedRuleGroupStatement: {
              vendorName: 'AWS',
              name: 'AWSManagedRulesCommonRuleSet',
              ruleActionOverrides: COUNTED_COMMON_RULES.map((name) => ({ name, actionToUse: { count: {} } })),
            },
          },
          visibilityConfig: visibility('agentdesk-common'),
        },
        {
          name: 'AWSManagedRulesKnownBadInputsRuleSet',
          priority: 20,
          overrideAction: { none: {} },
          statement: { managedRuleGroupStatement: { vendorName: 'AWS', name: 'AWSManagedRulesKnownBadInputsRuleSet' } },
          visibilityConfig: visibility('agentdesk-known-bad-inputs'),
        },
        {
          // Webhooks are left out: Meta, Twilio and Stripe deliver from a handful of IPs, are
          // signature-checked, and API Gateway throttles them in their own bucket (api.ts).
          name: 'RatePerIp',
          priority: 30,
          action: { block: {} },
          statement: {
            rateBasedStatement: {
              aggregateKeyType: 'IP',
              limit: options.ratePerIpPer5Min,
              evaluationWindowSec: 300,
              scopeDownStatement: {
                notStatement: {
                  statement: {
                    byteMatchStatement: {
                      fieldToMatch: { uriPath: {} },
                      positionalConstraint: 'STARTS_WITH',
                      searchString: WEBHOOK_PATH_PREFIX,
                      textTransformations: [{ priority: 0, type: 'NONE' }],
                    },
                  },
                },
              },
            },
          },
          visibilityConfig: visibility('agentdesk-rate-per-ip'),
        },
      ],
    });

    // WAF logs go only to log groups named aws-waf-logs-*; the Authorization header is redacted.
    const logGroup = new logs.LogGroup(this, 'Logs', {
      logGroupName: `aws-waf-logs-${Stack.of(this).stackName}`,
      retention: options.logRetention,
    });
    new wafv2.CfnLoggingConfiguration(this, 'Logging', {
      resourceArn: this.webAcl.attrArn,
      // The log group's ARN without the ":*" suffix logGroupArn carries.
      logDestinationConfigs: [
        Stack.of(this).formatArn({ service: 'logs', resource: 'log-group', resourceName: logGroup.logGroupName, arnFormat: ArnFormat.COLON_RESOURCE_NAME }),
      ],
      redactedFields: [{ singleHeader: { Name: 'authorization' } }, { singleHeader: { Name: 'x-api-key' } }],
    });
  }
}

/** The companion stack in us-east-1 holding the web ACL when the app stack is elsewhere. */
export class EdgeStack extends Stack {
  readonly waf: EdgeWebAcl;

  constructor(scope: Construct, id: string, props: StackProps & { webAcl: WebAclOptions }) {
    super(scope, id, props);
    this.waf = new EdgeWebAcl(this, 'Waf', props.webAcl);
  }
}

/**
 * The web ACL for the app stack's distribution: in the stack itself when it is in us-east-1
 * (or its region is unknown at synth time: `cdk deploy` always knows it), else in a companion
 * EdgeStack `${app stack id}-Edge` in us-east-1 of the same account.
 */
export function edgeWebAcl(appStack: Stack, options: WebAclOptions): { waf: EdgeWebAcl; edgeStack?: EdgeStack } {
  const region = appStack.region;
  if (Token.isUnresolved(region) || region === 'us-east-1') return { waf: new EdgeWebAcl(appStack, 'Waf', options) };
  const edgeStack = new EdgeStack(appStack.node.scope as Construct, `${appStack.node.id}-Edge`, {
    env: { account: Token.isUnresolved(appStack.account) ? undefined : appStack.account, region: 'us-east-1' },
    description: `AgentDesk WAF web ACL for the CloudFront distribution of ${appStack.stackName} (CLOUDFRONT scope lives in us-east-1)`,
    webAcl: options,
  });
  return { waf: edgeStack.waf, edgeStack };
}
