/**
 * Synthesises the stack once per test file (bundling every function with esbuild takes a
 * few seconds each) with the same feature flags as cdk.json and a tiny stand-in for
 * frontend/dist, so the site deployment is covered without building the frontend.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { App, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { AwsSolutionsChecks } from 'cdk-nag';
import type { IConstruct } from 'constructs';
import { repoRoot } from '../lib/bundling.js';
import { AgentDeskStack, defaultParameters } from '../lib/stack.js';

export interface Synthesised {
  app: App;
  stack: AgentDeskStack;
  template: Template;
  /** cdk-nag AwsSolutions findings that are not acknowledged. */
  nagViolations: { ruleName: string; severity: string; paths: string[] }[];
  /** "path|id" of every acknowledgement that silenced at least one finding. */
  usedAcknowledgements: Set<string>;
  /** Removes the temporary cloud assembly and site folder. */
  cleanup(): void;
}

export function fakeSiteDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'agentdesk-site-'));
  fs.mkdirSync(path.join(dir, 'assets'));
  fs.writeFileSync(path.join(dir, 'index.html'), '<!doctype html><div id="root"></div>');
  fs.writeFileSync(path.join(dir, 'assets', 'index-abc123.js'), 'console.log(1)');
  return dir;
}

export function synthesise(): Synthesised {
  const cdkJson = JSON.parse(fs.readFileSync(path.join(repoRoot, 'cdk.json'), 'utf8')) as {
    context: Record<string, unknown>;
  };
  const outdir = fs.mkdtempSync(path.join(os.tmpdir(), 'agentdesk-cdk-'));
  const siteDir = fakeSiteDir();
  const app = new App({ context: cdkJson.context, outdir });
  const stack = new AgentDeskStack(app, 'AgentDesk', {
    env: { account: '123456789012', region: 'eu-west-1' },
    parameters: {
      ...defaultParameters,
      mailFrom: 'AgentDesk <hello@agentdesk.test>',
      googleClientId: 'google-client.apps.googleusercontent.com',
      whatsappUserIds: 'sub-1,sub-2',
      siteDir,
    },
  });
  const template = Template.fromStack(stack);
  const pack = new AwsSolutionsChecks(app);
  const usedAcknowledgements = recordUsedAcknowledgements(pack);
  const report = pack.validateScope(app);
  const nagViolations = report.violations.map((v) => ({
    ruleName: v.ruleName,
    severity: v.severity ?? '',
    paths: v.violatingResources.map((r) => r.constructPath ?? r.resourceLogicalId ?? r.templatePath ?? '?'),
  }));
  const cleanup = () => {
    for (const dir of [outdir, siteDir]) fs.rmSync(dir, { recursive: true, force: true });
  };
  return { app, stack, template, nagViolations, usedAcknowledgements, cleanup };
}

/**
 * Wraps the pack's (private) acknowledgement lookup to learn which acknowledgements actually
 * silence a finding, so stale or mistyped ones show up in the tests.
 */
function recordUsedAcknowledgements(pack: AwsSolutionsChecks): Set<string> {
  const used = new Set<string>();
  const target = pack as unknown as { isAcknowledged(node: IConstruct, ruleId: string): boolean };
  const original = target.isAcknowledged.bind(pack);
  target.isAcknowledged = (node, ruleId) => {
    const acknowledged = original(node, ruleId);
    if (acknowledged) {
      for (let c: IConstruct | undefined = node; c; c = c.node.scope) {
        const holder = acknowledgements(c, false).find((a) => a.id === ruleId);
        if (holder) {
          used.add(`${holder.path}|${ruleId}`);
          break;
        }
      }
    }
    return acknowledged;
  };
  return used;
}

/** Every acknowledgement recorded with Validations.of(x).acknowledge(), with its construct path. */
export function acknowledgements(root: IConstruct, deep = true): { path: string; id: string; reason: unknown }[] {
  const found: { path: string; id: string; reason: unknown }[] = [];
  for (const c of deep ? root.node.findAll() : [root]) {
    for (const entry of c.node.metadata) {
      if (entry.type !== 'aws:cdk:acknowledged-rules' || !entry.data) continue;
      for (const [id, reason] of Object.entries(entry.data as Record<string, unknown>)) {
        found.push({ path: c.node.path, id: id.replace(/^annotation::/i, ''), reason });
      }
    }
  }
  return found;
}

/** Logical id of a construct's CloudFormation resource. */
export function logicalId(construct: IConstruct): string {
  const child = construct.node.defaultChild ?? construct;
  return Stack.of(construct).getLogicalId(child as Parameters<Stack['getLogicalId']>[0]);
}
