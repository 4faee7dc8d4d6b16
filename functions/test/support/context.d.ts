// Values the integration global setup (global-setup.ts) hands to every test via inject().
import 'vitest';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Gateway origin: API under /api, /config.json, /_local tools. */
    apiUrl: string;
    /** SES mailbox page; JSON at `${mailboxUrl}/store`. */
    mailboxUrl: string;
    dynamoEndpoint: string;
    tableName: string;
    cognitoEndpoint: string;
    /** `iss` of the tokens the gateway accepts: `${cognitoEndpoint}/${userPoolId}`. */
    cognitoIssuer: string;
    userPoolId: string;
    userPoolClientId: string;
    s3Endpoint: string;
    /** The S3 endpoint the app hands out (presigned URLs, the site CSP): the fault proxy in front of s3rver. */
    appS3Endpoint: string;
    uploadsBucket: string;
    sqsEndpoint: string;
    /** Queue name → queue URL on the local SQS endpoint. */
    queueUrls: Record<string, string>;
    googleClientId: string;
    /** The fake Google provider's private key (JSON string): tests mint Google ID tokens with it. */
    googlePrivateJwk: string;
    googleIssuer: string;
    /** GET: JSON list of dead-lettered messages (?queue= filters). */
    deadLettersUrl: string;
    /**
     * The gateway's fault proxy switches (`${apiUrl}/_local/faults`): the app reaches S3, SES and
     * DynamoDB through them, the provided endpoints above do not. Use support/faults.ts.
     */
    faultsUrl: string;
    /**
     * The fake Stripe (STRIPE_API_URL of the handlers): point the official SDK at it with
     * stripeClient() from fake-stripe-client.ts. Also serves /checkout/:id, /portal/:id and
     * the /_test control API.
     */
    stripeApiUrl: string;
    /** STRIPE_SECRET_KEY the handlers use ('sk_test_local_agentdesk'; the fake takes any sk_test_). */
    stripeSecretKey: string;
    /** STRIPE_WEBHOOK_SECRET: sign test events with Stripe.webhooks.generateTestHeaderString. */
    stripeWebhookSecret: string;
    /** JSON string {starter, professional, enterprise} → price id (STRIPE_PRICE_*). */
    stripePrices: string;
    /**
     * The fake OpenAI's origin: the handlers' OPENAI_BASE_URL is `${openaiUrl}/v1`; its control
     * API (/_test/script, /_test/requests, /_test/reset) is keyed by API key. Any "sk-" key works.
     */
    openaiUrl: string;
    /** The shared test web server (allow-listed for the outbound guard); use webFixtures() from web-fixtures.ts. */
    webFixturesUrl: string;
    /**
     * The fake WhatsApp Graph API's origin: the handlers' WHATSAPP_GRAPH_URL is `${whatsappGraphUrl}/v21.0`;
     * control API /_test/fail, /_test/sent?phoneId=, /_test/reset (see local/fake-whatsapp/README.md).
     */
    whatsappGraphUrl: string;
    /**
     * The fake Twilio REST API's origin (the handlers' TWILIO_API_URL): control API /_test/accounts
     * (register sid + token + numbers), /_test/numbers, /_test/fail, /_test/calls (play a call with
     * the call simulator), /_test/reset (see local/fake-twilio/server.ts).
     */
    twilioApiUrl: string;
    /**
     * The fake Web Push service's origin (https, issue 29) and its certificate (PEM): control API
     * /_test/subscriptions, /_test/messages, /_test/faults (use support/push.ts).
     */
    pushServiceUrl: string;
    pushServiceCa: string;
    /**
     * The fake Google OAuth + Calendar API's origin (issue 30; the handlers' GOOGLE_OAUTH_* and
     * GOOGLE_CALENDAR_API_URL): control API /_test/accounts, /_test/consent, /_test/busy,
     * /_test/events, /_test/requests, /_test/faults (see local/fake-google-calendar/server.ts).
     */
    googleCalendarUrl: string;
  }
}
