/**
 * The integrations feature (SPEC §7 Integrations): list, read, partial update and disconnect by
 * type, and the ChatGPT integration's setup (key sealed at rest), test (a real minimal call with
 * the key) and AI-improve (/ask). Over ports only: repository, secret box, model factory.
 */
import {
  CHATGPT_DEFAULTS,
  MASKED_SECRET,
  chatgptSetupRequest,
  integrationMessages,
  type ChatGptAskInput,
  type ChatGptAskResponse,
  type ChatGptSettings,
  type ChatGptSetupInput,
  type IntegrationType,
  type IntegrationView,
} from '../../contract/integrations.js';
import { BadGatewayError, NotFoundError, ValidationError } from '../errors.js';
import { withModelErrors } from '../ai/model-errors.js';
import type { ModelError } from '../ai/ports.js';
import type { SecretBox } from '../secrets/ports.js';
import { cleanImprovedText, improvementInstruction } from './ai-prompts.js';
import type { IntegrationHealthReports } from './health.js';
import type { AiModelFactory, IntegrationRecord, IntegrationRepository, PublicUrlCheck } from './records.js';
import { chatgptSettings, toView } from './view.js';

export interface IntegrationServiceDeps {
  integrations: IntegrationRepository;
  secrets: SecretBox;
  models: AiModelFactory;
  isPublicUrl: PublicUrlCheck;
  newId: () => string;
  now?: () => Date;
  /** Model failures are logged (kind and adapter message), never shown. */
  onModelError?: (error: ModelError) => void;
  /**
   * The stored key's health (issue 34): a test or AI-improve call with it that OpenAI refuses flags
   * the integration, one that works clears the flag. Absent: not reported.
   */
  health?: IntegrationHealthReports;
}

/** Bound of the /test and /ask calls: inside API Gateway's 29 s. */
const ASK_TIMEOUT_MS = 25_000;
const CHATGPT: IntegrationType = 'chatgpt';

/** '' or '***' in a setup/test body means "keep the stored key". */
const isNewKey = (apiKey: string | undefined): apiKey is string => !!apiKey && apiKey !== MASKED_SECRET;

