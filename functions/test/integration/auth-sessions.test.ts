/**
 * Sessions end for real (issue 14): logout, a password change and a password reset sign the user
 * out everywhere (AdminUserGlobalSignOut), so refresh tokens issued before stop working.
 * Access tokens stay valid until they expire (API Gateway's JWT authorizer does not ask Cognito).
 */
import { describe, expect, it } from 'vitest';
import type { AuthSession, PasswordChangedSession, RefreshedSession } from '../../src/contract/auth.js';
import { get, post, readCode, registerUser } from '../support/api.js';

const refresh = (refreshToken: string) => post<RefreshedSession>('/api/refresh-token', { refreshToken });
const login = (email: string, password: string) => post<AuthSession>('/api/login', { email, password });

describe('POST /api/logout', () => {
  it('signs the user out on every device: refresh tokens issued before answer 401, a new login works', async () => {
    const { email, password, session } = await registerUser();
    const other = (await login(email, password)).body.data as AuthSession;
    expect((await refresh(session.refreshToken)).status).toBe(200);

    const res = await post('/api/logout', undefined, session.token);

    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, message: 'Logged out successfully' });
    const stale = await refresh(session.refreshToken);
    expect(stale.status).toBe(401);
    expect(stale.body.message).toBe('Session expired. Please log in again.');
    expect((await refresh(other.refreshToken)).status).toBe(401);
    const again = await login(email, password);
    expect(again.status).toBe(200);
    expect((await refresh((again.body.data as AuthSession).refreshToken)).status).toBe(200);
  });

  it('answers 401 without a token and changes nothing', async () => {
    const { session } = await registerUser();
    expect((await post('/api/logout')).status).toBe(401);
    expect((await post('/api/logout', undefined, 'not-a-token')).status).toBe(401);
    expect((await refresh(session.refreshToken)).status).toBe(200);
  });
});

describe('password change and reset sign the user out everywhere', () => {
  it('a changed password ends the other sessions; this device continues with the tokens it gets back', async () => {
    const { email, password, session } = await registerUser();
    const other = (await login(email, password)).body.data as AuthSession;

    const res = await post<PasswordChangedSession>('/api/update-password', { currentPassword: password, newPassword: 'Fresh#Pass9' }, session.token);

    expect(res.status).toBe(200);
    expect((await refresh(session.refreshToken)).status).toBe(401);
    expect((await refresh(other.refreshToken)).status).toBe(401);
    const mine = res.body.data as PasswordChangedSession;
    expect((await get('/api/me', mine.token)).status).toBe(200);
    expect((await refresh(mine.refreshToken)).status).toBe(200);
    expect((await login(email, 'Fresh#Pass9')).status).toBe(200);
  });

  it('a reset password ends every session', async () => {
    const { email, session } = await registerUser();
    await post('/api/send-password-reset', { email });
    const resetCode = await readCode(email, 'reset');

    expect((await post('/api/reset-password', { email, resetCode, newPassword: 'Brand#New99' })).status).toBe(200);

    expect((await refresh(session.refreshToken)).status).toBe(401);
    const fresh = await login(email, 'Brand#New99');
    expect(fresh.status).toBe(200);
    expect((await refresh((fresh.body.data as AuthSession).refreshToken)).status).toBe(200);
  });
});
