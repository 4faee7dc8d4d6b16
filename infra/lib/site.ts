/**
 * The public origin: a CloudFront distribution serving the built React app from a private
 * S3 bucket (origin access control) and forwarding /api/* to the HTTP API, so the browser
 * talks to ONE origin (no CORS) and webhook URLs are {site}/api/webhooks/...
 */
import fs from 'node:fs';
import path from 'node:path';
import { Duration, RemovalPolicy, Stack, Validations } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import type * as apigw from 'aws-cdk-lib/aws-apigatewayv2';
import * as acm from 'aws-cdk-lib/aws-certificatemanager';
import * as cloudfront from 'aws-cdk-lib/aws-cloudfront';
import * as origins from 'aws-cdk-lib/aws-cloudfront-origins';
import * as s3 from 'aws-cdk-lib/aws-s3';
import * as s3deploy from 'aws-cdk-lib/aws-s3-deployment';
import { Construct, type IConstruct } from 'constructs';
import { flattenCfnReference } from 'cdk-nag/lib/utils/flatten-cfn-reference.js';
import { routes, type RouteDef } from '../../functions/src/routes.js';
import {
  API_CONTENT_SECURITY_POLICY,
  HSTS_MAX_AGE_SECONDS,
  siteContentSecurityPolicy,
  type SiteCspSources,
} from '../../functions/src/http/security-headers.js';
import { apiKeyGuardCode } from './api-key-guard.js';

/** The installable app's files at fixed names (frontend/public, issue 29): never cached as immutable. */
export const SITE_ENTRY_FILES = ['sw.js', 'manifest.webmanifest'] as const;

/**
 * Viewer-request function on the SPA behaviour: any path whose last segment has no file
 * extension is a client-side route and gets /index.html. /api/* never reaches it (its own
 * behaviour), so API 4xx responses pass through untouched.
 */
export const spaRewriteCode = `function handler(event) {
  var request = event.request;
  var uri = request.uri;
  var last = uri.substring(uri.lastIndexOf('/') + 1);
  if (last.indexOf('.') === -1) request.uri = '/index.html';
  return request;
}`;

export interface CustomDomain {
  domainName: string;
  /** ACM certificate in us-east-1 covering domainName. */
  certificateArn: string;
}

export interface SiteProps {
  api: apigw.IHttpApi;
  logBucket: s3.IBucket;
  customDomain?: CustomDomain;
  /** What the site's CSP lets the app reach beyond its own origin (the uploads bucket). */
  cspSources: SiteCspSources;
  /** ARN of the CLOUDFRONT-scope WAF web ACL (edge.ts). */
  webAclArn: string;
}

export class Site extends Construct {
  readonly bucket: s3.Bucket;
  readonly distribution: cloudfront.Distribution;
  readonly siteHeaders: cloudfront.ResponseHeadersPolicy;
  readonly apiHeaders: cloudfront.ResponseHeadersPolicy;
  /** https://{distribution domain or custom domain}, no trailing slash. */
  readonly url: string;