export function createIntegrationService(deps: IntegrationServiceDeps) {
  const now = () => (deps.now?.() ?? new Date()).toISOString();

  async function requirePublicBaseUrl(baseUrl: string): Promise<void> {
    if (baseUrl && !(await deps.isPublicUrl(baseUrl))) throw new ValidationError(integrationMessages.baseUrlBlocked, 'baseUrl');
  }

  /** A model call with the stored key, its outcome reported as the key's health. */
  async function withStoredKey<T>(userId: string, record: IntegrationRecord | null | undefined, run: () => Promise<T>): Promise<T> {
    if (!record || !deps.health) return run();
    let result: T;
    try {
      result = await run();
    } catch (error) {
      await deps.health.failed(userId, error, record.health);
      throw error;
    }
    await deps.health.recovered(userId, CHATGPT, record.health);
    return result;
  }

  async function mustGet(userId: string, type: IntegrationType): Promise<IntegrationRecord> {
    const record = await deps.integrations.get(userId, type);
    if (!record) throw new NotFoundError(integrationMessages.notFound);
    return record;
  }

  return {
    /** Only the integrations the user has set up (connected or not); a missing type is "not connected". */
    async list(userId: string): Promise<IntegrationView[]> {
      return (await deps.integrations.list(userId)).map(toView);
    },

    async get(userId: string, type: IntegrationType): Promise<IntegrationView> {
      return toView(await mustGet(userId, type));
    },

    /** PUT {isActive?, settings?}: ChatGPT's settings are merged into the stored ones and re-validated. */
    async update(
      userId: string,
      type: IntegrationType,
      patch: { isActive?: boolean; settings?: Record<string, unknown> },
    ): Promise<IntegrationView> {
      const current = await mustGet(userId, type);
      let settings: Record<string, unknown> | undefined;
      if (patch.settings) {
        if (type === CHATGPT) {
          const merged = { ...chatgptSettings(current.settings), ...patch.settings };
          const parsed = chatgptSetupRequest.safeParse(merged);
          if (!parsed.success) {
            const issue = parsed.error.issues[0];
            throw new ValidationError(issue?.message ?? 'Invalid settings', issue ? `settings.${issue.path.join('.')}` : undefined);
          }
          const { apiKey: _apiKey, ...valid } = parsed.data;
          await requirePublicBaseUrl(valid.baseUrl);
          settings = valid satisfies ChatGptSettings;
        }
        // Twilio's and WhatsApp's settings all come from setup (the number it checked, the URLs it
        // pointed the number at): the contract refuses them in a PUT, and nothing else is stored.
      }
      const updated = await deps.integrations.update(userId, type, {
        ...(patch.isActive !== undefined ? { isActive: patch.isActive } : {}),
        ...(settings ? { settings } : {}),
        updatedAt: now(),
      });
      if (!updated) throw new NotFoundError(integrationMessages.notFound);
      return toView(updated);
    },

    async disconnect(userId: string, type: IntegrationType): Promise<void> {
      if (!(await deps.integrations.delete(userId, type))) throw new NotFoundError(integrationMessages.notFound);
    },

    /** Create or edit: the key is required the first time; '' or '***' keeps the stored one. */
    async setupChatGpt(userId: string, input: ChatGptSetupInput): Promise<IntegrationView> {
      const existing = await deps.integrations.get(userId, CHATGPT);
      const storedKey = existing?.credentials.apiKey;
      if (!isNewKey(input.apiKey) && !storedKey) throw new ValidationError(integrationMessages.apiKeyRequired, 'apiKey');
      await requirePublicBaseUrl(input.baseUrl);
      const apiKey = isNewKey(input.apiKey) ? await deps.secrets.seal(input.apiKey) : storedKey!;
      const at = now();
      // A new key (or endpoint) starts healthy; saved unchanged, a needs-attention flag stays until OpenAI takes the key again.
      const sameCredentials = !isNewKey(input.apiKey) && !!existing && chatgptSettings(existing.settings).baseUrl === input.baseUrl;
      const record: IntegrationRecord = {
        id: existing?.id ?? deps.newId(),
        userId,
        type: CHATGPT,
        isActive: true,
        credentials: { ...existing?.credentials, apiKey },
        settings: {
          model: input.model,
          maxTokens: input.maxTokens,
          temperature: input.temperature,
          systemPrompt: input.systemPrompt,
          baseUrl: input.baseUrl,
        } satisfies ChatGptSettings,
        ...(existing?.webhookUrl ? { webhookUrl: existing.webhookUrl } : {}),
        ...(sameCredentials && existing?.health ? { health: existing.health } : {}),
        createdAt: existing?.createdAt ?? at,
        updatedAt: at,
      };
      await deps.integrations.put(record);
      return toView(record);
    },

    /**
     * A real minimal call (the model's metadata) with the given values, or the stored ones for
     * what is not given. Succeeds with integrationMessages.testSuccess; fails with the model message.
     */
    async testChatGpt(userId: string, input: Partial<ChatGptSetupInput>): Promise<void> {
      const existing = await deps.integrations.get(userId, CHATGPT);
      const stored = existing ? chatgptSettings(existing.settings) : undefined;
      let apiKey: string;
      if (isNewKey(input.apiKey)) apiKey = input.apiKey;
      else if (existing?.credentials.apiKey) apiKey = await deps.secrets.open(existing.credentials.apiKey);
      else throw new ValidationError(integrationMessages.apiKeyRequired, 'apiKey');
      const baseUrl = input.baseUrl ?? stored?.baseUrl ?? '';
      const model = input.model ?? stored?.model ?? CHATGPT_DEFAULTS.model;
      await requirePublicBaseUrl(baseUrl);
      // The stored key on its stored endpoint: the test tells its health (issue 34).
      const testsStored = !isNewKey(input.apiKey) && baseUrl === stored?.baseUrl ? existing : undefined;
      await withModelErrors(() => withStoredKey(userId, testsStored, () => deps.models.forKey(apiKey, baseUrl).verify(model)), deps.onModelError);
    },

    /** AI-improve: needs the active integration; returns the improved text within maxLength. */
    async ask(userId: string, input: ChatGptAskInput): Promise<ChatGptAskResponse> {
      const record = await deps.integrations.get(userId, CHATGPT);
      if (!record?.isActive || !record.credentials.apiKey) throw new ValidationError(integrationMessages.chatgptRequired);
      const settings = chatgptSettings(record.settings);
      const apiKey = await deps.secrets.open(record.credentials.apiKey);
      const completion = await withModelErrors(
        () =>
          withStoredKey(userId, record, () =>
            deps.models.forKey(apiKey, settings.baseUrl).complete({
              model: settings.model,
              messages: [
                { role: 'system', content: improvementInstruction(input.promptId, input.maxLength) },
                { role: 'user', content: input.text },
              ],
              // Room for the whole field (≈4 characters per token), whatever the chat setting.
              maxTokens: Math.max(settings.maxTokens, Math.ceil((input.maxLength ?? 5000) / 3)),
              temperature: settings.temperature,
              timeoutMs: ASK_TIMEOUT_MS,
            }),
          ),
        deps.onModelError,
      );
      const response = cleanImprovedText(completion.content ?? '', input.maxLength);
      if (!response) throw new BadGatewayError(integrationMessages.modelUnavailable);
      return { response };
    },
  };
}

export type IntegrationService = ReturnType<typeof createIntegrationService>;
