/**
 * Cognito: the user pool and the app's client. Users are created by the API (AdminCreateUser
 * after the e-mail code check), sign in with their e-mail, and Google sign-in runs the
 * CUSTOM_AUTH flow through the three triggers in the manifest's `cognitoTriggers`. The
 * pre-token-generation trigger (`preTokenTrigger`, event V2_0: the Essentials plan's access-token
 * customisation) puts each person's account and role in their tokens (issue 32).
 */
import { Duration, RemovalPolicy, Validations } from 'aws-cdk-lib';
import * as cognito from 'aws-cdk-lib/aws-cognito';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as iam from 'aws-cdk-lib/aws-iam';
import type * as logs from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { PASSWORD_RULE, SESSION_TOKENS } from '../../functions/src/contract/auth.js';
import { personPk } from '../../functions/src/adapters/dynamo/memberships.js';
import { userPk } from '../../functions/src/adapters/dynamo/keys.js';
import { cognitoTriggers, preTokenTrigger } from '../../functions/src/routes.js';
import { AppFunction } from './app-function.js';
import { acknowledgeWildcardAction } from './nag.js';
import { tableKeyReadActions, tableKeyReason, tableKeyWildcardActions, tableKeyWriteActions } from './needs.js';

export interface AuthProps {
  /** The app's table: the pre-token trigger reads membership pointers and logs sign-ins. */
  table: dynamodb.ITable;
  googleClientId: string;
  logLevel: string;
  logRetention: logs.RetentionDays;
}

export class Auth extends Construct {
  readonly userPool: cognito.UserPool;
  readonly client: cognito.UserPoolClient;
  readonly triggers: Record<keyof typeof cognitoTriggers.handlers, AppFunction>;
  readonly preToken: AppFunction;

