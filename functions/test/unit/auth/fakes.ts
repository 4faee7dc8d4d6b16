/** In-memory fakes of the auth ports, for domain unit tests. */
import { randomUUID } from 'node:crypto';
import {
  IdentityExistsError,
  type AvatarUrlSigner,
  type Clock,
  type CodePurpose,
  type CodeStore,
  type GoogleIdentity,
  type GoogleTokenVerifier,
  type IdentityProvider,
  type IdentityUser,
  type Mailer,
  type ProfilePatch,
  type RateDecision,
  type RateLimiter,
  type RateReservation,
  type RateRule,
  type StoredCode,
  type Tokens,
  type UserProfile,
  type UserRepository,
} from '../../../src/domain/auth/ports.js';
import { UnauthorizedError } from '../../../src/domain/errors.js';
import type { AvatarStore } from '../../../src/domain/account/ports.js';

export class FakeClock implements Clock {
  constructor(public ms = Date.UTC(2025, 0, 1, 12, 0, 0)) {}
  now() {
    return this.ms;
  }
  advance(seconds: number) {
    this.ms += seconds * 1000;
  }
}

export class MemoryUsers implements UserRepository {
  profiles = new Map<string, UserProfile>();
  subscriptions = new Map<string, string>();
  async get(userId: string) {
    const p = this.profiles.get(userId);
    return p ? { ...p } : null;
  }
  async findByEmail(email: string) {
    const p = [...this.profiles.values()].find((profile) => profile.email === email.toLowerCase());
    return p ? { ...p } : null;
  }
  async create(profile: UserProfile) {
    if (this.profiles.has(profile.userId)) return false;
    this.profiles.set(profile.userId, { ...profile });
    return true;
  }
  async update(userId: string, patch: ProfilePatch, updatedAt: string) {
    const p = this.profiles.get(userId);
    if (!p) return null;
    const next = { ...p, ...patch, updatedAt };
    this.profiles.set(userId, next);
    return { ...next };
  }
  async hasActiveSubscription(userId: string) {
    const s = this.subscriptions.get(userId);
    return s === 'active' || s === 'trialing';
  }
}

export class MemoryCodes implements CodeStore {
  items = new Map<string, StoredCode>();
  private k = (p: CodePurpose, e: string) => `${p}:${e}`;
  async put(p: CodePurpose, e: string, c: StoredCode) {
    this.items.set(this.k(p, e), { ...c });
  }
  async get(p: CodePurpose, e: string) {
    const c = this.items.get(this.k(p, e));
    return c ? { ...c } : null;
  }
  async reserveAttempt(p: CodePurpose, e: string, hash: string, max: number) {
    const c = this.items.get(this.k(p, e));
    if (!c || c.hash !== hash || c.attempts >= max) return null;
    c.attempts += 1;
    return c.attempts;
  }
  async releaseAttempt(p: CodePurpose, e: string, hash: string) {
    const c = this.items.get(this.k(p, e));
    if (c && c.hash === hash && c.attempts > 0) c.attempts -= 1;
  }
  async consume(p: CodePurpose, e: string, hash: string) {
    const c = this.items.get(this.k(p, e));
    if (!c || c.hash !== hash) return false;
    this.items.delete(this.k(p, e));
    return true;
  }
  async delete(p: CodePurpose, e: string) {
    this.items.delete(this.k(p, e));
  }
}

