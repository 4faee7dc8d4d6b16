/**
 * The WebSocket APIs' opt-in provisioned concurrency, on a small stack of its own (only the socket
 * functions are bundled): the default synthesis in stack.test.ts covers the "off" case.
 */
import { App, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import * as logs from 'aws-cdk-lib/aws-logs';
import { beforeAll, describe, expect, it } from 'vitest';
import { applyNeeds, type SharedResources } from '../lib/needs.js';
import { PROVISIONED_ALIAS_NAME, Sockets } from '../lib/sockets.js';
import { logicalId } from './support.js';

type Resource = { Type: string; Properties: Record<string, unknown> };

function socketsStack(provisioned: number): { stack: Stack; sockets: Sockets } {
  const app = new App();
  const stack = new Stack(app, 'Sockets', { env: { account: '123456789012', region: 'eu-west-1' } });
  const sockets = new Sockets(stack, 'Sockets', {
    logRetention: logs.RetentionDays.ONE_MONTH,
    throttle: { rateLimit: 100, burstLimit: 200 },
    provisionedConcurrency: { 'voice-relay': provisioned },
  });
  return { stack, sockets };
}

describe('voice-relay provisioned concurrency (context voiceRelayProvisionedConcurrency)', () => {
  let stack: Stack;
  let sockets: Sockets;
  let warmer: lambda.Function;
  let template: Template;
  const ofType = (type: string) => template.findResources(type) as Record<string, Resource>;

  beforeAll(() => {
    ({ stack, sockets } = socketsStack(3));
    // A function that needs invoke:voice-relay, as the incoming-call webhook does.
    warmer = new lambda.Function(stack, 'Warmer', {
      runtime: lambda.Runtime.NODEJS_22_X,
      handler: 'index.handler',
      code: lambda.Code.fromInline('export const handler = async () => {};'),
    });
    const env = applyNeeds(warmer, ['invoke:voice-relay'], { sockets: sockets.resources } as SharedResources);
    for (const [key, value] of Object.entries(env)) warmer.addEnvironment(key, value);
    template = Template.fromStack(stack);
  });

  it("keeps that many instances initialised on an alias 'live' of the function's current version", () => {
    const aliasId = logicalId(sockets.aliases['voice-relay']!);
    const fnId = logicalId(sockets.functions['voice-relay'].fn);
    const alias = ofType('AWS::Lambda::Alias')[aliasId];

    expect(Object.keys(ofType('AWS::Lambda::Alias'))).toEqual([aliasId]);
    expect(alias?.Properties).toMatchObject({
      Name: PROVISIONED_ALIAS_NAME,
      FunctionName: { Ref: fnId },
      ProvisionedConcurrencyConfig: { ProvisionedConcurrentExecutions: 3 },
    });
    const [versionId] = Object.keys(ofType('AWS::Lambda::Version'));
    expect(alias?.Properties.FunctionVersion).toEqual({ 'Fn::GetAtt': [versionId, 'Version'] });
  });

  it('has API Gateway invoke the alias (the provisioned instances), never the unqualified function', () => {
    const aliasId = logicalId(sockets.aliases['voice-relay']!);
    const integrations = Object.values(ofType('AWS::ApiGatewayV2::Integration'));
    const permissions = Object.values(ofType('AWS::Lambda::Permission'));

    expect(integrations).toHaveLength(3);
    for (const integration of integrations) expect(JSON.stringify(integration.Properties.IntegrationUri)).toContain(`{"Ref":"${aliasId}"}`);
    expect(permissions).toHaveLength(3);
    for (const permission of permissions) expect(permission.Properties.FunctionName).toEqual({ Ref: aliasId });
  });

  it('points the warm-up at the alias: its qualified name, InvokeFunction on the alias ARN only', () => {
    const aliasId = logicalId(sockets.aliases['voice-relay']!);
    const vars = (ofType('AWS::Lambda::Function')[logicalId(warmer)]?.Properties.Environment as { Variables: Record<string, unknown> }).Variables;
    const statements = Object.values(ofType('AWS::IAM::Policy'))
      .filter((p) => JSON.stringify(p.Properties.Roles).includes(logicalId(warmer.role!)))
      .flatMap((p) => (p.Properties.PolicyDocument as { Statement: { Action: unknown; Resource: unknown }[] }).Statement);

    expect(JSON.stringify(stack.resolve(vars.VOICE_RELAY_FUNCTION))).toMatch(new RegExp(`:${PROVISIONED_ALIAS_NAME}"\\]\\]\\}$`));
    expect(statements).toEqual([{ Action: 'lambda:InvokeFunction', Effect: 'Allow', Resource: { Ref: aliasId } }]);
  });

  it('refuses a negative or fractional instance count', () => {
    expect(() => socketsStack(-1)).toThrow(/whole number/);
    expect(() => socketsStack(1.5)).toThrow(/whole number/);
  });
});
