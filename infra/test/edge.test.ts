/**
 * The WAF web ACL's sign-in rule (issue 28: one client sent 2,000 logins over 200 e-mails in
 * 38 s): synthesised alone in a us-east-1 stack (no function bundling, so this file is quick).
 */
import { App, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import * as logs from 'aws-cdk-lib/aws-logs';
import { describe, expect, it } from 'vitest';
import { TOO_MANY_SIGN_IN_REQUESTS } from '../../functions/src/domain/auth/throttle.js';
import { routes } from '../../functions/src/routes.js';
import { SIGN_IN_PATHS, SIGN_IN_RATE_PER_IP_PER_5_MIN, edgeWebAcl } from '../lib/edge.js';

type Statement = Record<string, unknown>;
interface WebAclProperties {
  Rules: { Name: string; Priority: number; Action?: unknown; Statement: { RateBasedStatement?: Statement } }[];
  CustomResponseBodies?: Record<string, { ContentType: string; Content: string }>;
}

function webAcl(signInRatePerIpPer5Min?: number): WebAclProperties {
  const stack = new Stack(new App(), 'Edge', { env: { account: '123456789012', region: 'us-east-1' } });
  edgeWebAcl(stack, { ratePerIpPer5Min: 2000, logRetention: logs.RetentionDays.ONE_MONTH, ...(signInRatePerIpPer5Min ? { signInRatePerIpPer5Min } : {}) });
  return Object.values(Template.fromStack(stack).findResources('AWS::WAFv2::WebACL'))[0]!.Properties as WebAclProperties;
}

describe('edge: the sign-in rate rule', () => {
  it('answers an IP over 100 sign-in requests in 5 minutes 429 with the API-style JSON message', () => {
    const acl = webAcl();
    const rule = acl.Rules.find((r) => r.Name === 'SignInRatePerIp');

    expect(rule?.Action).toEqual({ Block: { CustomResponse: { ResponseCode: 429, CustomResponseBodyKey: 'tooManySignIns' } } });
    expect(rule?.Statement.RateBasedStatement).toMatchObject({ AggregateKeyType: 'IP', Limit: SIGN_IN_RATE_PER_IP_PER_5_MIN, EvaluationWindowSec: 300 });
    expect(SIGN_IN_RATE_PER_IP_PER_5_MIN).toBe(100);
    expect(acl.CustomResponseBodies?.tooManySignIns).toEqual({
      ContentType: 'APPLICATION_JSON',
      Content: JSON.stringify({ success: false, message: TOO_MANY_SIGN_IN_REQUESTS }),
    });
    // Its own priority, and the general per-IP rule is still there.
    expect(new Set(acl.Rules.map((r) => r.Priority)).size).toBe(acl.Rules.length);
    expect(acl.Rules.map((r) => r.Name)).toContain('RatePerIp');
  });

  it("counts exactly the manifest's sign-in and code routes (login among them), nothing else", () => {
    const scope = webAcl().Rules.find((r) => r.Name === 'SignInRatePerIp')?.Statement.RateBasedStatement?.ScopeDownStatement as {
      OrStatement: { Statements: { ByteMatchStatement: { FieldToMatch: unknown; PositionalConstraint: string; SearchString: string } }[] };
    };
    const matched = scope.OrStatement.Statements.map((s) => s.ByteMatchStatement);

    expect(matched.every((m) => m.PositionalConstraint === 'EXACTLY' && JSON.stringify(m.FieldToMatch) === '{"UriPath":{}}')).toBe(true);
    expect(matched.map((m) => m.SearchString).sort()).toEqual([...SIGN_IN_PATHS].sort());
    expect(SIGN_IN_PATHS).toEqual(expect.arrayContaining(['/api/login', '/api/register', '/api/google-auth', '/api/reset-password', '/api/send-password-reset']));
    expect(SIGN_IN_PATHS).toEqual(routes.filter((r) => r.auth === 'public').map((r) => r.path));
  });

  it('takes another limit when one is given', () => {
    const rule = webAcl(300).Rules.find((r) => r.Name === 'SignInRatePerIp');
    expect(rule?.Statement.RateBasedStatement).toMatchObject({ Limit: 300 });
  });
});
