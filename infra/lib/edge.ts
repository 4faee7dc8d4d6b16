/**
 * The AWS WAF web ACL in front of CloudFront (site and /api/*): AWS managed rules, a per-IP
 * rate limit, and a lower one on the sign-in routes. A CLOUDFRONT-scope web ACL can
 * only be created in us-east-1, so `edgeWebAcl()` puts it in the app stack when that stack is in
 * us-east-1 (or region-agnostic, as in an offline synth) and otherwise in a small companion
 * stack pinned to us-east-1, whose ARN the app stack reads with a weak cross-region reference
 * (Fn::GetStackOutput, cdk.json "@aws-cdk/core:defaultCrossStackReferences": "weak").
 */
import { ArnFormat, Stack, Token, type StackProps } from 'aws-cdk-lib';
import * as logs from 'aws-cdk-lib/aws-logs';
import * as wafv2 from 'aws-cdk-lib/aws-wafv2';
import { Construct } from 'constructs';
import { TOO_MANY_SIGN_IN_REQUESTS } from '../../functions/src/domain/auth/throttle.js';
import { routes } from '../../functions/src/routes.js';
import { throttleClassOf } from './api.js';

export interface WebAclOptions {
  /** Requests per IP per 5 minutes before the rate rule blocks that IP (webhooks excluded). */
  ratePerIpPer5Min: number;
  /** Requests per IP per 5 minutes to the sign-in routes before they answer that IP 429; default SIGN_IN_RATE_PER_IP_PER_5_MIN. */
  signInRatePerIpPer5Min?: number;
  logRetention: logs.RetentionDays;
}

/**
 * The sign-in and code routes (the manifest's 'public' routes, API Gateway's 'public' throttle
 * class): login, register, Google sign-in, refresh, the code e-mails and the reset.
 */
export const SIGN_IN_PATHS: readonly string[] = routes.filter((r) => throttleClassOf(r) === 'public').map((r) => r.path);

/**
 * Sign-in requests per IP per 5 minutes (issue 28: one client sent 2,000 logins over 200
 * e-mails in 38 s). Far above a person's, or an office's, sign-ins and refreshes; the API's own
 * per-client failed-login limit (functions/src/domain/auth/throttle.ts) stands behind it.
 */
export const SIGN_IN_RATE_PER_IP_PER_5_MIN = 100;

const pathIs = (path: string): wafv2.CfnWebACL.StatementProperty => ({
  byteMatchStatement: { fieldToMatch: { uriPath: {} }, positionalConstraint: 'EXACTLY', searchString: path, textTransformations: [{ priority: 0, type: 'NONE' }] },
});

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
      customResponseBodies: {
        tooManySignIns: { contentType: 'APPLICATION_JSON', content: JSON.stringify({ success: false, message: TOO_MANY_SIGN_IN_REQUESTS }) },
      },
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
        {
          // Credential stuffing and code guessing from one address get a budget of their own,
          // far below RatePerIp's, answered like the API's own limits (429 + the JSON message).
          name: 'SignInRatePerIp',
          priority: 40,
          action: { block: { customResponse: { responseCode: 429, customResponseBodyKey: 'tooManySignIns' } } },
          statement: {
            rateBasedStatement: {
              aggregateKeyType: 'IP',
              limit: options.signInRatePerIpPer5Min ?? SIGN_IN_RATE_PER_IP_PER_5_MIN,
              evaluationWindowSec: 300,
              scopeDownStatement: SIGN_IN_PATHS.length === 1 ? pathIs(SIGN_IN_PATHS[0]!) : { orStatement: { statements: SIGN_IN_PATHS.map(pathIs) } },
            },
          },
          visibilityConfig: visibility('agentdesk-sign-in-rate-per-ip'),
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
