/**
 * Sign-in routes (SPEC §7 Auth), all public: parse with the contract, call the domain, answer.
 * Never log bodies, passwords, codes or tokens.
 */
import {
  googleAuthRequest,
  languageFromAcceptLanguage,
  loginRequest,
  refreshTokenRequest,
  registerRequest,
  resetPasswordRequest,
} from '../contract/auth.js';
import { signInService } from '../composition/auth.js';
import { authMessages } from '../domain/auth/service.js';
import { httpGroup, parseWith, type RouteTable } from '../http/handler.js';

export const routes: RouteTable = {
  'POST /api/register': async (req) => {
    const input = parseWith(registerRequest, req.json());
    const language = input.language ?? languageFromAcceptLanguage(req.headers['accept-language']);
    return { status: 201, message: authMessages.registered, data: await signInService().register({ ...input, language }) };
  },
  'POST /api/login': async (req) => {
    const input = parseWith(loginRequest, req.json());
    return { message: authMessages.loggedIn, data: await signInService().login(input, req.sourceIp) };
  },
  'POST /api/refresh-token': async (req) => {
    const input = parseWith(refreshTokenRequest, req.json());
    return { data: await signInService().refresh(input.refreshToken) };
  },
  'POST /api/google-auth': async (req) => {
    const input = parseWith(googleAuthRequest, req.json());
    const language = input.language ?? languageFromAcceptLanguage(req.headers['accept-language']);
    const { session, created } = await signInService().googleSignIn({ ...input, language });
    return { status: created ? 201 : 200, message: authMessages.loggedIn, data: session };
  },
  'POST /api/reset-password': async (req) => {
    const input = parseWith(resetPasswordRequest, req.json());
    await signInService().resetPassword(input);
    return { message: authMessages.passwordReset };
  },
};

export const handler = httpGroup(routes);
