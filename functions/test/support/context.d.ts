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
  }
}
