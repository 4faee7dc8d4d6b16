/**
 * Structured JSON logs (Powertools). Never log request bodies, passwords, codes or tokens:
 * log ids and outcomes instead.
 *
 * The level is config().LOG_LEVEL, read when a line is logged rather than when this module is
 * imported: modules load before the local runtime puts its environment in place (it then calls
 * resetConfig()), and reading config() at import would cache the environment too early.
 */
import { Logger } from '@aws-lambda-powertools/logger';
import type { LogItemExtraInput, LogItemMessage } from '@aws-lambda-powertools/logger/types';
import { config, type Config } from '../config.js';

/** The config() the level was last taken from (cached, so this is one comparison a line; a reset config is picked up). */
let levelFrom: Config | undefined;

class ConfiguredLogger extends Logger {
  /** Every level (trace … critical) goes through here: the one place to apply the configured level first. */
  protected override processLogItem(logLevel: number, input: LogItemMessage, extraInput: LogItemExtraInput): void {
    const current = configuredOrUndefined();
    if (current && current !== levelFrom) this.setLogLevel((levelFrom = current).LOG_LEVEL);
    super.processLogItem(logLevel, input, extraInput);
  }
}

/** A broken configuration must not silence the line that reports it: log at the current level then. */
function configuredOrUndefined(): Config | undefined {
  try {
    return config();
  } catch {
    return undefined;
  }
}

export const logger: Logger = new ConfiguredLogger({ serviceName: 'agentdesk' });
