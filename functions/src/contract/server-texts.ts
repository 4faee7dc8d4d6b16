/**
 * Texts the server stores or answers for the user that are not validation messages: why a call
 * has no analysis, why its summary was not delivered, why a knowledge source failed, why a
 * recording cannot play. English here (API clients read them as they are); the UI shows them
 * in the user's language (frontend/src/i18n/server.es.json, checked by a unit test against
 * every text and template below). Browser-safe.
 */
/** Why an analysis failed or was skipped (shown in the call detail). */
export const summaryReasons = {
  noIntegration: 'Connect the ChatGPT integration to get an AI analysis of your calls.',
  invalidOutput: 'The AI model returned an invalid analysis twice, so this call has no AI analysis.',
  /** invalidOutput followed by the validation detail, e.g. "(urgency: Invalid option …)". */
  invalidOutputWithDetail: (detail: string) => `The AI model returned an invalid analysis twice, so this call has no AI analysis. (${detail})`,
  modelKeyRejected: 'The ChatGPT integration rejected the API key. Check it in Integrations.',
  modelNotFound: 'The model chosen in the ChatGPT integration is not available. Choose another one in Integrations.',
  modelUnavailable: 'The AI model could not be reached, so this call has no AI analysis.',
  silent: 'The caller said nothing, so there is nothing to analyse.',
} as const;

/** Why a summary delivery attempt failed (listed on the call detail). */
export const deliveryReasons = {
  noEmail: 'Your account has no e-mail address to send the summary to.',
  emailFailed: 'The e-mail could not be sent. Please try again later.',
  noWhatsApp: 'Connect the WhatsApp integration to receive call summaries on WhatsApp.',
  noProfilePhone: 'Add your phone number to your profile to receive call summaries on WhatsApp.',
  whatsappWindow:
    'WhatsApp did not deliver the summary: more than 24 hours have passed since your phone last wrote to your WhatsApp Business number, and outside that window WhatsApp only delivers approved message templates. Send any message to your business number from your phone, or choose e-mail or webhook summaries.',
  whatsappFailed: (detail: string) => `WhatsApp did not deliver the summary: ${detail}`,
  /** The detail of whatsappFailed when WhatsApp gave none. */
  tryLater: 'please try again later.',
  noWebhookUrl: 'No webhook URL is configured in the voice settings.',
  webhookStatus: (status: number | string) => `The webhook answered HTTP ${status}.`,
  webhookBlocked: (reason: string) => `The webhook URL is not allowed: ${reason}`,
  webhookTimeout: (seconds: number | string) => `The webhook did not answer within ${seconds} seconds.`,
  webhookUnreachableDetail: (detail: string) => `The webhook could not be reached: ${detail}`,
  webhookUnreachable: 'The webhook could not be reached.',
} as const;

/** Why a knowledge source (file or web page) failed; shown next to it. */
export const knowledgeMessages = {
  notPdf: 'The file could not be read as a PDF',
  pdfEncrypted: 'The PDF is password-protected',
  notDocx: 'The file could not be read as a Word (.docx) document',
  notDoc: 'The file could not be read as a Word (.doc) document',
  notText: 'The file could not be read as text',
  noTextInFile: 'No text found in this file (scanned PDFs are not supported yet)',
  noTextOnPage: 'No readable text found on this page',
  unsupportedFile: 'Unsupported file type (use PDF, TXT, DOC or DOCX)',
  fileTooLarge: 'The file is larger than 50 MB',
  fileMissing: 'The uploaded file was not found; upload it again',
  tooManyChunks: (max: number | string) =>
    `The document is too long: it has more than ${typeof max === 'number' ? max.toLocaleString('en-US') : max} sections of text. Split it into smaller files`,
  httpStatus: (status: number | string) => `The page returned HTTP ${status}`,
  unsupportedContentType: (type: string) => `Unsupported content type: ${type}`,
  pageTooLarge: (mb: number | string) => `The page is larger than ${mb} MB`,
  pageTimeout: (seconds: number | string) => `The page did not answer within ${seconds} seconds`,
  pageUnreachable: 'The page could not be reached',
  blocked: 'Blocked: the address is private',
  // Documents built to exhaust the worker (issue 28): refused before or while they are unpacked.
  zipBomb:
    'This file is not a normal Word document: its packed contents are malformed or unpack to far more than their size (a "zip bomb"), so it was not read',
  documentTooComplex: 'The document is too large to read: it holds more text and formatting than can be processed at once. Split it into smaller files',
  pdfTooManyPages: (max: number | string) =>
    `The PDF has more than ${typeof max === 'number' ? max.toLocaleString('en-US') : max} pages. Split it into smaller files`,
  pageTooComplex: (max: number | string) =>
    `The page is too large to read: it has more than ${typeof max === 'number' ? max.toLocaleString('en-US') : max} HTML elements`,
  /** Every delivery of the job died (crash, timeout, out of memory): set by the queue's last, give-up delivery. */
  gaveUp: 'Processing did not finish after several tries, so it was stopped. Reprocess it to try again; if it stops again, the document may be too large or damaged',
  /** An ingestion failure that is not one of the above (logged). */
  unexpected: 'Processing failed. Please try again',
  // Issue 34: what retrying can fix, told apart from a broken file.
  /** Storage (S3, the table) or the network failed on every try of the retry schedule. */
  storageUnavailable: 'Storage was unavailable, so this could not be processed. Reprocess it to try again',
  /** The user's OpenAI key was refused (401) while embedding: not retried. */
  aiKeyRefused: 'The AI key was refused: check the ChatGPT integration in Integrations, then reprocess this',
  /** The ingestion job could not be queued. */
  notStarted: 'Processing could not start. Reprocess it to try again',
} as const;

/** The call recording's errors (GET …/recording). */
export const recordingMessages = {
  recordingUnavailable: 'The recording could not be loaded from Twilio. Please try again later.',
  recordingTooLarge: 'This recording is too long to play here. Open it in the Twilio console.',
} as const;

/** Refusals the API answers from below the features (issue 29: each one in the contract, so each has its Spanish). */
export const serverErrorMessages = {
  /** Two saves of one contact met (its version changed under the second). */
  contactChanged: 'The contact was changed at the same time. Please try again.',
  /** The outbound guard refused an address (the address and its range stay in the log). */
  blockedAddress: 'Blocked: the address points to a private or local network and cannot be reached',
} as const;

/** What WhatsApp's refusals say when Meta's answer carries no message of its own. */
export const whatsappProviderMessages = {
  auth: 'The WhatsApp access token was rejected',
  not_found: 'The WhatsApp object was not found',
  rate_limit: 'WhatsApp is rate limiting this number',
  bad_request: 'WhatsApp refused the request',
  unavailable: 'WhatsApp could not be reached',
  timeout: 'WhatsApp did not answer in time',
} as const;
