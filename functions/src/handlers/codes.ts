/** The routes that e-mail one-time codes (public): sign-up verification and password reset. */
import { languageFromAcceptLanguage, sendPasswordResetRequest, sendVerificationRequest } from '../contract/auth.js';
import { codeMailService } from '../composition/codes.js';
import { authMessages } from '../domain/auth/service.js';
import { httpGroup, parseWith, type RouteTable } from '../http/handler.js';

export const routes: RouteTable = {
  'POST /api/send-verification': async (req) => {
    const input = parseWith(sendVerificationRequest, req.json());
    const language = input.language ?? languageFromAcceptLanguage(req.headers['accept-language']);
    const data = await codeMailService().sendVerification({ ...input, language });
    return { message: authMessages.codeSent, data };
  },
  'POST /api/send-password-reset': async (req) => {
    const input = parseWith(sendPasswordResetRequest, req.json());
    await codeMailService().sendPasswordReset(input);
    return { message: authMessages.resetSent };
  },
};

export const handler = httpGroup(routes);
