/**
 * `npm start`'s environment → startLocalStack options (local/start-options.ts): OUTBOUND_ALLOW_HOSTS
 * reaches the handlers' env, and only as loopback host:ports.
 */
import { describe, expect, it } from 'vitest';
import { StartConfigError, localStartConfig, parseOutboundAllowHosts } from '../../../local/start-options.js';

describe('localStartConfig', () => {
  it('passes OUTBOUND_ALLOW_HOSTS to the handlers env of the stack', () => {
    const config = localStartConfig({ OUTBOUND_ALLOW_HOSTS: 'localhost:8080, 127.0.0.1:9000' }, { dev: false });

    expect(config.stackOptions.env?.OUTBOUND_ALLOW_HOSTS?.split(',')).toEqual(
      expect.arrayContaining(['localhost:8080', '127.0.0.1:8080', '[::1]:8080', 'localhost:9000', '127.0.0.1:9000', '[::1]:9000']),
    );
  });

  it('sets no allow-list when the variable is unset or empty (the fakes are added by the stack itself)', () => {
    expect(localStartConfig({}, { dev: false }).stackOptions.env).toBeUndefined();
    expect(localStartConfig({ OUTBOUND_ALLOW_HOSTS: ' , ' }, { dev: false }).stackOptions.env).toBeUndefined();
  });

  it('keeps the ports and real-service switches start.ts had', () => {
    const config = localStartConfig({ PORT: '3100', STRIPE_SECRET_KEY: 'sk_test_x', VITE_PORT: '5200' }, { dev: true });

    expect(config.ports.gateway).toBe(3100);
    expect(config.ports.dynamodb).toBe(8000);
    expect(config.appUrl).toBe('http://localhost:5200');
    expect(config.stackOptions.stripe).toBe(false);
    expect(config.stackOptions.openai).toBeUndefined();
    expect(config.stackOptions.schedules).toBe(true);
  });

  it('refuses a bad port with the variable named', () => {
    expect(() => localStartConfig({ DYNAMODB_PORT: 'abc' }, { dev: false })).toThrow(new StartConfigError('DYNAMODB_PORT=abc is not a valid port number.'));
  });
});

describe('parseOutboundAllowHosts', () => {
  it('reads host:port, a host alone (80 and 443) and a pasted URL', () => {
    expect(parseOutboundAllowHosts('tools.localhost:9000')).toEqual(['tools.localhost:9000']);
    expect(parseOutboundAllowHosts('tools.localhost')).toEqual(['tools.localhost:80', 'tools.localhost:443']);
    expect(parseOutboundAllowHosts('http://localhost:8080/precios.html')).toEqual(['localhost:8080', '127.0.0.1:8080', '[::1]:8080']);
    expect(parseOutboundAllowHosts('https://Tools.Localhost')).toEqual(['tools.localhost:443']);
  });

  it.each(['192.168.1.20:8080', '10.0.0.5', '169.254.169.254:80', '[fd00::1]:80', '8.8.8.8:53'])(
    'refuses %s: only loopback addresses can be opened',
    (entry) => {
      expect(() => parseOutboundAllowHosts(entry)).toThrow(/is not on this machine.*only opens loopback addresses/);
    },
  );

  it.each(['local host:80', 'localhost:99999', 'localhost:8080/path', 'user:pw@localhost:80'])('refuses the malformed %s with an example', (entry) => {
    expect(() => parseOutboundAllowHosts(entry)).toThrow(/is not a host\[:port\] \(e\.g\. OUTBOUND_ALLOW_HOSTS=localhost:8080/);
  });
});