  constructor(scope: Construct, id: string, props: AuthProps) {
    super(scope, id);

    // One module, three exported handlers: one function per trigger.
    const trigger = (name: keyof typeof cognitoTriggers.handlers) =>
      new AppFunction(this, `Trigger-${name}`, {
        entry: cognitoTriggers.entry,
        handler: cognitoTriggers.handlers[name],
        description: `Cognito ${name} trigger (Google sign-in, CUSTOM_AUTH)`,
        timeoutSeconds: 5,
        memoryMb: 256,
        // No APP_URL: the triggers build no links, and leaving it out keeps the pool free of
        // a dependency on the CloudFront distribution.
        environment: { GOOGLE_CLIENT_ID: props.googleClientId, LOG_LEVEL: props.logLevel },
        logRetention: props.logRetention,
      });
    this.triggers = {
      defineAuthChallenge: trigger('defineAuthChallenge'),
      createAuthChallenge: trigger('createAuthChallenge'),
      verifyAuthChallengeResponse: trigger('verifyAuthChallengeResponse'),
    };

    // Issue 32: runs at every sign-in and refresh. Narrower than the table Needs: one GetItem of
    // the person's pointer (PERSON#…/MEMBERSHIP) and one PutItem of the sign-in's activity entry
    // (USER#…), each limited to its partition prefix.
    this.preToken = new AppFunction(this, 'Trigger-preTokenGeneration', {
      entry: preTokenTrigger.entry,
      description: preTokenTrigger.description,
      timeoutSeconds: preTokenTrigger.timeoutSeconds,
      memoryMb: 256,
      environment: { TABLE_NAME: props.table.tableName, LOG_LEVEL: props.logLevel },
      logRetention: props.logRetention,
    });
    this.preToken.fn.addToRolePolicy(leadingKeys(['dynamodb:GetItem'], props.table, `${personPk('')}*`));
    this.preToken.fn.addToRolePolicy(leadingKeys(['dynamodb:PutItem'], props.table, `${userPk('')}*`));
    // Issue 33: the table is encrypted with the data key: the key actions DynamoDB uses for this
    // caller's reads and writes, as table.grantReadData + grantWriteData give every other function.
    if (props.table.encryptionKey) {
      props.table.encryptionKey.grant(this.preToken.fn, ...tableKeyReadActions, ...tableKeyWriteActions);
      for (const action of tableKeyWildcardActions) acknowledgeWildcardAction(this.preToken.fn, action, tableKeyReason);
    }

    this.userPool = new cognito.UserPool(this, 'UserPool', {
      selfSignUpEnabled: false,
      signInAliases: { email: true },
      signInCaseSensitive: false,
      standardAttributes: { email: { required: true, mutable: true } },
      passwordPolicy: {
        // The contract's one rule (forms, API and pool agree).
        minLength: PASSWORD_RULE.minLength,
        requireDigits: true,
        requireSymbols: true,
        // The product's rule is "a letter, a digit and a symbol" (either case); the API
        // enforces the letter part, Cognito cannot express "any letter".
        requireLowercase: false,
        requireUppercase: false,
        tempPasswordValidity: Duration.days(1),
      },
      accountRecovery: cognito.AccountRecovery.NONE,
      mfa: cognito.Mfa.OFF,
      featurePlan: cognito.FeaturePlan.ESSENTIALS,
      deletionProtection: true,
      removalPolicy: RemovalPolicy.RETAIN,
      lambdaTriggers: {
        defineAuthChallenge: this.triggers.defineAuthChallenge.fn,
        createAuthChallenge: this.triggers.createAuthChallenge.fn,
        verifyAuthChallengeResponse: this.triggers.verifyAuthChallengeResponse.fn,
      },
    });
    this.userPool.addTrigger(cognito.UserPoolOperation.PRE_TOKEN_GENERATION_CONFIG, this.preToken.fn, cognito.LambdaVersion.V2_0);
    Validations.of(this.userPool).acknowledge(
      {
        id: 'AwsSolutions-COG1',
        reason:
          'The product password rule is min 8 with a letter (either case), a digit and a symbol from @$!%*#?&; ' +
          'Cognito enforces length, digit and symbol, the API validates the letter rule. Requiring upper AND lower case would reject valid product passwords.',
      },
      {
        id: 'AwsSolutions-COG2',
        reason:
          'MFA is not part of the product specification (e-mail + password or Google sign-in); sign-in attempts are rate-limited by the API. Revisit with an optional TOTP feature.',
      },
      {
        id: 'AwsSolutions-COG8',
        reason:
          'Threat protection needs the PLUS feature plan (billed per MAU); the API already rate-limits logins and code sends per e-mail. Revisit when usage justifies the cost.',
      },
    );

    // Administrators (SPEC §6: an admin assigns phone numbers): members get cognito:groups ['admin']
    // in their tokens; `npm run make-admin -- <email>` adds a user.
    new cognito.CfnUserPoolGroup(this, 'AdminGroup', {
      userPoolId: this.userPool.userPoolId,
      groupName: 'admin',
      description: 'AgentDesk administrators: phone-number requests',
    });

    this.client = this.userPool.addClient('WebClient', {
      generateSecret: false,
      disableOAuth: true,
      // Password sign-in is InitiateAuth USER_PASSWORD_AUTH; Google sign-in is AdminInitiateAuth
      // CUSTOM_AUTH (the triggers verify the Google ID token); refresh is always allowed.
      authFlows: { userPassword: true, custom: true },
      preventUserExistenceErrors: true,
      // Short access/ID tokens (Cognito's minimum): a logout, password change or reset
      // (AdminUserGlobalSignOut, which revokes the refresh tokens) ends every session within
      // 5 minutes, with no table read per request; the app refreshes before they expire.
      accessTokenValidity: Duration.minutes(SESSION_TOKENS.accessMinutes),
      idTokenValidity: Duration.minutes(SESSION_TOKENS.idMinutes),
      refreshTokenValidity: Duration.days(SESSION_TOKENS.refreshDays),
      enableTokenRevocation: true,
    });
  }
}

/** A statement on the table's items (no index) whose partition key starts with `prefix`. */
function leadingKeys(actions: string[], table: dynamodb.ITable, prefix: string): iam.PolicyStatement {
  return new iam.PolicyStatement({
    actions,
    resources: [table.tableArn],
    conditions: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': [prefix] } },
  });
}