export class MemoryRateLimiter implements RateLimiter {
  counts = new Map<string, number>();
  constructor(private readonly clock: Clock) {}
  private window(action: string, email: string, rule: RateRule) {
    const now = Math.floor(this.clock.now() / 1000);
    const index = Math.floor(now / rule.windowSeconds);
    return { key: `${action}:${email}:${rule.windowSeconds}:${index}`, retry: (index + 1) * rule.windowSeconds - now };
  }
  async hit(action: string, email: string, rules: readonly RateRule[]): Promise<RateDecision> {
    const over: number[] = [];
    for (const rule of rules) {
      const w = this.window(action, email, rule);
      const n = (this.counts.get(w.key) ?? 0) + 1;
      this.counts.set(w.key, n);
      if (n > rule.max) over.push(w.retry);
    }
    return over.length ? { allowed: false, retryAfterSeconds: Math.max(...over) } : { allowed: true };
  }
  async reserve(action: string, email: string, rules: readonly RateRule[]): Promise<RateReservation> {
    const windows = rules.map((rule) => ({ rule, w: this.window(action, email, rule) }));
    const full = windows.filter(({ rule, w }) => (this.counts.get(w.key) ?? 0) >= rule.max);
    if (full.length) return { allowed: false, retryAfterSeconds: Math.max(...full.map(({ w }) => w.retry)) };
    for (const { w } of windows) this.counts.set(w.key, (this.counts.get(w.key) ?? 0) + 1);
    return {
      allowed: true,
      release: async () => {
        for (const { w } of windows) this.counts.set(w.key, Math.max(0, (this.counts.get(w.key) ?? 0) - 1));
      },
    };
  }
  async peek(action: string, email: string, rules: readonly RateRule[]): Promise<RateDecision> {
    const over = rules
      .map((rule) => ({ rule, w: this.window(action, email, rule) }))
      .filter(({ rule, w }) => (this.counts.get(w.key) ?? 0) >= rule.max)
      .map(({ w }) => w.retry);
    return over.length ? { allowed: false, retryAfterSeconds: Math.max(...over) } : { allowed: true };
  }
  async clear(action: string, email: string, rules: readonly RateRule[]) {
    for (const rule of rules) this.counts.delete(this.window(action, email, rule).key);
  }
}

export class FakeIdentity implements IdentityProvider {
  users = new Map<string, { userId: string; password: string }>();
  googleSignIns: string[] = [];
  async findByEmail(email: string): Promise<IdentityUser | null> {
    const u = this.users.get(email);
    return u ? { userId: u.userId, email } : null;
  }
  async createUser(input: { email: string; password: string }) {
    if (this.users.has(input.email)) throw new IdentityExistsError();
    const userId = randomUUID();
    this.users.set(input.email, { userId, password: input.password });
    return { userId, email: input.email };
  }
  /** Refresh tokens handed out per e-mail; signOutEverywhere revokes them. */
  issued = new Map<string, string[]>();
  revoked = new Set<string>();
  signOuts: string[] = [];
  private tokens(email: string): Tokens {
    const refreshToken = `refresh-${email}-${randomUUID()}`;
    this.issued.set(email, [...(this.issued.get(email) ?? []), refreshToken]);
    return { accessToken: `access-${email}-${randomUUID()}`, refreshToken, expiresIn: 3600 };
  }
  async signOutEverywhere(email: string) {
    this.signOuts.push(email);
    for (const t of this.issued.get(email) ?? []) this.revoked.add(t);
  }
  async signInWithPassword(email: string, password: string) {
    const u = this.users.get(email);
    return u && u.password === password ? this.tokens(email) : null;
  }
  async signInWithGoogle(email: string) {
    this.googleSignIns.push(email);
    return this.tokens(email);
  }
  async refresh(refreshToken: string) {
    return refreshToken.startsWith('refresh-') && !this.revoked.has(refreshToken) ? { accessToken: 'fresh', expiresIn: 3600 } : null;
  }
  async setPassword(email: string, password: string) {
    const u = this.users.get(email);
    if (!u) throw new Error('no user');
    u.password = password;
  }
  async deleteUser(email: string) {
    this.users.delete(email);
  }
}

export class MemoryMailer implements Mailer {
  sent: { to: string; subject: string; text: string; html: string }[] = [];
  async send(m: { to: string; subject: string; text: string; html: string }) {
    this.sent.push(m);
  }
  lastCodeFor(to: string, pattern: RegExp): string {
    const mail = [...this.sent].reverse().find((m) => m.to === to);
    const match = mail?.text.match(pattern);
    if (!match) throw new Error(`no code mailed to ${to}`);
    return match[0];
  }
}

/** Credentials of the form "google:<email>[:<name>]" verify; anything else fails. */
export class FakeGoogle implements GoogleTokenVerifier {
  async verify(credential: string): Promise<GoogleIdentity> {
    const [kind, email, name] = credential.split(':');
    if (kind !== 'google' || !email) throw new UnauthorizedError('Google login failed');
    return { email, googleSub: `g-${email}`, ...(name ? { name } : {}) };
  }
}

export class MemoryAvatars implements AvatarStore, AvatarUrlSigner {
  objects = new Map<string, { bytes: Uint8Array; contentType: string }>();
  async put(key: string, bytes: Uint8Array, contentType: string) {
    this.objects.set(key, { bytes, contentType });
  }
  async urlFor(key: string) {
    return `https://signed.example/${key}`;
  }
}