  constructor(scope: Construct, id: string, props: SiteProps) {
    super(scope, id);
    const stack = Stack.of(this);

    this.bucket = new s3.Bucket(this, 'Bucket', {
      blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL,
      encryption: s3.BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      serverAccessLogsBucket: props.logBucket,
      serverAccessLogsPrefix: 'site/',
      // Rebuilt from the repository on every deploy.
      removalPolicy: RemovalPolicy.DESTROY,
    });

    const spaRewrite = new cloudfront.Function(this, 'SpaRewrite', {
      code: cloudfront.FunctionCode.fromInline(spaRewriteCode),
      runtime: cloudfront.FunctionRuntime.JS_2_0,
      comment: 'SPA fallback: extension-less paths -> /index.html',
    });

    // API keys reach only the public API routes: any other /api/* path answers 403 here.
    const apiKeyGuard = new cloudfront.Function(this, 'ApiKeyGuard', {
      code: cloudfront.FunctionCode.fromInline(apiKeyGuardCode(routes as readonly RouteDef[])),
      runtime: cloudfront.FunctionRuntime.JS_2_0,
      comment: "API keys only on the manifest's userOrApiKey routes (else 403)",
    });

    const apiOrigin = new origins.HttpOrigin(`${props.api.apiId}.execute-api.${stack.region}.${stack.urlSuffix}`, {
      protocolPolicy: cloudfront.OriginProtocolPolicy.HTTPS_ONLY,
      originSslProtocols: [cloudfront.OriginSslPolicy.TLS_V1_2],
    });

    // Security headers from functions/src/http/security-headers.ts (the local gateway sends the
    // same). override: true, so an origin can never weaken them.
    const hsts = {
      accessControlMaxAge: Duration.seconds(HSTS_MAX_AGE_SECONDS),
      includeSubdomains: true,
      override: true,
    };
    this.siteHeaders = new cloudfront.ResponseHeadersPolicy(this, 'SiteHeaders', {
      comment: 'AgentDesk site: CSP for the built app, HSTS, nosniff, no framing',
      securityHeadersBehavior: {
        contentSecurityPolicy: { contentSecurityPolicy: siteContentSecurityPolicy(props.cspSources), override: true },
        strictTransportSecurity: hsts,
        contentTypeOptions: { override: true },
        frameOptions: { frameOption: cloudfront.HeadersFrameOption.DENY, override: true },
        referrerPolicy: { referrerPolicy: cloudfront.HeadersReferrerPolicy.STRICT_ORIGIN_WHEN_CROSS_ORIGIN, override: true },
      },
    });
    this.apiHeaders = new cloudfront.ResponseHeadersPolicy(this, 'ApiHeaders', {
      comment: 'AgentDesk API: nothing loads from or frames an API answer; HSTS, nosniff',
      securityHeadersBehavior: {
        contentSecurityPolicy: { contentSecurityPolicy: API_CONTENT_SECURITY_POLICY, override: true },
        strictTransportSecurity: hsts,
        contentTypeOptions: { override: true },
        frameOptions: { frameOption: cloudfront.HeadersFrameOption.DENY, override: true },
        referrerPolicy: { referrerPolicy: cloudfront.HeadersReferrerPolicy.NO_REFERRER, override: true },
      },
    });

    const domain = props.customDomain;
    this.distribution = new cloudfront.Distribution(this, 'Distribution', {
      comment: 'AgentDesk: web app + /api',
      defaultRootObject: 'index.html',
      httpVersion: cloudfront.HttpVersion.HTTP2_AND_3,
      priceClass: cloudfront.PriceClass.PRICE_CLASS_100,
      enableLogging: true,
      logBucket: props.logBucket,
      logFilePrefix: 'cloudfront/',
      webAclId: props.webAclArn,
      ...(domain
        ? {
            domainNames: [domain.domainName],
            certificate: acm.Certificate.fromCertificateArn(this, 'Certificate', domain.certificateArn),
            minimumProtocolVersion: cloudfront.SecurityPolicyProtocol.TLS_V1_2_2021,
          }
        : {}),
      defaultBehavior: {
        origin: origins.S3BucketOrigin.withOriginAccessControl(this.bucket),
        viewerProtocolPolicy: cloudfront.ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
        cachePolicy: cloudfront.CachePolicy.CACHING_OPTIMIZED,
        responseHeadersPolicy: this.siteHeaders,
        compress: true,
        functionAssociations: [{ function: spaRewrite, eventType: cloudfront.FunctionEventType.VIEWER_REQUEST }],
      },
      additionalBehaviors: {
        '/api/*': {
          origin: apiOrigin,
          viewerProtocolPolicy: cloudfront.ViewerProtocolPolicy.HTTPS_ONLY,
          allowedMethods: cloudfront.AllowedMethods.ALLOW_ALL,
          cachePolicy: cloudfront.CachePolicy.CACHING_DISABLED,
          // Authorization, query string, body and provider signature headers reach the API;
          // Host must be the API's own for API Gateway to route the request.
          originRequestPolicy: cloudfront.OriginRequestPolicy.ALL_VIEWER_EXCEPT_HOST_HEADER,
          responseHeadersPolicy: this.apiHeaders,
          compress: true,
          functionAssociations: [{ function: apiKeyGuard, eventType: cloudfront.FunctionEventType.VIEWER_REQUEST }],
        },
      },
    });

    const acks = [
      {
        id: 'AwsSolutions-CFR1',
        reason: 'The product serves small businesses and their customers worldwide; no country is restricted.',
      },
    ];
    if (!domain) {
      acks.push({
        id: 'AwsSolutions-CFR4',
        reason:
          'Without a custom domain the distribution uses the default *.cloudfront.net certificate, whose TLS policy CloudFront fixes; with a custom domain the stack sets TLSv1.2_2021.',
      });
    }
    Validations.of(this.distribution).acknowledge(...acks);

    this.url = `https://${domain ? domain.domainName : this.distribution.distributionDomainName}`;
  }

