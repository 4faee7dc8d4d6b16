import { SESv2Client } from '@aws-sdk/client-sesv2';
import { config } from '../../config.js';
import { once } from '../../lib/once.js';

export const sesClient = once(() => {
  const { AWS_REGION, SES_ENDPOINT } = config();
  return new SESv2Client({ region: AWS_REGION, endpoint: SES_ENDPOINT });
});
