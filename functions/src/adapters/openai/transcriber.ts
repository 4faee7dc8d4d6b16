/**
 * OpenAI's audio transcription (POST /audio/transcriptions, multipart/form-data: file, model,
 * language, prompt, response_format) as the request and answer the fetch model sends and reads
 * (TranscribingOpenAiModel below: the fetch model with the same outbound guard, key, base URL check, timeout, one retry
 * of a 5xx and ModelError kinds as its chat calls). Not the `openai` SDK: the whatsapp-inbound
 * bundle stays without it (issue 28); the SDK's own request is the oracle in the tests
 * (test/unit/openai/transcriber.test.ts sends both to the fake OpenAI and compares them).
 *
 * Models: whisper-1 answers verbose_json (the language heard, as an English name, and the
 * duration); gpt-4o-transcribe and gpt-4o-mini-transcribe answer only json/text: the text and a
 * usage (tokens, or seconds of audio). What the answer does not say, the caller knows: the hint's
 * language, the container's duration (domain/whatsapp/media/audio.ts).
 */
import { randomBytes } from 'node:crypto';
import { ModelError, type TranscriptionRequest } from '../../domain/ai/ports.js';
import { FetchOpenAiModel, MAX_RESPONSE_BYTES, RawBody, readText } from './fetch-model.js';


/** Bounds one transcription: 10 minutes of audio take OpenAI 5-20 s, and the worker (60 s) still has the reply to write. */
export const TRANSCRIBE_TIMEOUT_MS = 30_000;

/** Only whisper-1 gives verbose_json (language and duration); the gpt-4o family takes json. */
export const transcriptionFormat = (model: string): 'verbose_json' | 'json' => (model.startsWith('whisper') ? 'verbose_json' : 'json');

/** A multipart field's name or file name, quoted as browsers do (a quote or a line break escaped). */
const quoted = (value: string) => `"${value.replace(/"/g, '%22').replace(/\r/g, '%0D').replace(/\n/g, '%0A')}"`;

/**
 * The multipart body OpenAI's SDK sends for the same request (fields, then the file), written with
 * one copy of the audio (a FormData → Blob → arrayBuffer round trip would make two).
 */
export function transcriptionBody(request: TranscriptionRequest, model: string): RawBody {
  const boundary = `----agentdesk${randomBytes(12).toString('hex')}`;
  const fields: Array<[string, string]> = [
    ['model', model],
    ...(request.language ? [['language', request.language] as [string, string]] : []),
    ...(request.prompt ? [['prompt', request.prompt] as [string, string]] : []),
    ['response_format', transcriptionFormat(model)],
  ];
  const head =
    fields.map(([name, value]) => `--${boundary}\r\nContent-Disposition: form-data; name=${quoted(name)}\r\n\r\n${value}\r\n`).join('') +
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename=${quoted(request.fileName)}\r\nContent-Type: ${request.mimeType}\r\n\r\n`;
  const body = Buffer.concat([Buffer.from(head, 'utf8'), request.bytes, Buffer.from(`\r\n--${boundary}--\r\n`, 'utf8')]);
  return new RawBody(body, `multipart/form-data; boundary=${boundary}`);
}

/** Whisper's language names (verbose_json) for the languages our customers speak; ISO 639-1 codes pass as they are. */
const LANGUAGE_CODES: Record<string, string> = {
  spanish: 'es',
  english: 'en',
  catalan: 'ca',
  galician: 'gl',
  basque: 'eu',
  portuguese: 'pt',
  french: 'fr',
  italian: 'it',
  german: 'de',
  dutch: 'nl',
  romanian: 'ro',
  arabic: 'ar',
  chinese: 'zh',
  russian: 'ru',
  ukrainian: 'uk',
};

export function languageCode(language: unknown): string | undefined {
  if (typeof language !== 'string') return undefined;
  const name = language.trim().toLowerCase();
  if (/^[a-z]{2}(-[a-z0-9]{2,8})?$/i.test(name)) return name.slice(0, 2);
  return LANGUAGE_CODES[name];
}

/** The answer: text, the language heard (else the hint, else ''), seconds of audio when told (else 0). */
export function parseTranscription(body: string, request: TranscriptionRequest): { text: string; language: string; durationSeconds: number } {
  let answer: { text?: unknown; language?: unknown; duration?: unknown; usage?: { type?: unknown; seconds?: unknown } };
  try {
    answer = JSON.parse(body) as typeof answer;
  } catch {
    throw new ModelError('unavailable', 'Malformed transcription answer');
  }
  if (typeof answer?.text !== 'string') throw new ModelError('unavailable', 'The transcription answer has no text');
  const seconds = typeof answer.duration === 'number' ? answer.duration : answer.usage?.type === 'duration' && typeof answer.usage.seconds === 'number' ? answer.usage.seconds : 0;
  return {
    text: answer.text.trim(),
    language: languageCode(answer.language) ?? request.language ?? '',
    durationSeconds: Number.isFinite(seconds) && seconds > 0 ? seconds : 0,
  };
}

/**
 * The fetch model that also transcribes: only the whatsapp-inbound worker builds it
 * (composition/ai-inbound.ts), so the other functions' bundles (the voice webhook's budget is
 * tight) carry no transcription code.
 */
export class TranscribingOpenAiModel extends FetchOpenAiModel {
  /** A voice note's transcript with `model`: the request and its answer as above. */
  async transcribe(request: TranscriptionRequest, model: string): Promise<{ text: string; language: string; durationSeconds: number }> {
    const body = transcriptionBody(request, model);
    return this.call(request.timeoutMs ?? TRANSCRIBE_TIMEOUT_MS, undefined, async (signal, deadline) => {
      const res = await this.open('POST', '/audio/transcriptions', body, signal, deadline);
      return parseTranscription(await readText(res, MAX_RESPONSE_BYTES), request);
    });
  }
}