  /**
   * Publish the built app (frontend/dist) plus /config.json. Hashed assets are cached for a
   * year; index.html, config.json and the installable app's unhashed entry files (the service
   * worker and the web manifest, issue 29: a cached old service worker would keep serving an old
   * shell) are revalidated on every load and published after the assets they reference. Old
   * assets are kept (prune: false) for tabs still running them.
   */
  deploy(distDir: string, config: Record<string, unknown>): void {
    const indexFile = path.join(distDir, 'index.html');
    const entryFiles = SITE_ENTRY_FILES.filter((name) => fs.existsSync(path.join(distDir, name)));
    const assets = new s3deploy.BucketDeployment(this, 'DeployAssets', {
      destinationBucket: this.bucket,
      sources: [s3deploy.Source.asset(distDir, { exclude: ['index.html', 'config.json', ...SITE_ENTRY_FILES] })],
      cacheControl: [s3deploy.CacheControl.fromString('public, max-age=31536000, immutable')],
      prune: false,
    });
    const entry = new s3deploy.BucketDeployment(this, 'DeployEntry', {
      destinationBucket: this.bucket,
      sources: [
        s3deploy.Source.data('index.html', fs.readFileSync(indexFile, 'utf8')),
        s3deploy.Source.jsonData('config.json', config),
        ...entryFiles.map((name) => s3deploy.Source.data(name, fs.readFileSync(path.join(distDir, name), 'utf8'))),
      ],
      cacheControl: [s3deploy.CacheControl.noCache()],
      prune: false,
      distribution: this.distribution,
      distributionPaths: ['/index.html', '/config.json', ...entryFiles.map((name) => `/${name}`)],
    });
    entry.node.addDependency(assets);

    // The deployment handler is a CDK-provided singleton Lambda created at stack level.
    const stack = Stack.of(this);
    for (const child of stack.node.children) {
      if (child.node.id.startsWith('Custom::CDKBucketDeployment')) acknowledgeBucketDeploymentHandler(child);
    }
  }
}

/**
 * The BucketDeployment handler is CDK's own construct (deploy-time only, runs when the site
 * is published): its runtime, managed policy and grants are set by aws-cdk-lib, not here.
 * Its IAM5 findings are acknowledged one by one, each with the reason that applies.
 */
function acknowledgeBucketDeploymentHandler(handler: IConstruct): void {
  const acks: { id: string; reason: string }[] = [
    {
      id: 'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole]',
      reason: 'CDK BucketDeployment handler (deploy-time only): CDK creates its role with the basic execution policy for its logs.',
    },
    {
      id: 'AwsSolutions-L1',
      reason: 'CDK BucketDeployment handler (deploy-time only): its runtime is chosen and maintained by aws-cdk-lib.',
    },
  ];
  const policy = handler.node.tryFindChild('ServiceRole')?.node.tryFindChild('DefaultPolicy');
  if (policy instanceof iam.Policy) {
    const doc = Stack.of(handler).resolve(policy.document.toJSON()) as { Statement?: unknown[] };
    for (const statement of (doc.Statement ?? []) as { Action: string | string[]; Resource: unknown }[]) {
      for (const action of [statement.Action].flat().filter((a) => a.includes('*'))) {
        acks.push({
          id: `AwsSolutions-IAM5[Action::${action}]`,
          reason: `CDK BucketDeployment handler: ${action} is part of the read/write action set CDK grants it to copy the site from the CDK asset bucket into the site bucket.`,
        });
      }
      for (const resource of [statement.Resource].flat()) {
        const flat = flattenCfnReference(resource);
        if (!flat.includes('*')) continue;
        acks.push({
          id: `AwsSolutions-IAM5[Resource::${flat}]`,
          reason:
            flat === '*'
              ? 'CDK BucketDeployment handler: CloudFront invalidation (cloudfront:CreateInvalidation/GetInvalidation) as granted by CDK.'
              : 'CDK BucketDeployment handler: objects of the site bucket and of the CDK asset bucket it copies from.',
        });
      }
    }
  }
  Validations.of(handler).acknowledge(...acks);
}
