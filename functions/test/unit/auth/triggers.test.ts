import type {
  CreateAuthChallengeTriggerEvent,
  DefineAuthChallengeTriggerEvent,
  VerifyAuthChallengeResponseTriggerEvent,
} from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import {
  CHALLENGE_METADATA,
  createAuthChallenge,
  defineAuthChallenge,
  makeVerifyAuthChallengeResponse,
} from '../../../src/triggers/custom-auth.js';
import { FakeGoogle } from './fakes.js';

type Session = DefineAuthChallengeTriggerEvent['request']['session'];

const defineEvent = (session: Session) =>
  ({ request: { session, userAttributes: {} }, response: {} }) as unknown as DefineAuthChallengeTriggerEvent;

describe('custom-auth triggers', () => {
  it('define: issues one custom challenge, then tokens only after a correct answer', async () => {
    const first = await defineAuthChallenge(defineEvent([]));
    expect(first.response).toMatchObject({ challengeName: 'CUSTOM_CHALLENGE', issueTokens: false, failAuthentication: false });

    const answered = (result: boolean) =>
      [{ challengeName: 'CUSTOM_CHALLENGE', challengeResult: result, challengeMetadata: CHALLENGE_METADATA }] as Session;
    expect((await defineAuthChallenge(defineEvent(answered(true)))).response).toMatchObject({ issueTokens: true, failAuthentication: false });
    expect((await defineAuthChallenge(defineEvent(answered(false)))).response).toMatchObject({ issueTokens: false, failAuthentication: true });
    const twice = [...answered(false), ...answered(true)] as Session;
    expect((await defineAuthChallenge(defineEvent(twice))).response.failAuthentication).toBe(true);
  });

  it('create: no secret parameters', async () => {
    const event = { request: { challengeName: 'CUSTOM_CHALLENGE', session: [] }, response: {} } as unknown as CreateAuthChallengeTriggerEvent;
    const out = await createAuthChallenge(event);
    expect(out.response).toEqual({
      publicChallengeParameters: { type: CHALLENGE_METADATA },
      privateChallengeParameters: {},
      challengeMetadata: CHALLENGE_METADATA,
    });
  });

  it("verify: correct only for a verified credential of the user's own e-mail", async () => {
    const verify = makeVerifyAuthChallengeResponse(() => new FakeGoogle());
    const event = (answer: string) =>
      ({
        userName: 'u1',
        request: { userAttributes: { email: 'gil@gmail.com' }, challengeAnswer: answer, privateChallengeParameters: {} },
        response: {},
      }) as unknown as VerifyAuthChallengeResponseTriggerEvent;
    expect((await verify(event('google:gil@gmail.com'))).response.answerCorrect).toBe(true);
    expect((await verify(event('google:eve@gmail.com'))).response.answerCorrect).toBe(false);
    expect((await verify(event('forged'))).response.answerCorrect).toBe(false);
  });
});
