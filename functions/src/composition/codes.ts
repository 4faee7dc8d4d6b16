/** Wires the codes group (verification and reset e-mails), the only one with the mail client. */
import { config } from '../config.js';
import { documentClient } from '../adapters/aws/dynamo.js';
import { sesRequests } from '../adapters/aws/ses.js';
import { DynamoCodeStore } from '../adapters/dynamo/codes.js';
import { SesMailer } from '../adapters/mailer.js';
import { RESET_RESPONSE_FLOOR_MS, createCodeMailService } from '../domain/auth/service.js';
import { once } from '../lib/once.js';
import { tableDeps } from './table.js';

export const codeMailService = once(() => {
  const c = config();
  return createCodeMailService({
    ...tableDeps(),
    codes: new DynamoCodeStore(documentClient(), c.TABLE_NAME),
    mailer: new SesMailer(sesRequests(), c.MAIL_FROM),
    appUrl: c.APP_URL,
    resetResponseFloorMs: RESET_RESPONSE_FLOOR_MS,
  });
});
