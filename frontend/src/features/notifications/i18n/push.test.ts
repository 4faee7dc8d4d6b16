import { describe, expect, it } from 'vitest';
import { pushMessages } from '@agentdesk/functions/contract';
import en from './push.en.json';
import es from './push.es.json';
import esServer from './push.server.es.json';
import { keyPaths as keys } from '../../../i18n/keyPaths';
import { applicationServerKey, deviceLabel } from '../../../shared/pwa';

describe('Web Push strings (issue 29)', () => {
  it('has every English key in Spanish too, and every push API text in Spanish', () => {
    expect(keys(es).sort()).toEqual(keys(en).sort());
    for (const text of Object.values(pushMessages)) expect(esServer[text as keyof typeof esServer], text).toBeTruthy();
  });

  it('says it as a Spanish owner reads it', () => {
    expect([es.enable, es.menuItem, es.test, es.events.escalations]).toEqual([
      'Activar avisos en este dispositivo',
      'Avisos en este dispositivo',
      'Enviar un aviso de prueba',
      'Conversaciones y llamadas escaladas',
    ]);
  });
});

describe('the browser side', () => {
  it('turns the VAPID public key into the 65 bytes pushManager takes', () => {
    const key = `B${'A'.repeat(86)}`;
    const bytes = applicationServerKey(key);
    expect(bytes).toHaveLength(65);
    expect(bytes[0]).toBe(4);
  });

  it('names a device by browser and system', () => {
    expect(deviceLabel('Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Mobile Safari/537.36')).toBe('Chrome · Android');
    expect(deviceLabel('Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.0 Mobile/15E148 Safari/604.1')).toBe('Safari · iOS');
    expect(deviceLabel('Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36 Edg/131.0')).toBe('Edge · Windows');
  });
});
