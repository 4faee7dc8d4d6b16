/**
 * Structured JSON logs (Powertools). Never log request bodies, passwords, codes or tokens:
 * log ids and outcomes instead.
 */
import { Logger } from '@aws-lambda-powertools/logger';

export const logger = new Logger({
  serviceName: 'agentdesk',
  logLevel: (process.env.LOG_LEVEL as 'DEBUG' | 'INFO' | 'WARN' | 'ERROR' | undefined) ?? 'INFO',
});
