/** The client address the handlers use (issue 28: the per-client failed-login budget). */
import { describe, expect, it } from 'vitest';
import { viewerAddress } from '../../../src/http/handler.js';

describe('viewerAddress (CloudFront-Viewer-Address)', () => {
  it('takes the IP of "ip:port", IPv4 and IPv6', () => {
    expect(viewerAddress('198.51.100.10:46532')).toBe('198.51.100.10');
    expect(viewerAddress('2001:db8:85a3::8a2e:370:7334:46532')).toBe('2001:db8:85a3::8a2e:370:7334');
  });

  it('is null without a header or for anything that is not an address and a port', () => {
    for (const value of [undefined, '', '198.51.100.10', 'evil.example:80', '1.2.3.4:abc', `${'1'.repeat(60)}:1`]) expect(viewerAddress(value), String(value)).toBeNull();
  });
});
