/**
 * The local equivalent of an API Gateway HTTP API JWT authorizer configured with
 * issuer = the Cognito pool and audience = [app client id]. The verification itself lives in
 * src/auth/cognito-jwt.ts, shared with the API authorizer Lambda (one implementation).
 */
export {
  authorize,
  cognitoAuthorizer,
  type AuthorizerConfig,
  type AuthorizerResult,
} from '../src/auth/cognito-jwt.js';
