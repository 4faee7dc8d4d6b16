/** Wires the admin group: phone-number requests across users, user profiles, and the mailer. */
import { config } from '../config.js';
import { documentClient } from '../adapters/aws/dynamo.js';
import { sesRequests } from '../adapters/aws/ses.js';
import { DynamoUserRepository } from '../adapters/dynamo/users.js';
import { logger } from '../adapters/logger.js';
import { SesMailer } from '../adapters/mailer.js';
import { createAdminService } from '../domain/voice/admin.js';
import { once } from '../lib/once.js';
import { voiceSettingsRepository } from './voice.js';

export const adminService = once(() => {
  const c = config();
  return createAdminService({
    settings: voiceSettingsRepository(),
    users: new DynamoUserRepository(documentClient(), c.TABLE_NAME),
    mailer: new SesMailer(sesRequests(), c.MAIL_FROM),
    appUrl: c.APP_URL,
    onMailError: (error) => logger.error('Could not send the number-assigned e-mail', { error: error as Error }),
  });
});
