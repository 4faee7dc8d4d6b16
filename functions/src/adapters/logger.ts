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

class ConfiguredLogger extends Logger {
  private appliedFrom: Config | undefined;

  /** Follows config() (cached, so this is a comparison per line; a reset config is picked up). */
  private applyConfiguredLevel(): void {
    let current: Config;
    try {
      current = config();
    } catch {
      return; // An invalid environment must not make logging throw; the default level stays.
    }
    if (current === this.appliedFrom) return;
    this.appliedFrom = current;
    this.setLogLevel(current.LOG_LEVEL);
  }

  /** Every level (trace … critical) goes through here: the one place to apply the configured level first. */
  protected override processLogItem(logLevel: number, input: LogItemMessage, extraInput: LogItemExtraInput): void {
    this.applyConfiguredLevel();
    super.processLogItem(logLevel, input, extraInput);
  }
}

export const logger: Logger = new ConfiguredLogger({ serviceName: 'agentdesk' });
