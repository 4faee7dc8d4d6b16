/**
 * The logger's level is config().LOG_LEVEL, applied when a line is logged: the local runtime
 * sets the environment after the modules are imported and resets config(), and the logger
 * follows (no process.env read of its own).
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { logger } from '../../../src/adapters/logger.js';
import { resetConfig } from '../../../src/config.js';

const before = process.env.LOG_LEVEL;

function captured(run: () => void): string[] {
  const lines: string[] = [];
  const capture = (chunk: unknown) => (lines.push(String(chunk)), true);
  const out = vi.spyOn(process.stdout, 'write').mockImplementation(capture);
  const err = vi.spyOn(process.stderr, 'write').mockImplementation(capture);
  try {
    run();
  } finally {
    out.mockRestore();
    err.mockRestore();
  }
  return lines.map((line) => (JSON.parse(line) as { message: string }).message);
}

afterEach(() => {
  if (before === undefined) delete process.env.LOG_LEVEL;
  else process.env.LOG_LEVEL = before;
  resetConfig();
});

describe('logger level', () => {
  it('follows LOG_LEVEL from config, also when the environment is set after import and config() is reset', () => {
    process.env.LOG_LEVEL = 'ERROR';
    resetConfig();
    const quiet = captured(() => {
      logger.info('info at ERROR');
      logger.warn('warn at ERROR');
      logger.error('error at ERROR');
    });

    process.env.LOG_LEVEL = 'DEBUG';
    resetConfig();
    const verbose = captured(() => {
      logger.debug('debug at DEBUG');
      logger.info('info at DEBUG');
    });

    expect(quiet).toEqual(['error at ERROR']);
    expect(verbose).toEqual(['debug at DEBUG', 'info at DEBUG']);
  });

  it('defaults to INFO when LOG_LEVEL is unset', () => {
    delete process.env.LOG_LEVEL;
    resetConfig();

    const lines = captured(() => {
      logger.debug('hidden');
      logger.info('shown');
    });

    expect(lines).toEqual(['shown']);
  });

  it('still logs when the configuration itself is invalid (the line reporting it must not throw)', () => {
    process.env.LOG_LEVEL = 'ERROR';
    resetConfig();
    captured(() => logger.error('level taken from a valid config'));
    process.env.LOG_LEVEL = 'LOUD'; // not a level: config() throws
    resetConfig();

    const lines = captured(() => {
      logger.info('hidden at the last good level');
      logger.error('config is broken');
    });

    expect(lines).toEqual(['config is broken']);
  });
});
