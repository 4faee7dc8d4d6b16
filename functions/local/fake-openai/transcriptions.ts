/**
 * The fake OpenAI's POST /v1/audio/transcriptions (issue 31): OpenAI's multipart request (file,
 * model, language, prompt, response_format; what the SDK's audio.transcriptions.create sends),
 * checked as OpenAI checks it, answered with a deterministic transcript: the one registered for
 * the file's bytes (sha256) or for a marker the bytes contain (POST /_test/transcripts), else
 * DEFAULT_TRANSCRIPT. The duration: the registered one, else the container's (the app's own
 * reading: Ogg granule, WAV, M4A…), else 1 s.
 *
 * Answers by format: `json` ({text, usage}: seconds for whisper-1, tokens for the gpt-4o family),
 * `text` (text/plain), `verbose_json` (whisper-1 only: {task, language as an English name,
 * duration, text, segments}). srt/vtt are not served.
 */
import busboy from 'busboy';
import { createHash } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { audioSeconds, sniffAudio } from '../../src/domain/whatsapp/media/audio.js';

export const FAKE_TRANSCRIPTION_MODELS = ['whisper-1', 'gpt-4o-transcribe', 'gpt-4o-mini-transcribe', 'gpt-4o-transcribe-diarize'];
/** OpenAI's upload limit (25 MB). */
export const TRANSCRIPTION_MAX_BYTES = 25 * 1024 * 1024;
export const DEFAULT_TRANSCRIPT = { text: 'Hola, quería hacer una consulta.', language: 'es' } as const;
/** OpenAI's list of file extensions it takes. */
const EXTENSIONS = ['flac', 'm4a', 'mp3', 'mp4', 'mpeg', 'mpga', 'oga', 'ogg', 'wav', 'webm'];
const LANGUAGE_NAMES: Record<string, string> = { es: 'spanish', en: 'english', ca: 'catalan', pt: 'portuguese', fr: 'french', it: 'italian', de: 'german', gl: 'galician', eu: 'basque' };

export interface RegisteredTranscript {
  text: string;
  /** ISO 639-1 ('es'); default: the request's language hint, else 'es'. */
  language?: string;
  /** Seconds; default: read from the container. */
  duration?: number;
}

export interface TranscriptionForm {
  model?: string;
  language?: string;
  prompt?: string;
  response_format?: string;
  /** Recorded without its bytes. */
  file?: { name: string; type: string; size: number; sha256: string };
}

export class TranscriptionRequestError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly param: string | null = null,
    readonly code: string | null = null,
  ) {
    super(message);
  }
}

/** The multipart body: fields and the file (bytes kept apart from what is recorded). */
export function readTranscriptionForm(req: IncomingMessage): Promise<{ form: TranscriptionForm; bytes: Buffer | null }> {
  return new Promise((resolve, reject) => {
    let parser: busboy.Busboy;
    try {
      parser = busboy({ headers: req.headers, limits: { fileSize: TRANSCRIPTION_MAX_BYTES, files: 1, fields: 20 } });
    } catch {
      req.resume();
      reject(new TranscriptionRequestError(400, "Invalid Content-Type header (), expected multipart/form-data. (HINT: If you're using curl, you can pass -H 'Content-Type: multipart/form-data')"));
      return;
    }
    const form: TranscriptionForm = {};
    let bytes: Buffer | null = null;
    let failed = false;
    const fail = (error: Error) => {
      if (failed) return;
      failed = true;
      req.unpipe(parser);
      req.resume();
      reject(error);
    };
    parser.on('field', (name, value) => {
      if (name === 'model' || name === 'language' || name === 'prompt' || name === 'response_format') form[name] = value;
    });
    parser.on('file', (name, stream, info) => {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('limit', () => fail(new TranscriptionRequestError(413, `Maximum content size limit (${TRANSCRIPTION_MAX_BYTES}) exceeded.`)));
      stream.on('error', () => fail(new TranscriptionRequestError(400, 'The multipart body could not be parsed.')));
      stream.on('end', () => {
        if (name !== 'file') return;
        bytes = Buffer.concat(chunks);
        form.file = { name: info.filename ?? '', type: info.mimeType ?? '', size: bytes.length, sha256: createHash('sha256').update(bytes).digest('hex') };
      });
    });
    parser.on('error', () => fail(new TranscriptionRequestError(400, 'The multipart body could not be parsed.')));
    parser.on('close', () => {
      if (!failed) resolve({ form, bytes });
    });
    req.pipe(parser);
  });
}

const invalid = (message: string, param: string | null = null, code: string | null = null) => new TranscriptionRequestError(400, message, param, code);

/** The answer for a checked request: a JSON body, or the text of `response_format: text`. */
export function transcriptionAnswer(
  form: TranscriptionForm,
  bytes: Buffer | null,
  lookup: (sha256: string, bytes: Buffer) => RegisteredTranscript | undefined,
): { json: unknown } | { text: string } {
  if (!bytes || !form.file) throw invalid('1 validation error for Request\nbody -> file\n  field required (type=value_error.missing)', 'file');
  const model = form.model ?? '';
  if (!model) throw invalid('1 validation error for Request\nbody -> model\n  field required (type=value_error.missing)', 'model');
  if (!FAKE_TRANSCRIPTION_MODELS.includes(model)) {
    throw new TranscriptionRequestError(404, `The model \`${model}\` does not exist or you do not have access to it.`, 'model', 'model_not_found');
  }
  const format = form.response_format ?? 'json';
  const whisper = model === 'whisper-1';
  if (!['json', 'text', 'verbose_json', 'srt', 'vtt', 'diarized_json'].includes(format)) {
    throw invalid(`'${format}' is not one of ['json', 'text', 'srt', 'verbose_json', 'vtt', 'diarized_json'] - 'response_format'`, 'response_format');
  }
  if (!whisper && format !== 'json' && format !== 'text') {
    throw invalid(`response_format '${format}' is not compatible with model '${model}'. Use 'json' or 'text' instead.`, 'response_format', 'unsupported_value');
  }
  if (format === 'srt' || format === 'vtt') throw invalid(`The fake OpenAI does not serve response_format '${format}'.`, 'response_format');
  const extension = /\.([a-z0-9]+)$/i.exec(form.file.name)?.[1]?.toLowerCase() ?? '';
  if (!EXTENSIONS.includes(extension)) {
    throw invalid(`Invalid file format. Supported formats: ${JSON.stringify(EXTENSIONS).replace(/"/g, "'").replace(/,/g, ', ')}`, 'file', 'invalid_value');
  }
  const container = sniffAudio(bytes);
  if (!container) throw invalid('Audio file might be corrupted or unsupported', 'file', 'invalid_value');
  if (form.language !== undefined && !/^[a-z]{2,3}$/.test(form.language)) {
    throw invalid(`Invalid language '${form.language}'. Language parameter must be specified in ISO-639-1 format.`, 'language', 'invalid_language_format');
  }
  const registered = lookup(form.file.sha256, bytes);
  const text = registered?.text ?? DEFAULT_TRANSCRIPT.text;
  const language = registered?.language ?? form.language ?? DEFAULT_TRANSCRIPT.language;
  const duration = Math.round((registered?.duration ?? audioSeconds(bytes, container) ?? 1) * 100) / 100;
  if (format === 'text') return { text: `${text}\n` };
  if (format === 'verbose_json') {
    return {
      json: {
        task: 'transcribe',
        language: LANGUAGE_NAMES[language] ?? language,
        duration,
        text,
        segments: [{ id: 0, seek: 0, start: 0, end: duration, text: ` ${text}`, tokens: [], temperature: 0, avg_logprob: -0.2, compression_ratio: 1, no_speech_prob: 0.01 }],
        usage: { type: 'duration', seconds: Math.ceil(duration) },
      },
    };
  }
  const textTokens = Math.max(1, Math.ceil(text.length / 4));
  const audioTokens = Math.max(1, Math.round(duration * 10));
  return {
    json: {
      text,
      usage: whisper
        ? { type: 'duration', seconds: Math.ceil(duration) }
        : {
            type: 'tokens',
            input_tokens: audioTokens + (form.prompt ? Math.ceil(form.prompt.length / 4) : 0),
            input_token_details: { text_tokens: form.prompt ? Math.ceil(form.prompt.length / 4) : 0, audio_tokens: audioTokens },
            output_tokens: textTokens,
            total_tokens: audioTokens + textTokens,
          },
    },
  };
}
